/**
 * The shape of the `hi` blocks the definition files carry (reports, shared filter fields, menu, dashboard), and the
 * portal's two languages. Types only, so report-definition.ts and the checks of hindi.ts can both import them.
 */
export type Lang = 'en' | 'hi';
export const LANGS: readonly Lang[] = ['en', 'hi'];

/** Hindi of one column: its header and the words for its stored codes (keys of the English `labels`). */
export interface HindiColumn {
  headerName?: string;
  labels?: Record<string, string>;
}

/** Hindi of one filter field: title, description and the drop-down's words (the uiSchema's ui:enumNames, same order). */
export interface HindiFilterField {
  title?: string;
  description?: string;
  enumNames?: string[];
}

export interface HindiTab {
  label?: string;
  /** Only for a tab with columns of its own; a tab showing the report's columns takes hi.columns. */
  columns?: Record<string, HindiColumn>;
}

/** The `hi` block of reports/<id>.json. */
export interface ReportHindi {
  title?: string;
  description?: string;
  /** By filter field (a property of filter.schema). */
  filter?: Record<string, HindiFilterField>;
  /** By column field. */
  columns?: Record<string, HindiColumn>;
  /** By tab id. */
  tabs?: Record<string, HindiTab>;
}

/** The `hi` block of a shared filter field, schemas/fields/<name>.json. */
export interface FieldHindi {
  title?: string;
  description?: string;
}

/** The `hi` block of menu.json: sections by their English label, items by path, commands by command. */
export interface MenuHindi {
  sections?: Record<string, string>;
  items?: Record<string, string>;
  commands?: Record<string, string>;
}

/** The `hi` block of dashboard.json: by card id; chart series by field. */
export interface DashboardHindi {
  cards?: Record<string, { title?: string; caption?: string; series?: Record<string, string> }>;
}
