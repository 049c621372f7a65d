/**
 * Boundary checks for everything the report page reads from the server. Values are narrowed here,
 * never cast: a malformed answer becomes a clear error message instead of a broken page.
 */
import { isColumnType } from '../../../../shared/column-types';
import type { ConsistCoach, ConsistResponse } from '../../../../shared/consist';
import type {
  ColumnDef,
  ConsistDef,
  DateRangeRule,
  ExportDef,
  FilterDef,
  JsonObject,
  PagingDef,
  PublicReport,
  PublicTab,
  ReportSummary,
} from '../../../../shared/report-definition';

import { parseFreshness, type Freshness } from '../../../../shared/freshness';

export type Row = Record<string, unknown>;

export interface ReportPage {
  rows: Row[];
  total: number;
  page: number;
  rowsPerPage: number;
  /** As of when the data is (absent from servers that do not say). */
  freshness?: Freshness;
  /** Set when the server answered from its result cache: the answer's age in seconds (Age header). */
  cacheAgeSeconds?: number;
}

export class BoundaryError extends Error {
  constructor(what: string, path: string, reason: string) {
    super(`${what} from the server is malformed at ${path || '/'}: ${reason}`);
    this.name = 'BoundaryError';
  }
}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v);

function fail(path: string, reason: string): never {
  throw new BoundaryError('The report definition', path, reason);
}

function optString(o: JsonObject, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail(`${path}/${key}`, 'must be text');
  return v;
}

function parseColumns(v: unknown, path: string): ColumnDef[] {
  if (!Array.isArray(v) || v.length === 0) fail(path, 'must be a non-empty list of columns');
  return v.map((c, i): ColumnDef => {
    const p = `${path}/${i}`;
    if (!isObject(c)) fail(p, 'must be an object');
    if (typeof c.field !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.field)) fail(`${p}/field`, 'must be a column name');
    if (typeof c.headerName !== 'string') fail(`${p}/headerName`, 'must be text');
    const col: ColumnDef = { field: c.field, headerName: c.headerName };
    if (c.type !== undefined) {
      if (typeof c.type !== 'string' || !isColumnType(c.type)) fail(`${p}/type`, 'is not a known column type');
      col.type = c.type;
    }
    if (c.width !== undefined) {
      if (typeof c.width !== 'number' || !Number.isFinite(c.width)) fail(`${p}/width`, 'must be a number');
      col.width = c.width;
    }
    if (c.pinned !== undefined) {
      if (c.pinned !== 'left' && c.pinned !== 'right') fail(`${p}/pinned`, 'must be left or right');
      col.pinned = c.pinned;
    }
    if (c.hidden !== undefined) col.hidden = c.hidden === true;
    if (c.priority !== undefined) {
      if (c.priority !== 1 && c.priority !== 2 && c.priority !== 3) fail(`${p}/priority`, 'must be 1, 2 or 3');
      col.priority = c.priority;
    }
    if (c.sortable !== undefined) col.sortable = c.sortable !== false;
    if (c.link !== undefined) {
      const l = c.link;
      if (!isObject(l) || !isName(l.report) || !isObject(l.params)) fail(`${p}/link`, 'must be {report, params}');
      const params: Record<string, string> = {};
      for (const [k, val] of Object.entries(l.params)) {
        if (typeof val !== 'string') fail(`${p}/link/params/${k}`, 'must be text');
        params[k] = val;
      }
      col.link = { report: l.report, params };
    }
    if (c.labels !== undefined) {
      if (!isObject(c.labels)) fail(`${p}/labels`, 'must be an object of code -> words');
      const labels: Record<string, string> = {};
      for (const [code, words] of Object.entries(c.labels)) {
        if (typeof words !== 'string' || words === '') fail(`${p}/labels/${code}`, 'must be text');
        labels[code] = words;
      }
      col.labels = labels;
    }
    return col;
  });
}

