// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cardAggregate, fetchCardData } from '../../src/client/features/dashboard/api';
import type { DashboardCard } from '../../src/shared/dashboard';

const eftCard: DashboardCard = { id: 'efts', title: 'EFT Collection Today', endpoint: 'EFTCard', kind: 'stat', valueField: 'total', aggregate: 'sum' };
const tdrCard: DashboardCard = { id: 'tdrs', title: 'TDRs Filed', endpoint: 'TDRCard', kind: 'stat', aggregate: 'count', withCredentials: true };
const chartCard: DashboardCard = { id: 'c', title: 'Passengers', endpoint: 'psgnCount7days', kind: 'chart', chart: { type: 'line', labelField: 'run_date', series: [{ field: 'passengers', label: 'Passengers' }] } };
const firstCard: DashboardCard = { id: 'd', title: 'Registered HHTs', endpoint: 'Total_Registered_Devices', method: 'GET', kind: 'stat', valueField: 'total' };

const seen: Request[] = [];
/** Node's Request does not resolve '/api/...' against the page as a browser does: this one does. */
class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, location.href).href : input, init);
  }
}
function answer(body: unknown): void {
  vi.stubGlobal('Request', PageRequest);
  vi.stubGlobal('fetch', async (input: Request) => {
    seen.push(input);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
  seen.length = 0;
});

describe('dashboard stat cards ask the server for their figure', () => {
  it('maps a card to its aggregate: count, a sum of its value field, or none', () => {
    expect(cardAggregate(tdrCard)).toBe('count');
    expect(cardAggregate(eftCard)).toBe('sum:total');
    expect(cardAggregate(chartCard)).toBeUndefined();
    expect(cardAggregate(firstCard)).toBeUndefined();
  });

  it('sends ?aggregate= with the POST filter and shows the figure the server computed', async () => {
    answer({ rows: [], total: 3, page: 1, rowsPerPage: 0, aggregate: { count: 3, sum: 1234.5 } });
    const data = await fetchCardData(eftCard);
    expect(data.value).toBe(1234.5);
    const req = seen[0];
    expect(req?.method).toBe('POST');
    expect(new URL(req?.url ?? '').searchParams.get('aggregate')).toBe('sum:total');
  });

  it('falls back to the rows when the server sends no figure, and charts get rows only', async () => {
    answer({ rows: [{ run_date: '2026-11-23', passengers: 5 }], total: 1, page: 1, rowsPerPage: 1 });
    expect(await fetchCardData(tdrCard)).toEqual({ rows: [{ run_date: '2026-11-23', passengers: 5 }] });
    const chart = await fetchCardData(chartCard);
    expect(chart.value).toBeUndefined();
    expect(new URL(seen[1]?.url ?? '').searchParams.has('aggregate')).toBe(false);
  });
});
