import { HTTPError } from 'ky';
import { api } from '../../lib/api';
import { resolveDefault } from '../../../shared/definitions/filter-widgets';
import { cardAggregate, type DashboardCard, type DashboardConfig } from '../../../shared/dashboard';
import { parseFreshness, type Freshness } from '../../../shared/freshness';

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
  /** As of when the card's data is, when the server says. */
  freshness?: Freshness;
  /** Answered from the server's result cache, this old (seconds). */
  cacheAgeSeconds?: number;
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
  const response = await res;
  const body: unknown = await response.json();
  if (Array.isArray(body)) return { rows: body as Row[] };
  const o = (body ?? {}) as { rows?: unknown; aggregate?: { count?: unknown; sum?: unknown }; freshness?: unknown };
  const rows = Array.isArray(o.rows) ? (o.rows as Row[]) : [];
  const data: CardData = { rows };
  const freshness = parseFreshness(o.freshness);
  if (freshness) data.freshness = freshness;
  const age = response.headers.get('age');
  if (age !== null && /^\d{1,9}$/.test(age)) data.cacheAgeSeconds = Number(age);
  if (aggregate && o.aggregate) {
    const v = aggregate === 'count' ? o.aggregate.count : o.aggregate.sum;
    if (typeof v === 'number' && Number.isFinite(v)) data.value = v;
  }
  return data;
}

/** The single number of a stat card. */
export function statValue(card: DashboardCard, rows: Row[]): number {
  if (card.aggregate === 'count') return rows.length;
  const field = card.valueField ?? '';
  const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
  if (card.aggregate === 'sum') return rows.reduce((s, r) => s + num(r[field]), 0);
  return num(rows[0]?.[field]);
}
