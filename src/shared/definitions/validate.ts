/**
 * The one validator of report definitions, used by the server (load and hot reload), by
 * `npm run check:definitions` and by the tests. Pure: callers read the files and pass their text.
 * Reports every error at once, each with file, JSON pointer and reason.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isColumnType } from '../column-types';
import type { ColumnDef, FixedParamValue, ReportDefinition, SourceDef } from '../report-definition';
import { FILTER_WIDGETS } from './filter-widgets';
import { compileNamedSql, SCOPE_TOKEN } from './sql-params';
import { jsonErrorMessage } from '../json-position';
import { checkReportHindi, fieldHindiOf, type FieldHindi } from './hindi';

export interface SourceFile {
  /** Path relative to the repository root, e.g. 'reports/vacant_berths.json'. */
  file: string;
  text: string;
}

export interface DefinitionError {
  file: string;
  pointer: string;
  reason: string;
}

export interface CheckInput {
  reportSchema: unknown;
  /** schemas/fields/*.json */
  fields: SourceFile[];
  /** reports/*.json */
  reports: SourceFile[];
  /** reports/*.sql by file name (e.g. 'vacant_berths.sql'). */
  sqlFiles: Record<string, string>;
}

/** A view of a report: the main call or one of its tabs, with its SQL resolved. */
export interface CheckedView {
  endpoint: string;
  method: 'POST' | 'GET';
  columns: ColumnDef[];
  sql: string;
  /** source.count resolved: the SQL giving the row count server paging shows, instead of counting `sql`'s rows. */
  countSql?: string;
  scope: SourceDef['scope'];
  /** Values the definition fixes for named parameters (source.params); the request never sets these. */
  params: Record<string, FixedParamValue>;
  paging?: ReportDefinition['paging'];
  rowsPath?: string;
  tabId?: string;
}

export interface CheckedReport {
  file: string;
  definition: ReportDefinition;
  /** Filter schema with every $ref to schemas/fields inlined (what RJSF and the server validate with). */
  filterSchema: Record<string, unknown>;
  views: CheckedView[];
  /** Hindi a top-level filter field takes from its shared field file (only texts the report does not override). */
  fieldHindi: Record<string, FieldHindi>;
}

/** What is being served now (name -> file), so a newcomer never takes over a live report's endpoint or id. */
export interface LiveClaims {
  endpoints: ReadonlyMap<string, string>;
  ids: ReadonlyMap<string, string>;
}

export interface CheckResult {
  reports: CheckedReport[];
  errors: DefinitionError[];
  /** Files that failed, with their first reason (for "unavailable" menu items). */
  failed: Map<string, DefinitionError>;
}

/** A key as one JSON pointer segment (RFC 6901). */
export const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

function ajvErrors(file: string, errors: ErrorObject[] | null | undefined, base = ''): DefinitionError[] {
  return (errors ?? []).map((e) => {
    let pointer = base + e.instancePath;
    let reason = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      const extra = String((e.params as { additionalProperty?: string }).additionalProperty);
      pointer += `/${escapePointer(extra)}`;
      reason = `unknown key "${extra}"`;
    } else if (e.keyword === 'enum' || e.keyword === 'const') {
      const allowed = (e.params as { allowedValues?: unknown[]; allowedValue?: unknown }).allowedValues ??
        [(e.params as { allowedValue?: unknown }).allowedValue];
      reason = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return { file, pointer: pointer || '/', reason };
  });
}

/**
 * One Ajv for every check: creating and compiling is what costs (seconds for a few dozen reports on a busy
 * machine), so filter and field schemas are only meta-validated, and the report meta-schema is compiled once
 * per distinct text.
 */
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true });
addFormats(ajv);
const compiledMeta = new Map<string, ValidateFunction>();

function metaValidator(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiledMeta.get(key);
  if (!v) {
    // Without its $id: an edited meta-schema (hot reload) keeps the $id, and Ajv refuses a second schema under one id.
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('schemas/report.schema.json must be a JSON object');
    const { $id: _id, ...anonymous } = schema as Record<string, unknown>;
    v = ajv.compile(anonymous);
    compiledMeta.set(key, v);
  }
  return v;
}

/** Whether a filter or field schema is itself a valid draft-07 schema; the reason when not. */
function schemaProblem(schema: unknown): string | null {
  if (ajv.validateSchema(schema as object) === true) return null;
  return ajv.errorsText(ajv.errors, { dataVar: 'schema' });
}

