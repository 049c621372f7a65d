/**
 * Applies a language to what the definition files say: a report (title, description, filter titles and drop-down
 * names, columns, value labels, tabs), the menu and the dashboard. Pure. English is the definition as written;
 * Hindi takes each text from the file's `hi` block and falls back to the English text where a Hindi one is missing,
 * so a half-translated file still shows every label. The `hi` block itself never leaves the server.
 */
import type { ColumnDef, JsonObject, ReportDefinition, TabDef } from '../report-definition';
import type { DashboardCard } from '../dashboard';
import type { MenuCommand, MenuDocument, MenuEntry, MenuItem } from '../menu';
import type { DashboardHindi, FieldHindi, HindiColumn, Lang, MenuHindi } from './hindi';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The language of a request from its Accept-Language header: 'hi' when Hindi is preferred over English (q-values
 * honoured, 'hi-IN' counts as Hindi), else English. Anything else, or no header, is English.
 */
export function parseAcceptLanguage(header: string | string[] | undefined): Lang {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  let best: { lang: Lang; q: number } | undefined;
  for (const part of text.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'hi' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? 'en';
}

/** Columns in a language: Hindi headers and code labels where given, English otherwise. */
export function localizeColumns(columns: readonly ColumnDef[], hi: Readonly<Record<string, HindiColumn>> | undefined, lang: Lang): ColumnDef[] {
  if (lang === 'en' || !hi) return columns.map((c) => ({ ...c }));
  return columns.map((c) => {
    const h = hi[c.field];
    if (!h) return { ...c };
    const out: ColumnDef = { ...c, headerName: h.headerName ?? c.headerName };
    if (c.labels) out.labels = Object.fromEntries(Object.entries(c.labels).map(([code, words]) => [code, h.labels?.[code] ?? words]));
    return out;
  });
}

/** The columns of one view (the main call, or a tab by id) in a language. */
export function localizeViewColumns(def: ReportDefinition, tabId: string | undefined, columns: readonly ColumnDef[], lang: Lang): ColumnDef[] {
  const tab = tabId === undefined ? undefined : def.tabs?.find((t) => t.id === tabId);
  const hi = tab?.columns ? def.hi?.tabs?.[tab.id]?.columns : def.hi?.columns;
  return localizeColumns(columns, hi, lang);
}

/** A filter schema (its $refs inlined) with Hindi field titles and descriptions; the constraints are untouched. */
export function localizeFilterSchema(
  def: ReportDefinition,
  filterSchema: Record<string, unknown>,
  fieldHindi: Readonly<Record<string, FieldHindi>>,
  lang: Lang,
): Record<string, unknown> {
  if (lang === 'en' || !isObject(filterSchema.properties)) return filterSchema;
  const properties: JsonObject = {};
  for (const [field, prop] of Object.entries(filterSchema.properties)) {
    if (!isObject(prop)) {
      properties[field] = prop;
      continue;
    }
    const own = def.hi?.filter?.[field];
    const shared = fieldHindi[field];
    const out: JsonObject = { ...prop };
    const title = own?.title ?? shared?.title;
    const description = own?.description ?? shared?.description;
    if (typeof prop.title === 'string' && title) out.title = title;
    if (typeof prop.description === 'string' && description) out.description = description;
    properties[field] = out;
  }
  return { ...filterSchema, properties };
}

/** uiSchema with Hindi drop-down names (ui:enumNames) where given. */
function localizeUiSchema(def: ReportDefinition, lang: Lang): JsonObject | undefined {
  const ui = def.filter.uiSchema;
  if (!ui || lang === 'en') return ui;
  const out: JsonObject = { ...ui };
  for (const [field, h] of Object.entries(def.hi?.filter ?? {})) {
    const entry = ui[field];
    if (!h.enumNames || !isObject(entry) || !Array.isArray(entry['ui:enumNames'])) continue;
    const english = entry['ui:enumNames'] as unknown[];
    out[field] = { ...entry, 'ui:enumNames': english.map((name, i) => h.enumNames?.[i] ?? name) };
  }
  return out;
}

/**
 * A report definition in a language, without its `hi` block: what the browser and the exports show. The filter
 * schema given is the one with $refs inlined; it comes back with the titles of the language.
 */
export function localizeReport(
  def: ReportDefinition,
  filterSchema: Record<string, unknown>,
  fieldHindi: Readonly<Record<string, FieldHindi>>,
  lang: Lang,
): { definition: Omit<ReportDefinition, 'hi'>; filterSchema: Record<string, unknown> } {
  const { hi, ...english } = def;
  if (lang === 'en' || !hi) {
    return { definition: english, filterSchema: lang === 'en' ? filterSchema : localizeFilterSchema(def, filterSchema, fieldHindi, lang) };
  }
  const definition: Omit<ReportDefinition, 'hi'> = {
    ...english,
    title: hi.title ?? def.title,
    filter: { ...def.filter },
    columns: localizeColumns(def.columns, hi.columns, lang),
  };
  if (def.description !== undefined) definition.description = hi.description ?? def.description;
  const ui = localizeUiSchema(def, lang);
  if (ui) definition.filter.uiSchema = ui;
  if (def.tabs) {
    definition.tabs = def.tabs.map((t): TabDef => {
      const h = hi.tabs?.[t.id];
      const tab: TabDef = { ...t, label: h?.label ?? t.label };
      if (t.columns) tab.columns = localizeColumns(t.columns, h?.columns, lang);
      return tab;
    });
  }
  return { definition, filterSchema: localizeFilterSchema(def, filterSchema, fieldHindi, lang) };
}

/** The menu in a language: sections by their English label, items by path, commands by command. */
export function localizeMenu(doc: MenuDocument, hi: MenuHindi | undefined, lang: Lang): MenuDocument {
  if (lang === 'en' || !hi) return doc;
  const leaf = <T extends MenuItem | MenuCommand>(e: T): T =>
    e.type === 'item' ? { ...e, label: hi.items?.[e.path] ?? e.label } : { ...e, label: hi.commands?.[e.command] ?? e.label };
  return {
    entries: doc.entries.map((e): MenuEntry =>
      e.type === 'section' ? { ...e, label: hi.sections?.[e.label] ?? e.label, items: e.items.map(leaf) } : leaf(e),
    ),
  };
}

/** The dashboard's cards in a language (titles, captions, chart series labels). */
export function localizeDashboard(cards: readonly DashboardCard[], hi: DashboardHindi | undefined, lang: Lang): DashboardCard[] {
  if (lang === 'en' || !hi?.cards) return [...cards];
  return cards.map((c) => {
    const h = hi.cards?.[c.id];
    if (!h) return c;
    const out: DashboardCard = { ...c, title: h.title ?? c.title };
    if (c.caption !== undefined) out.caption = h.caption ?? c.caption;
    if (c.chart) out.chart = { ...c.chart, series: c.chart.series.map((s) => ({ ...s, label: h.series?.[s.field] ?? s.label })) };
    return out;
  });
}