function parsePaging(v: unknown, path: string): PagingDef | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || (v.mode !== 'client' && v.mode !== 'server') || typeof v.pageSize !== 'number' || v.pageSize < 1) {
    fail(path, 'must be {mode: client|server, pageSize}');
  }
  return { mode: v.mode, pageSize: Math.min(Math.floor(v.pageSize), 1000) };
}

function parseResponse(v: unknown, path: string): { rowsPath: string } | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || typeof v.rowsPath !== 'string' || !/^[A-Za-z0-9_.]+$/.test(v.rowsPath)) fail(path, 'must be {rowsPath}');
  return { rowsPath: v.rowsPath };
}

function parseMethod(v: unknown, path: string): 'GET' | 'POST' | undefined {
  if (v === undefined) return undefined;
  if (v !== 'GET' && v !== 'POST') fail(path, 'must be GET or POST');
  return v;
}

function parseFilterDef(v: unknown): FilterDef {
  if (!isObject(v)) fail('/filter', 'must be an object');
  const schema = v.schema;
  if (!isObject(schema) || !isObject(schema.properties)) fail('/filter/schema', 'must be an object schema with properties');
  const out: FilterDef = { schema };
  if (v.uiSchema !== undefined) {
    if (!isObject(v.uiSchema)) fail('/filter/uiSchema', 'must be an object');
    out.uiSchema = v.uiSchema;
  }
  if (v.defaults !== undefined) {
    if (!isObject(v.defaults)) fail('/filter/defaults', 'must be an object');
    out.defaults = v.defaults;
  }
  if (v.rules !== undefined) {
    if (!Array.isArray(v.rules)) fail('/filter/rules', 'must be a list');
    out.rules = v.rules.map((r, i): DateRangeRule => {
      if (!isObject(r) || r.rule !== 'dateRange' || typeof r.start !== 'string' || typeof r.end !== 'string' || typeof r.maxDays !== 'number') {
        fail(`/filter/rules/${i}`, 'must be {rule: dateRange, start, end, maxDays}');
      }
      return { rule: 'dateRange', start: r.start, end: r.end, maxDays: r.maxDays };
    });
  }
  return out;
}

const FORMATS = ['csv', 'xlsx', 'pdf'] as const;

function parseExport(v: unknown): ExportDef | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || !Array.isArray(v.formats) || typeof v.fileName !== 'string') fail('/export', 'must be {formats, fileName}');
  const formats = v.formats.filter((f): f is ExportDef['formats'][number] => (FORMATS as readonly unknown[]).includes(f));
  return { formats, fileName: v.fileName };
}

function parseCaps(v: unknown): PublicReport['exportCaps'] {
  if (!isObject(v)) fail('/exportCaps', 'must be an object');
  const caps = { csv: 0, xlsx: 0, pdf: 0 };
  for (const f of FORMATS) {
    const n = v[f];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) fail(`/exportCaps/${f}`, 'must be a number');
    caps[f] = n;
  }
  return caps;
}

function parseConsistDef(v: unknown): ConsistDef | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || !isName(v.trainNo) || !isName(v.startDate)) fail('/consist', 'must be {trainNo, startDate} filter field names');
  const out: ConsistDef = { trainNo: v.trainNo, startDate: v.startDate };
  if (v.coach !== undefined) {
    if (!isName(v.coach)) fail('/consist/coach', 'must be a filter field name');
    out.coach = v.coach;
  }
  const event = optString(v, 'trainEvent', '/consist');
  if (event !== undefined) out.trainEvent = event;
  return out;
}

