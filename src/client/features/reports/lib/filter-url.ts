/**
 * The report's state lives in the URL query string so a result can be shared and back/forward work.
 * Filter fields use their own names; the page's own keys start with '_' (a filter field never does in
 * practice, and they are read only when they are not filter fields).
 */
import { isObject } from './parse';
import type { JsonObject } from '../../../../shared/report-definition';

export type Filter = Record<string, unknown>;

export const VIEW_KEYS = { run: '_run', tab: '_tab', page: '_page', rows: '_rows', sort: '_sort', dir: '_dir', layout: '_layout' } as const;

export interface ViewState {
  /** The URL asks for a run (opening a shared URL runs it). */
  run: boolean;
  tab?: string;
  page?: number;
  rowsPerPage?: number;
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  /** The user's choice of table or card list (otherwise the screen's width decides). */
  layout?: 'grid' | 'cards';
}

function propertiesOf(schema: JsonObject): [string, JsonObject][] {
  const props = isObject(schema.properties) ? schema.properties : {};
  return Object.entries(props).map(([k, v]) => [k, isObject(v) ? v : {}]);
}

function typeOf(prop: JsonObject): string | undefined {
  const t = prop.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null');
  if (Array.isArray(prop.enum) && prop.enum.length > 0) {
    const first: unknown = prop.enum[0];
    return typeof first === 'number' ? 'number' : typeof first === 'boolean' ? 'boolean' : 'string';
  }
  return undefined;
}

const isEmpty = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** Trims strings and drops empty values: what the form sends and what goes into the URL. */
export function cleanFilter(filter: Filter, schema: JsonObject): Filter {
  const out: Filter = {};
  for (const [key] of propertiesOf(schema)) {
    let v = filter[key];
    if (typeof v === 'string') v = v.trim();
    if (Array.isArray(v)) v = v.filter((x) => !isEmpty(x));
    if (!isEmpty(v)) out[key] = v;
  }
  return out;
}

/**
 * Identifier fields (strings with a pattern: train no, trip id, PNR, EFT no...) without the spaces around them, as the
 * user types or pastes: the form validates what the server will receive (it trims too), so ' 12002 ' is 12002, not an
 * error. No filter pattern allows spaces, so nothing a user means is lost.
 */
export function trimIdFields(filter: Filter, schema: JsonObject): Filter {
  let out: Filter | null = null;
  for (const [key, prop] of propertiesOf(schema)) {
    const v = filter[key];
    if (typeof v !== 'string' || typeof prop.pattern !== 'string' || v.trim() === v) continue;
    out ??= { ...filter };
    out[key] = v.trim();
  }
  return out ?? filter;
}

/** Filter -> query parameters, in the schema's property order (stable URLs). */
export function filterToParams(filter: Filter, schema: JsonObject, view?: Omit<ViewState, 'run'>): URLSearchParams {
  const params = new URLSearchParams();
  const clean = cleanFilter(filter, schema);
  for (const [key] of propertiesOf(schema)) {
    const v = clean[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) params.append(key, scalar(item));
    else params.set(key, scalar(v));
  }
  params.set(VIEW_KEYS.run, '1');
  if (view?.tab) params.set(VIEW_KEYS.tab, view.tab);
  if (view?.page && view.page > 1) params.set(VIEW_KEYS.page, String(view.page));
  if (view?.rowsPerPage) params.set(VIEW_KEYS.rows, String(view.rowsPerPage));
  if (view?.sortBy) {
    params.set(VIEW_KEYS.sort, view.sortBy);
    params.set(VIEW_KEYS.dir, view.sortDir ?? 'asc');
  }
  if (view?.layout) params.set(VIEW_KEYS.layout, view.layout);
  return params;
}

const scalar = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

function fromText(text: string, prop: JsonObject): unknown {
  switch (typeOf(prop)) {
    case 'number':
    case 'integer': {
      const n = Number(text);
      return text.trim() !== '' && Number.isFinite(n) ? n : text; // left as text: the form shows it as invalid
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/** Query parameters -> filter: only the schema's fields, typed by the schema. Unknown keys are ignored. */
export function paramsToFilter(params: URLSearchParams, schema: JsonObject): Filter {
  const out: Filter = {};
  for (const [key, prop] of propertiesOf(schema)) {
    if (!params.has(key)) continue;
    if (typeOf(prop) === 'array') {
      const items = isObject(prop.items) ? prop.items : {};
      out[key] = params.getAll(key).map((t) => fromText(t, items));
    } else {
      const t = params.get(key);
      if (t !== null && t.length <= 500) out[key] = fromText(t, prop);
    }
  }
  return out;
}

const posInt = (t: string | null, max: number): number | undefined => {
  if (t === null || !/^\d{1,6}$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= max ? n : undefined;
};

/** The page's own keys, validated: unknown tabs and sort columns are dropped by the caller's lists. */
export function paramsToView(params: URLSearchParams, tabs: readonly string[], sortable: readonly string[]): ViewState {
  const view: ViewState = { run: params.get(VIEW_KEYS.run) === '1' };
  const tab = params.get(VIEW_KEYS.tab);
  if (tab && tabs.includes(tab)) view.tab = tab;
  const page = posInt(params.get(VIEW_KEYS.page), 100_000);
  if (page) view.page = page;
  const rows = posInt(params.get(VIEW_KEYS.rows), 1000);
  if (rows) view.rowsPerPage = rows;
  const sort = params.get(VIEW_KEYS.sort);
  if (sort && sortable.includes(sort)) {
    view.sortBy = sort;
    view.sortDir = params.get(VIEW_KEYS.dir) === 'desc' ? 'desc' : 'asc';
  }
  const layout = params.get(VIEW_KEYS.layout);
  if (layout === 'grid' || layout === 'cards') view.layout = layout;
  return view;
}

/** A stable text for a filter (keys in schema order), used as the query key. */
export function filterKey(filter: Filter, schema: JsonObject): string {
  return filterToParams(filter, schema).toString();
}

/** "Train No: 12301, Run Date: 01/08/2025": the applied filter for people (empty state, print view). */
export function describeFilter(filter: Filter, schema: JsonObject, format: (key: string, prop: JsonObject, v: unknown) => string): { key: string; label: string; value: string }[] {
  const clean = cleanFilter(filter, schema);
  return propertiesOf(schema).flatMap(([key, prop]) => {
    const v = clean[key];
    if (v === undefined) return [];
    const label = typeof prop.title === 'string' ? prop.title : key;
    return [{ key, label, value: format(key, prop, v) }];
  });
}
