/** Dashboard cards as data (dashboard.json, validated by schemas/dashboard.schema.json). */
import type { DashboardHindi } from './definitions/hindi';

export type ChartType = 'line' | 'bar' | 'doughnut' | 'pie';

export interface ChartSeries {
  field: string;
  label: string;
}

export interface CardChart {
  type: ChartType;
  /** Row field giving the x-axis labels (line/bar) or the slice names (doughnut/pie). */
  labelField: string;
  series: ChartSeries[];
}

export interface DashboardCard {
  id: string;
  title: string;
  /** Call name: /api/<endpoint>. */
  endpoint: string;
  method?: 'POST' | 'GET';
  kind: 'stat' | 'chart';
  /** stat: the row field holding the number. */
  valueField?: string;
  /** stat: how rows become one number: first row's value (default), sum over rows, or the row count. */
  aggregate?: 'first' | 'sum' | 'count';
  /** stat: number (default), currency (rupees) or percent. */
  format?: 'number' | 'currency' | 'percent';
  /** stat: text under the number. */
  caption?: string;
  chart?: CardChart;
  /** PrimeIcons class, e.g. "pi pi-users". */
  icon?: string;
  /** A report id (opens /layout/uikit/<id>) or a path under /layout. */
  link?: string;
  /** Send cookies with the call (spec: TDRCard is sent with credentials). */
  withCredentials?: boolean;
  /** Filter body (POST) or query (GET) sent with the call; "$today" style values resolve on the day. */
  params?: Record<string, string | number | boolean>;
}

export interface DashboardConfig {
  $schema?: string;
  cards: DashboardCard[];
  /** Optional Hindi of the cards (src/shared/definitions/hindi.ts); never sent to the browser. */
  hi?: DashboardHindi;
}

/** Where a card's link goes in the client. */
export function cardHref(link: string): string {
  return link.startsWith('/') ? link : `/layout/uikit/${link}`;
}

/**
 * The `?aggregate=` a stat card asks for (count, or sum of its value field), so the database counts or sums every
 * row instead of sending them; undefined for charts and first-row cards, which read rows. The dashboard and the
 * national bench both call cards this way.
 */
export function cardAggregate(card: DashboardCard): string | undefined {
  if (card.kind !== 'stat') return undefined;
  if (card.aggregate === 'count') return 'count';
  if (card.aggregate === 'sum' && card.valueField) return `sum:${card.valueField}`;
  return undefined;
}