/** Replaces {$ref: 'fields/x.json', ...siblings} by the field schema merged with its siblings. */
function inlineRefs(
  node: unknown,
  fields: Map<string, Record<string, unknown>>,
  file: string,
  pointer: string,
  errors: DefinitionError[],
): unknown {
  if (Array.isArray(node)) return node.map((n, i) => inlineRefs(n, fields, file, `${pointer}/${i}`, errors));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$ref') continue;
    out[k] = inlineRefs(v, fields, file, `${pointer}/${escapePointer(k)}`, errors);
  }
  if (typeof obj.$ref === 'string') {
    const target = fields.get(obj.$ref.replace(/^(\.\.\/schemas\/|\.\/|schemas\/)/, ''));
    if (!target) {
      errors.push({ file, pointer: `${pointer}/$ref`, reason: `$ref "${obj.$ref}" does not resolve to a file in schemas/fields` });
      return out;
    }
    // Its Hindi is applied by language (localize.ts), never part of the schema the browser validates with.
    const { $id: _id, $schema: _s, hi: _hi, ...body } = target;
    return { ...body, ...out };
  }
  return out;
}

function checkColumns(file: string, base: string, columns: ColumnDef[], errors: DefinitionError[]): void {
  const seen = new Set<string>();
  columns.forEach((c, i) => {
    if (seen.has(c.field)) errors.push({ file, pointer: `${base}/${i}/field`, reason: `duplicate column "${c.field}"` });
    seen.add(c.field);
    if (c.type !== undefined && !isColumnType(c.type)) {
      errors.push({ file, pointer: `${base}/${i}/type`, reason: `unknown column type "${c.type}"` });
    }
    if (c.type === 'link' && !c.link) errors.push({ file, pointer: `${base}/${i}/link`, reason: 'a link column needs "link"' });
    // Priority 1 means "always shown": a hidden column cannot be that.
    if (c.hidden === true && c.priority === 1) errors.push({ file, pointer: `${base}/${i}/priority`, reason: 'a hidden column cannot have priority 1 (always shown)' });
  });
}

