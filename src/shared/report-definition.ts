/**
 * A report definition (reports/<id>.json) as the engine uses it. schemas/report.schema.json is the
 * authority; these types mirror it and are only trusted after validation (src/shared/definitions).
 */
import type { ColumnTypeName } from './column-types';
import type { ReportHindi } from './definitions/hindi-blocks';

export type JsonObject = { [key: string]: unknown };

export interface ColumnLink {
  /** Report id to open. */
  report: string;
  /** Filter of the target report: values are literals or '{field}' placeholders filled from the row. */
  params: Record<string, string>;
}

export interface ColumnDef {
  field: string;
  headerName: string;
  type?: ColumnTypeName;
  width?: number;
  pinned?: 'left' | 'right';
  hidden?: boolean;
  /** 1 = always shown, first; 2 = shown when there is room (the default); 3 = on demand. */
  priority?: ColumnPriority;
  sortable?: boolean;
  link?: ColumnLink;
  /** Words shown for stored codes (e.g. {"NOT_SUBMITTED": "Not submitted"}), in the grid, print and every export. */
  labels?: Record<string, string>;
}

export type ColumnPriority = 1 | 2 | 3;

/** A column's priority with the default applied. */
export const columnPriority = (c: Pick<ColumnDef, 'priority'>): ColumnPriority => c.priority ?? 2;

export interface PagingDef {
  mode: 'client' | 'server';
  pageSize: number;
}

export interface SourceDef {
  /** A sibling .sql file name, or inline SQL. Named parameters ':name'; the token {{scope}} takes the row-scope predicate. */
  sql: string;
  /**
   * Server paging only: SQL (file or inline) whose one row's `total` is the number of rows `sql` gives for the same
   * parameters and scope, read instead of counting those rows (e.g. a rollup's stored counts).
   */
  count?: string;
  /** Column expressions the scope predicate compares with the user's zone, division or lobby. A level without a rule is denied. */
  scope: { zone?: string; division?: string; lobby?: string };
  /** true: no scope rule on purpose, so only SU reads it (the audit trail); an empty scope is an error otherwise. */
  suOnly?: true;
  /**
   * Fixed values of named parameters for this call (e.g. {mark: 'NT'}), so tabs that differ only by a value share
   * one SQL. Bound like filter values; never a filter field, so the request cannot set them.
   */
  params?: Record<string, FixedParamValue>;
}

/** A value a definition fixes for a named SQL parameter. */
export type FixedParamValue = string | number | boolean | null;

/** A second call of the same report, picked by a tab or option (shares the filter). */
export interface TabDef {
  id: string;
  label: string;
  endpoint: string;
  method?: 'POST' | 'GET';
  columns?: ColumnDef[];
  paging?: PagingDef;
  response?: { rowsPath: string };
  source: SourceDef;
}

export interface DateRangeRule {
  rule: 'dateRange';
  start: string;
  end: string;
  maxDays: number;
}

export interface FilterDef {
  /** JSON schema (draft-07) of the filter object; may $ref schemas/fields/*.json. */
  schema: JsonObject;
  uiSchema?: JsonObject;
  /** Default values; the strings '$today', '$today-N', '$today+N' resolve to ISO dates on the day of use. */
  defaults?: Record<string, unknown>;
  /** Rules across fields that JSON schema cannot express. */
  rules?: DateRangeRule[];
}

export interface ExportDef {
  formats: ('csv' | 'xlsx' | 'pdf')[];
  /** File name template; {field} placeholders take filter values. */
  fileName: string;
}

/** Coach composition shown above the result: which filter fields hold the train, the date and (optionally) the coach. */
export interface ConsistDef {
  trainNo: string;
  startDate: string;
  /** A click on a coach puts its id in this filter field and runs the report. */
  coach?: string;
  /** Default 'C' (as charted). */
  trainEvent?: string;
}

/** How fresh a report's answers are said to be (report-definitions.md, "Freshness"). */
export interface FreshnessDef {
  /** 'sync' (default): the latest synced record of the runs covered; 'none': not data terminals sync. */
  basis?: 'sync' | 'none';
  /** A beat on duty with no sync for longer than this is stale (default FRESHNESS_STALE_AFTER_MINUTES). */
  staleAfterMinutes?: number;
}

export interface ReportDefinition {
  $schema?: string;
  id: string;
  title: string;
  description?: string;
  endpoint: string;
  method?: 'POST' | 'GET';
  filter: FilterDef;
  columns: ColumnDef[];
  export?: ExportDef;
  paging?: PagingDef;
  response?: { rowsPath: string };
  tabs?: TabDef[];
  consist?: ConsistDef;
  freshness?: FreshnessDef;
  source: SourceDef;
  /** Optional Hindi texts, keyed by filter field, column field and tab id (src/shared/definitions/hindi.ts). */
  hi?: ReportHindi;
}

/** What GET /api/meta/reports/:id sends: no source, $refs inlined, plus the export caps. */
export type PublicTab = Omit<TabDef, 'source'>;
export interface PublicReport extends Omit<ReportDefinition, 'source' | 'tabs' | '$schema' | 'hi'> {
  tabs?: PublicTab[];
  exportCaps: Record<'csv' | 'xlsx' | 'pdf', number>;
  /** Path of the JavaScript module holding the filter schema's compiled Ajv validators (same origin). */
  filterValidator?: string;
}

export interface ReportSummary {
  id: string;
  title: string;
  description?: string;
  status: 'ok' | 'unavailable';
  reason?: string;
}

/** Response of every report call. */
export interface ReportResult<Row = Record<string, unknown>> {
  rows: Row[];
  total: number;
  page: number;
  rowsPerPage: number;
}

/** Row caps per export format, shown to the user before export. */
export const EXPORT_CAPS: Record<'csv' | 'xlsx' | 'pdf', number> = { csv: 200_000, xlsx: 100_000, pdf: 5_000 };

/** Largest result the client-paged mode returns in one response. */
export const CLIENT_PAGING_MAX_ROWS = 20_000;
