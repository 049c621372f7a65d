import { HTTPError } from 'ky';
import { api } from '../../lib/api';
import { resolveDefault } from '../../../shared/definitions/filter-widgets';
import { cardAggregate, type DashboardCard, type DashboardConfig } from '../../../shared/dashboard';

export { cardAggregate };

export type Row = Record<string, unknown>;

/** Today in India (railway days are Indian days), 'YYYY-MM-DD'. */
export function istToday(now = new Date()): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/** The server's message for a failed call, or a plain one. */
export async function failureText(err: unknown): Promise<string> {
  if (err instanceof HTTPError) {
    try {
      const body = (await err.response.clone().json()) as { message?: unknown };
      if (typeof body.message === 'string') return body.message;
    } catch {
      /* not JSON */
    }
    return `The server answered ${err.response.status}.`;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return 'The server took too long to answer.';
  return 'The server cannot be reached. Check your connection.';
}

export function fetchDashboard(signal?: AbortSignal): Promise<DashboardConfig> {
  return api.get('/api/meta/dashboard', { signal }).json<DashboardConfig>();
}

/** What a card shows: the rows of its call, or (stat cards that count or sum) the one figure the server computed. */
export interface CardData {
  rows: Row[];
  value?: number;
}

/** One card's call: GET with the params as query, or POST with them as the filter body. */
export async function fetchCardData(card: DashboardCard, signal?: AbortSignal): Promise<CardData> {
  const today = istToday();
  const params: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(card.params ?? {})) params[k] = resolveDefault(v, today) as string | number | boolean;
  const credentials: RequestCredentials = card.withCredentials ? 'include' : 'same-origin';
  const url = `/api/${card.endpoint}`;
  const aggregate = cardAggregate(card);
  const query = aggregate ? { aggregate } : {};
  const res =
    card.method === 'GET'
      ? api.get(url, { searchParams: { ...params, ...query }, credentials, signal })
      : api.post(url, { json: params, searchParams: query, credentials, signal });
  const body: unknown = await res.json();
  if (Array.isArray(body)) return { rows: body as Row[] };
  const o = (body ?? {}) as { rows?: unknown; aggregate?: { count?: unknown; sum?: unknown } };
  const rows = Array.isArray(o.rows) ? (o.rows as Row[]) : [];
  if (aggregate && o.aggregate) {
    const v = aggregate === 'count' ? o.aggregate.count : o.aggregate.sum;
    if (typeof v === 'number' && Number.isFinite(v)) return { rows, value: v };
  }
  return { rows };
}

/** The single number of a stat card. */
export function statValue(card: DashboardCard, rows: Row[]): number {
  if (card.aggregate === 'count') return rows.length;
  const field = card.valueField ?? '';
  const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
  if (card.aggregate === 'sum') return rows.reduce((s, r) => s + num(r[field]), 0);
  return num(rows[0]?.[field]);
}
