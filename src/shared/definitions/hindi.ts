/**
 * Hindi texts of the definition files. Each file keeps its English untouched and carries one `hi` block at its end,
 * keyed by what it translates (filter field, column field, tab id, menu path, card id), so that what is missing
 * is easy to list and an edit of the English never silently loses its Hindi. The meta-schemas check the block's
 * shape; the checks here are the ones a schema cannot state: every key must name something that exists.
 * Pure: used by the server, `npm run check:definitions` and the tests.
 */
import type { ColumnDef, ReportDefinition } from '../report-definition';
import type { FieldHindi, HindiColumn } from './hindi-blocks';

export { LANGS } from './hindi-blocks';
export type { DashboardHindi, FieldHindi, HindiColumn, HindiFilterField, HindiTab, Lang, MenuHindi, ReportHindi } from './hindi-blocks';

/** A problem or a missing text: the file, the JSON pointer and the reason. */
export interface HindiProblem {
  file: string;
  pointer: string;
  reason: string;
}

/** A key as one JSON pointer segment (RFC 6901). */
const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `ui:enumNames` the uiSchema gives a filter field, if any. */
export function uiEnumNames(uiSchema: unknown, field: string): unknown[] | undefined {
  const ui = isObject(uiSchema) ? uiSchema[field] : undefined;
  const names = isObject(ui) ? ui['ui:enumNames'] : undefined;
  return Array.isArray(names) ? names : undefined;
}

function checkColumnKeys(
  file: string,
  base: string,
  columns: readonly ColumnDef[],
  hi: Record<string, HindiColumn> | undefined,
  out: HindiProblem[],
): void {
  for (const [field, h] of Object.entries(hi ?? {})) {
    const at = `${base}/${seg(field)}`;
    const col = columns.find((c) => c.field === field);
    if (!col) {
      out.push({ file, pointer: at, reason: `names no column: "${field}" is not a column field here` });
      continue;
    }
    for (const code of Object.keys(h.labels ?? {})) {
      if (!col.labels || !Object.hasOwn(col.labels, code)) {
        out.push({ file, pointer: `${at}/labels/${seg(code)}`, reason: `column "${field}" has no English label for code "${code}"` });
      }
    }
  }
}

/**
 * Keys of a report's `hi` block that name nothing: a filter field, column, tab or code the definition does not
 * have, or a text with no English to translate. `props` are the filter schema's properties, $refs inlined.
 */
export function checkReportHindi(file: string, def: ReportDefinition, props: Record<string, unknown>): HindiProblem[] {
  const hi = def.hi;
  const out: HindiProblem[] = [];
  if (!hi) return out;
  if (hi.description !== undefined && def.description === undefined) {
    out.push({ file, pointer: '/hi/description', reason: 'the report has no English description to translate' });
  }
  for (const [field, h] of Object.entries(hi.filter ?? {})) {
    const at = `/hi/filter/${seg(field)}`;
    const prop = props[field];
    if (!isObject(prop)) {
      out.push({ file, pointer: at, reason: `names no filter field: "${field}" is not a property of filter.schema` });
      continue;
    }
    if (h.description !== undefined && typeof prop.description !== 'string') {
      out.push({ file, pointer: `${at}/description`, reason: `filter field "${field}" has no English description to translate` });
    }
    if (h.enumNames !== undefined) {
      const english = uiEnumNames(def.filter.uiSchema, field);
      if (!english) out.push({ file, pointer: `${at}/enumNames`, reason: `filter field "${field}" has no ui:enumNames in filter.uiSchema to translate` });
      else if (english.length !== h.enumNames.length) {
        out.push({ file, pointer: `${at}/enumNames`, reason: `has ${h.enumNames.length} names; ui:enumNames of "${field}" has ${english.length}` });
      }
    }
  }
  checkColumnKeys(file, '/hi/columns', def.columns, hi.columns, out);
  for (const [id, h] of Object.entries(hi.tabs ?? {})) {
    const at = `/hi/tabs/${seg(id)}`;
    const tab = (def.tabs ?? []).find((t) => t.id === id);
    if (!tab) {
      out.push({ file, pointer: at, reason: `names no tab: "${id}" is not a tab id` });
      continue;
    }
    if (h.columns !== undefined && !tab.columns) {
      out.push({ file, pointer: `${at}/columns`, reason: `tab "${id}" shows the report's columns: give their Hindi under /hi/columns` });
      continue;
    }
    checkColumnKeys(file, `${at}/columns`, tab.columns ?? [], h.columns, out);
  }
  return out;
}