/** GET /api/meta/reports/:id */
export function parsePublicReport(v: unknown): PublicReport {
  if (!isObject(v)) fail('', 'must be an object');
  if (!isName(v.id)) fail('/id', 'must be a report id');
  if (typeof v.title !== 'string') fail('/title', 'must be text');
  if (!isName(v.endpoint)) fail('/endpoint', 'must be an endpoint name');
  const report: PublicReport = {
    id: v.id,
    title: v.title,
    endpoint: v.endpoint,
    filter: parseFilterDef(v.filter),
    columns: parseColumns(v.columns, '/columns'),
    exportCaps: parseCaps(v.exportCaps),
  };
  const description = optString(v, 'description', '');
  if (description !== undefined) report.description = description;
  const validator = optString(v, 'filterValidator', '');
  if (validator !== undefined) {
    // Imported as a script: only a module of our own API, never another origin or path.
    if (!/^\/api\/filter-validators\/[A-Za-z0-9_-]{43}\.js$/.test(validator)) fail('/filterValidator', 'must be a filter validator path of this server');
    report.filterValidator = validator;
  }
  const method = parseMethod(v.method, '/method');
  if (method) report.method = method;
  const exp = parseExport(v.export);
  if (exp) report.export = exp;
  const paging = parsePaging(v.paging, '/paging');
  if (paging) report.paging = paging;
  const response = parseResponse(v.response, '/response');
  if (response) report.response = response;
  const consist = parseConsistDef(v.consist);
  if (consist) report.consist = consist;
  if (v.tabs !== undefined) {
    if (!Array.isArray(v.tabs)) fail('/tabs', 'must be a list');
    report.tabs = v.tabs.map((t, i): PublicTab => {
      const p = `/tabs/${i}`;
      if (!isObject(t) || !isName(t.id) || typeof t.label !== 'string' || !isName(t.endpoint)) fail(p, 'must be {id, label, endpoint}');
      const tab: PublicTab = { id: t.id, label: t.label, endpoint: t.endpoint };
      const m = parseMethod(t.method, `${p}/method`);
      if (m) tab.method = m;
      if (t.columns !== undefined) tab.columns = parseColumns(t.columns, `${p}/columns`);
      const pg = parsePaging(t.paging, `${p}/paging`);
      if (pg) tab.paging = pg;
      const r = parseResponse(t.response, `${p}/response`);
      if (r) tab.response = r;
      return tab;
    });
  }
  return report;
}

/** GET /api/meta/reports */
export function parseReportList(v: unknown): ReportSummary[] {
  const list = isObject(v) ? v.reports : undefined;
  if (!Array.isArray(list)) throw new BoundaryError('The report list', '/reports', 'must be a list');
  return list.flatMap((r): ReportSummary[] => {
    if (!isObject(r) || !isName(r.id) || typeof r.title !== 'string') return [];
    const s: ReportSummary = { id: r.id, title: r.title, status: r.status === 'unavailable' ? 'unavailable' : 'ok' };
    if (typeof r.description === 'string') s.description = r.description;
    if (typeof r.reason === 'string') s.reason = r.reason;
    return [s];
  });
}