export function checkDefinitions(input: CheckInput, live?: LiveClaims): CheckResult {
  const errors: DefinitionError[] = [];
  const validateReport = metaValidator(input.reportSchema);

  const fields = new Map<string, Record<string, unknown>>();
  const fieldHindi = new Map<string, FieldHindi>();
  for (const f of input.fields) {
    try {
      const json = JSON.parse(f.text) as unknown;
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not a JSON object');
      const name = f.file.replace(/^schemas\//, '');
      const problem = schemaProblem(json);
      if (problem) throw new Error(`not a valid JSON schema: ${problem}`);
      const { hindi, problems } = fieldHindiOf(f.file, json as Record<string, unknown>);
      errors.push(...problems);
      fields.set(name, json as Record<string, unknown>);
      fieldHindi.set(name, hindi);
    } catch (err) {
      errors.push({ file: f.file, pointer: '/', reason: err instanceof Error ? err.message : String(err) });
    }
  }

  const candidates: CheckedReport[] = [];
  const failed = new Map<string, DefinitionError>();
  /** Endpoints named by files that failed anyway: told about a clash too, though they serve nothing. */
  const brokenClaims: { file: string; pointer: string; endpoint: string }[] = [];

  for (const f of [...input.reports].sort((a, b) => a.file.localeCompare(b.file))) {
    const fileErrors: DefinitionError[] = [];
    let json: unknown;
    try {
      json = JSON.parse(f.text);
    } catch (err) {
      fileErrors.push({ file: f.file, pointer: '/', reason: `invalid JSON: ${jsonErrorMessage(f.text, err)}` });
    }
    if (fileErrors.length === 0 && !validateReport(json)) fileErrors.push(...ajvErrors(f.file, validateReport.errors));
    let checked: CheckedReport | undefined;
    if (fileErrors.length === 0) {
      const def = json as ReportDefinition;
      const baseName = f.file.replace(/^.*\//, '').replace(/\.json$/, '');
      if (def.id !== baseName) fileErrors.push({ file: f.file, pointer: '/id', reason: `id "${def.id}" must equal the file name "${baseName}"` });

      const filterSchema = inlineRefs(def.filter.schema, fields, f.file, '/filter/schema', fileErrors) as Record<string, unknown>;
      const problem = schemaProblem(filterSchema);
      if (problem) fileErrors.push({ file: f.file, pointer: '/filter/schema', reason: `not a valid JSON schema: ${problem}` });
      const props = Object.keys((filterSchema.properties as Record<string, unknown> | undefined) ?? {});
      for (const [i, r] of ((filterSchema.required as string[] | undefined) ?? []).entries()) {
        if (!props.includes(r)) fileErrors.push({ file: f.file, pointer: `/filter/schema/required/${i}`, reason: `required field "${r}" is not a property` });
      }
      for (const k of Object.keys(def.filter.defaults ?? {})) {
        if (!props.includes(k)) fileErrors.push({ file: f.file, pointer: `/filter/defaults/${escapePointer(k)}`, reason: `default for unknown field "${k}"` });
      }
      for (const [i, r] of (def.filter.rules ?? []).entries()) {
        for (const key of ['start', 'end'] as const) {
          if (!props.includes(r[key])) fileErrors.push({ file: f.file, pointer: `/filter/rules/${i}/${key}`, reason: `"${r[key]}" is not a filter field` });
        }
      }
      for (const [k, v] of Object.entries(def.filter.uiSchema ?? {})) {
        const widget = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)['ui:widget'] : undefined;
        if (typeof widget === 'string' && !FILTER_WIDGETS.includes(widget)) {
          fileErrors.push({ file: f.file, pointer: `/filter/uiSchema/${escapePointer(k)}/ui:widget`, reason: `unknown widget "${widget}"` });
        }
      }

      for (const key of ['trainNo', 'startDate', 'coach'] as const) {
        const field = def.consist?.[key];
        if (field !== undefined && !props.includes(field)) {
          fileErrors.push({ file: f.file, pointer: `/consist/${key}`, reason: `"${field}" is not a filter field` });
        }
      }

      checkColumns(f.file, '/columns', def.columns, fileErrors);
      const views: CheckedView[] = [];
      const addView = (
        base: string,
        v: {
          endpoint: string;
          method?: 'POST' | 'GET';
          columns?: ColumnDef[];
          paging?: ReportDefinition['paging'];
          response?: { rowsPath: string };
          source: SourceDef;
        },
        tabId?: string,
      ): void => {
        if (views.some((w) => w.endpoint === v.endpoint)) {
          fileErrors.push({ file: f.file, pointer: `${base}/endpoint`, reason: `endpoint "${v.endpoint}" is used twice in this file` });
        }
        /** A file name's text, or the inline SQL; undefined (error noted) for a missing file or one without {{scope}}. */
        const resolveSql = (value: string, pointer: string): string | undefined => {
          let text = value;
          if (/^[A-Za-z0-9_.-]+\.sql$/.test(value)) {
            const file = input.sqlFiles[value];
            if (file === undefined) {
              fileErrors.push({ file: f.file, pointer, reason: `SQL file reports/${value} does not exist` });
              return undefined;
            }
            text = file;
          }
          if (!text.includes(SCOPE_TOKEN)) {
            fileErrors.push({ file: f.file, pointer, reason: `SQL must contain ${SCOPE_TOKEN} where the row-scope predicate goes` });
          }
          return text;
        };
        const sql = resolveSql(v.source.sql, `${base}/source/sql`);
        if (sql === undefined) return;
        const countSql = v.source.count === undefined ? undefined : resolveSql(v.source.count, `${base}/source/count`);
        if (Object.keys(v.source.scope).length === 0 && v.source.suOnly !== true) {
          fileErrors.push({ file: f.file, pointer: `${base}/source/scope`, reason: 'no scope rule: every level but SU would be denied' });
        }
        const fixed = v.source.params ?? {};
        const used = compileNamedSql(sql).names;
        for (const [text, pointer] of [[sql, `${base}/source/sql`], [countSql, `${base}/source/count`]] as const) {
          for (const name of text === undefined ? [] : compileNamedSql(text).names) {
            if (!props.includes(name) && !Object.hasOwn(fixed, name)) {
              fileErrors.push({ file: f.file, pointer, reason: `named parameter :${name} is not a filter field or a key of source.params` });
            }
          }
        }
        if (v.source.count !== undefined && (v.paging ?? def.paging)?.mode !== 'server') {
          fileErrors.push({ file: f.file, pointer: `${base}/source/count`, reason: 'a count SQL serves server paging only: this view is not server-paged' });
        }
        for (const name of Object.keys(fixed)) {
          const pointer = `${base}/source/params/${escapePointer(name)}`;
          // A fixed value under a filter field's name would silently win over what the user entered.
          if (props.includes(name)) fileErrors.push({ file: f.file, pointer, reason: `"${name}" is a filter field: a fixed parameter cannot share its name` });
          else if (!used.includes(name)) fileErrors.push({ file: f.file, pointer, reason: `the SQL does not use :${name}` });
        }
        const view: CheckedView = {
          endpoint: v.endpoint, method: v.method ?? 'POST', columns: v.columns ?? def.columns, sql, scope: v.source.scope, params: fixed,
        };
        if (countSql !== undefined) view.countSql = countSql;
        const paging = v.paging ?? def.paging;
        if (paging) view.paging = paging;
        if (tabId !== undefined) view.tabId = tabId;
        if (v.response) view.rowsPath = v.response.rowsPath;
        views.push(view);
      };
      addView('', def);
      (def.tabs ?? []).forEach((t, i) => {
        if (t.columns) checkColumns(f.file, `/tabs/${i}/columns`, t.columns, fileErrors);
        addView(`/tabs/${i}`, { ...t, method: t.method ?? def.method ?? 'POST' }, t.id);
      });

      const propsSchema = (filterSchema.properties as Record<string, unknown> | undefined) ?? {};
      fileErrors.push(...checkReportHindi(f.file, def, propsSchema));
      checked = { file: f.file, definition: def, filterSchema, views, fieldHindi: sharedFieldHindi(def, fieldHindi) };
    }
    if (fileErrors.length > 0) {
      if (checked) {
        for (const v of checked.views) {
          const tab = v.tabId === undefined ? -1 : (checked.definition.tabs ?? []).findIndex((t) => t.id === v.tabId);
          brokenClaims.push({ file: f.file, pointer: tab === -1 ? '/endpoint' : `/tabs/${tab}/endpoint`, endpoint: v.endpoint });
        }
      }
      errors.push(...fileErrors);
      failed.set(f.file, fileErrors[0] as DefinitionError);
    } else if (checked) {
      candidates.push(checked);
    }
  }

  for (const c of brokenClaims) {
    const holder = candidates.find((r) => r.views.some((v) => v.endpoint === c.endpoint));
    if (holder) errors.push({ file: c.file, pointer: c.pointer, reason: `endpoint "${c.endpoint}" is also used by ${holder.file}` });
  }
  const refused = refuseCollisions(candidates, live);
  for (const e of refused) {
    errors.push(e);
    if (!failed.has(e.file)) failed.set(e.file, e);
  }
  const reports = candidates.filter((r) => !failed.has(r.file));
  // Broken files count as known targets: their own errors already say what is wrong.
  const ids = new Set([...candidates.map((r) => r.definition.id), ...[...failed.keys()].map((f) => f.replace(/^.*\//, '').replace(/\.json$/, ''))]);
  // Across files, so a link error leaves both reports served (the target may just be mid-edit).
  errors.push(...checkColumnLinks(reports, ids));
  return { reports, errors, failed };
}

/** For each top-level filter field that $refs a shared field: the field file's Hindi of texts the report does not override. */
function sharedFieldHindi(def: ReportDefinition, byName: ReadonlyMap<string, FieldHindi>): Record<string, FieldHindi> {
  const out: Record<string, FieldHindi> = {};
  const props = (def.filter.schema.properties ?? {}) as Record<string, unknown>;
  for (const [key, prop] of Object.entries(props)) {
    if (typeof prop !== 'object' || prop === null) continue;
    const p = prop as Record<string, unknown>;
    if (typeof p.$ref !== 'string') continue;
    const hindi = byName.get(p.$ref.replace(/^(\.\.\/schemas\/|\.\/|schemas\/)/, ''));
    if (!hindi) continue;
    const h: FieldHindi = {};
    if (hindi.title !== undefined && p.title === undefined) h.title = hindi.title;
    if (hindi.description !== undefined && p.description === undefined) h.description = hindi.description;
    out[key] = h;
  }
  return out;
}

/**
 * Two files claiming one endpoint (or id): the file serving it now keeps it and the newcomer is refused; when
 * neither serves it (first load, or both new) both are refused, so which file wins never depends on file names
 * or on the order of a restart. Each error names the other file.
 */
function refuseCollisions(candidates: readonly CheckedReport[], live: LiveClaims | undefined): DefinitionError[] {
  const claims = new Map<string, { kind: 'endpoint' | 'id'; name: string; owners: { file: string; pointer: string }[] }>();
  const claim = (kind: 'endpoint' | 'id', name: string, file: string, pointer: string): void => {
    const key = `${kind}\u0000${name}`;
    const entry = claims.get(key) ?? { kind, name, owners: [] };
    entry.owners.push({ file, pointer });
    claims.set(key, entry);
  };
  for (const r of candidates) {
    claim('id', r.definition.id, r.file, '/id');
    r.views.forEach((v) => {
      const tab = v.tabId === undefined ? -1 : (r.definition.tabs ?? []).findIndex((t) => t.id === v.tabId);
      claim('endpoint', v.endpoint, r.file, tab === -1 ? '/endpoint' : `/tabs/${tab}/endpoint`);
    });
  }
  const errors: DefinitionError[] = [];
  for (const { kind, name, owners } of claims.values()) {
    if (owners.length < 2) continue;
    const holder = (kind === 'id' ? live?.ids : live?.endpoints)?.get(name);
    const keeper = owners.some((o) => o.file === holder) ? holder : undefined;
    for (const o of owners) {
      if (o.file === keeper) continue;
      const others = owners.filter((x) => x.file !== o.file).map((x) => x.file).join(', ');
      const reason = keeper
        ? `${kind} "${name}" is already served by ${keeper}; this file is refused until one of them is changed`
        : `${kind} "${name}" is also claimed by ${others}; both are refused until one of them is changed`;
      errors.push({ file: o.file, pointer: o.pointer, reason });
    }
  }
  return errors;
}

/**
 * Drill-down links of valid reports: the target must exist (knownIds: every report id, broken ones included); when
 * the target is valid, each param must be one of its filter fields, each {column} placeholder a column of the
 * link's own view, and every required field of the target must be given (or have a default there).
 */
export function checkColumnLinks(reports: readonly CheckedReport[], knownIds: ReadonlySet<string>): DefinitionError[] {
  const errors: DefinitionError[] = [];
  const byId = new Map(reports.map((r) => [r.definition.id, r]));
  for (const r of reports) {
    const sets: { base: string; columns: ColumnDef[] }[] = [{ base: '/columns', columns: r.definition.columns }];
    (r.definition.tabs ?? []).forEach((t, i) => {
      if (t.columns) sets.push({ base: `/tabs/${i}/columns`, columns: t.columns });
    });
    for (const { base, columns } of sets) {
      const fields = new Set(columns.map((c) => c.field));
      columns.forEach((c, i) => {
        if (!c.link) return;
        const at = `${base}/${i}/link`;
        const push = (pointer: string, reason: string): number => errors.push({ file: r.file, pointer, reason });
        const targetId = c.link.report;
        if (!knownIds.has(targetId)) {
          push(`${at}/report`, `links to unknown report "${targetId}"`);
          return;
        }
        const target = byId.get(targetId);
        if (!target) return; // broken itself: its own errors say why
        const targetFields = Object.keys((target.filterSchema.properties as Record<string, unknown> | undefined) ?? {});
        for (const [k, v] of Object.entries(c.link.params)) {
          const pointer = `${at}/params/${escapePointer(k)}`;
          if (!targetFields.includes(k)) push(pointer, `"${k}" is not a filter field of report "${targetId}"`);
          for (const m of v.matchAll(/\{(\w+)\}/g)) {
            if (!fields.has(m[1] as string)) push(pointer, `placeholder {${m[1] as string}} is not a column of this view`);
          }
        }
        const defaults = Object.keys(target.definition.filter.defaults ?? {});
        for (const req of (target.filterSchema.required as string[] | undefined) ?? []) {
          if (!Object.hasOwn(c.link.params, req) && !defaults.includes(req)) {
            push(`${at}/params`, `misses "${req}", a required filter field of report "${targetId}"`);
          }
        }
      });
    }
  }
  return errors;
}

/** Cross-check of the menu: every report item must name an existing report. */
export function checkMenuReports(
  file: string,
  items: { pointer: string; reportId: string }[],
  knownIds: ReadonlySet<string>,
): DefinitionError[] {
  return items
    .filter((i) => !knownIds.has(i.reportId))
    .map((i) => ({ file, pointer: i.pointer, reason: `menu item points at unknown report "${i.reportId}"` }));
}

export function formatError(e: DefinitionError): string {
  return `${e.file}#${e.pointer}: ${e.reason}`;
}