function missingColumns(
  file: string,
  englishBase: string,
  hiBase: string,
  columns: readonly ColumnDef[],
  hi: Record<string, HindiColumn> | undefined,
  out: HindiProblem[],
): void {
  columns.forEach((c, i) => {
    const h = hi?.[c.field];
    if (!h?.headerName) out.push({ file, pointer: `${englishBase}/${i}/headerName`, reason: `no Hindi for "${c.headerName}" (${hiBase}/${seg(c.field)}/headerName)` });
    for (const [code, words] of Object.entries(c.labels ?? {})) {
      if (!h?.labels?.[code]) {
        out.push({ file, pointer: `${englishBase}/${i}/labels/${seg(code)}`, reason: `no Hindi for "${words}" (${hiBase}/${seg(c.field)}/labels/${seg(code)})` });
      }
    }
  });
}

/**
 * Every English text of a report with no Hindi, each at the pointer of the English text and naming where its Hindi
 * goes. `fieldHindi`: the Hindi a filter field takes from its shared field file (schemas/fields), which counts.
 */
export function missingReportHindi(
  file: string,
  def: ReportDefinition,
  props: Record<string, unknown>,
  fieldHindi: Readonly<Record<string, FieldHindi>>,
): HindiProblem[] {
  const hi = def.hi ?? {};
  const out: HindiProblem[] = [];
  if (!hi.title) out.push({ file, pointer: '/title', reason: `no Hindi for "${def.title}" (/hi/title)` });
  if (def.description !== undefined && !hi.description) out.push({ file, pointer: '/description', reason: 'no Hindi for the description (/hi/description)' });
  for (const [field, prop] of Object.entries(props)) {
    if (!isObject(prop)) continue;
    const h = hi.filter?.[field];
    const shared = fieldHindi[field];
    const at = `/filter/schema/properties/${seg(field)}`;
    if (typeof prop.title === 'string' && !h?.title && !shared?.title) {
      out.push({ file, pointer: `${at}/title`, reason: `no Hindi for "${prop.title}" (/hi/filter/${seg(field)}/title)` });
    }
    if (typeof prop.description === 'string' && !h?.description && !shared?.description) {
      out.push({ file, pointer: `${at}/description`, reason: `no Hindi for "${prop.description}" (/hi/filter/${seg(field)}/description)` });
    }
    const names = uiEnumNames(def.filter.uiSchema, field);
    if (names && !h?.enumNames) {
      out.push({ file, pointer: `/filter/uiSchema/${seg(field)}/ui:enumNames`, reason: `no Hindi for the names of "${field}" (/hi/filter/${seg(field)}/enumNames)` });
    }
  }
  missingColumns(file, '/columns', '/hi/columns', def.columns, hi.columns, out);
  (def.tabs ?? []).forEach((t, i) => {
    const h = hi.tabs?.[t.id];
    if (!h?.label) out.push({ file, pointer: `/tabs/${i}/label`, reason: `no Hindi for "${t.label}" (/hi/tabs/${seg(t.id)}/label)` });
    if (t.columns) missingColumns(file, `/tabs/${i}/columns`, `/hi/tabs/${seg(t.id)}/columns`, t.columns, h?.columns, out);
  });
  return out;
}

/** The `hi` block of a shared field file, checked (shape and that its English exists); null when it has none. */
export function fieldHindiOf(file: string, field: Record<string, unknown>): { hindi: FieldHindi; problems: HindiProblem[] } {
  const problems: HindiProblem[] = [];
  const hindi: FieldHindi = {};
  const hi = field.hi;
  if (hi === undefined) return { hindi, problems };
  if (!isObject(hi)) return { hindi, problems: [{ file, pointer: '/hi', reason: 'must be an object' }] };
  for (const [k, v] of Object.entries(hi)) {
    if (k !== 'title' && k !== 'description') {
      problems.push({ file, pointer: `/hi/${seg(k)}`, reason: `unknown key "${k}"` });
    } else if (typeof v !== 'string' || v.trim() === '') {
      problems.push({ file, pointer: `/hi/${k}`, reason: 'must be a non-empty string' });
    } else if (typeof field[k] !== 'string') {
      problems.push({ file, pointer: `/hi/${k}`, reason: `the field has no English ${k} to translate` });
    } else {
      hindi[k] = v;
    }
  }
  return { hindi, problems };
}

/** English texts of a shared field file with no Hindi. */
export function missingFieldHindi(file: string, field: Record<string, unknown>): HindiProblem[] {
  const hi = isObject(field.hi) ? field.hi : {};
  return (['title', 'description'] as const)
    .filter((k) => typeof field[k] === 'string' && typeof hi[k] !== 'string')
    .map((k) => ({ file, pointer: `/${k}`, reason: `no Hindi for "${String(field[k])}" (/hi/${k})` }));
}