/** Reads 'a.b.c' from an object; undefined when any step is missing. */
export function readPath(v: unknown, path: string): unknown {
  let cur: unknown = v;
  for (const key of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** A list of objects, or a single object read as a one-row list (the spec's "normalised to a list"). */
export function normaliseRows(v: unknown): Row[] | null {
  if (Array.isArray(v)) return v.filter(isObject);
  if (isObject(v)) return [v];
  if (v === null) return [];
  return null;
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

/** A report call's answer: {rows, total, page, rowsPerPage}, rows read from rowsPath when the view has one. */
export function parseReportResult(v: unknown, rowsPath?: string): ReportPage {
  let rows: Row[] | null = null;
  if (rowsPath) rows = normaliseRows(readPath(v, rowsPath));
  if (rows === null && isObject(v)) rows = normaliseRows(v.rows);
  if (rows === null && Array.isArray(v)) rows = normaliseRows(v);
  if (rows === null) throw new BoundaryError('The report result', rowsPath ? `/${rowsPath.replace(/\./g, '/')}` : '/rows', 'has no list of rows');
  const o = isObject(v) ? v : {};
  const total = Math.max(count(o.total) ?? rows.length, rows.length);
  const page: ReportPage = { rows, total, page: Math.max(count(o.page) ?? 1, 1), rowsPerPage: count(o.rowsPerPage) ?? rows.length };
  const freshness = parseFreshness(o.freshness);
  if (freshness) page.freshness = freshness;
  return page;
}

/** The Age header of an answer (seconds), when the server sent one. */
export function parseAge(header: string | null): number | undefined {
  return header !== null && /^\d{1,9}$/.test(header) ? Number(header) : undefined;
}

export interface NearestDate {
  field: string;
  date: string;
  count: number;
}

/** The answer of `?nearest=earlier`: {nearest: {field, date, count} | null}. */
export function parseNearestDate(v: unknown): NearestDate | null {
  if (!isObject(v) || !('nearest' in v)) throw new BoundaryError('The nearest date', '/nearest', 'is missing');
  const n = v.nearest;
  if (n === null) return null;
  if (!isObject(n) || typeof n.field !== 'string' || typeof n.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(n.date) || typeof n.count !== 'number') {
    throw new BoundaryError('The nearest date', '/nearest', 'is not {field, date, count}');
  }
  return { field: n.field, date: n.date, count: n.count };
}

export interface FieldProblem {
  field: string;
  reason: string;
}

/** The body of an error answer: {message, fields?: [{field, reason}]}; anything else gets a fallback. */
export function parseErrorBody(v: unknown, fallback: string): { message: string; fields: FieldProblem[] } {
  if (!isObject(v)) return { message: typeof v === 'string' && v.trim() && v.length < 500 ? v.trim() : fallback, fields: [] };
  const message = typeof v.message === 'string' && v.message.trim() ? v.message : fallback;
  const fields = Array.isArray(v.fields)
    ? v.fields.flatMap((f): FieldProblem[] => (isObject(f) && typeof f.field === 'string' && typeof f.reason === 'string' ? [{ field: f.field, reason: f.reason }] : []))
    : [];
  return { message, fields };
}

export interface RailwayCode {
  zone: string;
  division: string;
  lobby: string;
}

const code = (v: unknown): string => (typeof v === 'string' ? v.trim().toUpperCase() : typeof v === 'number' ? String(v) : '');

/** GET /api/dropDownRailwayCode: items whose `id` holds {rly_Code, div_Code, off_Code} (flat items accepted too). */
export function parseRailwayCodes(v: unknown): RailwayCode[] {
  if (!Array.isArray(v)) throw new BoundaryError('The railway code list', '/', 'must be a list');
  const seen = new Set<string>();
  const out: RailwayCode[] = [];
  for (const item of v) {
    if (!isObject(item)) continue;
    const src = isObject(item.id) ? item.id : item;
    const c = { zone: code(src.rly_Code), division: code(src.div_Code), lobby: code(src.off_Code) };
    if (!c.zone) continue;
    const key = `${c.zone}|${c.division}|${c.lobby}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** POST /api/coachConsist: the coaches in marshalling order. */
export function parseConsist(v: unknown): ConsistResponse {
  const bad = (path: string, reason: string): never => {
    throw new BoundaryError('The coach composition', path, reason);
  };
  if (!isObject(v)) return bad('', 'must be an object');
  if (typeof v.trainNo !== 'string' || typeof v.startDate !== 'string') return bad('', 'must name the train and date');
  if (!Array.isArray(v.coaches)) return bad('/coaches', 'must be a list');
  const coaches = v.coaches.map((c, i): ConsistCoach => {
    if (!isObject(c) || typeof c.coachId !== 'string' || typeof c.class !== 'string') return bad(`/coaches/${i}`, 'must be {seq, coachId, class, capacity}');
    const seq = count(c.seq);
    const capacity = count(c.capacity);
    if (seq === undefined || capacity === undefined) return bad(`/coaches/${i}`, 'seq and capacity must be numbers');
    return { seq, coachId: c.coachId, class: c.class, capacity };
  });
  return { trainNo: v.trainNo, startDate: v.startDate, trainEvent: typeof v.trainEvent === 'string' ? v.trainEvent : 'C', coaches };
}
