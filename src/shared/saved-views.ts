/**
 * Saved report views (docs/officers.md, "Saved views"): a named filter, sort, column layout and grid/card choice of
 * one report, private or shared with everyone who may open the report. The API contract of /api/saved-views.
 */

export const SAVED_VIEW_LIMITS = { nameMax: 80, columnsMax: 200, filterKeysMax: 60, stateBytesMax: 32_000 } as const;

/** A column of the grid as a view keeps it (AG Grid's column state, the parts a view restores). */
export interface SavedColumn {
  colId: string;
  hide: boolean;
  width?: number;
  pinned: 'left' | 'right' | null;
}

export interface SavedViewState {
  /** Filter values as the report's form sends them. */
  filter: Record<string, unknown>;
  /** Tab of a tabbed report (null: its main view). */
  tab: string | null;
  sortBy: string | null;
  sortDir: 'asc' | 'desc' | null;
  /** Column order, visibility, width and pinning; null: the report's default layout. */
  columns: SavedColumn[] | null;
  /** Grid or card list; null: as the screen suits. */
  layout: 'grid' | 'cards' | null;
}

/** Why a view cannot be opened as it was saved. */
export type SavedViewProblem =
  | { code: 'report_missing' }
  | { code: 'report_unavailable'; reason: string }
  | { code: 'filter_invalid'; fields: { field: string; reason: string }[] };

export interface SavedView {
  viewId: string;
  reportId: string;
  /** The report's title in the request's language; null when the report no longer exists. */
  reportTitle: string | null;
  name: string;
  shared: boolean;
  ownerId: string;
  /** Whether the signed-in user owns it (only the owner renames, shares or deletes it). */
  mine: boolean;
  state: SavedViewState;
  createdAt: string;
  updatedAt: string;
  /** Set when the view's report is gone or broken, or its filter no longer validates against the report's schema. */
  problem: SavedViewProblem | null;
}

export interface SavedViewCreate {
  reportId: string;
  name: string;
  shared: boolean;
  state: SavedViewState;
}

export interface SavedViewChange {
  name?: string;
  shared?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON Schema of a view's state (the server validates bodies with it; the OpenAPI document shows it). */
export const SAVED_VIEW_STATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['filter', 'tab', 'sortBy', 'sortDir', 'columns', 'layout'],
  properties: {
    filter: { type: 'object', maxProperties: SAVED_VIEW_LIMITS.filterKeysMax, description: 'Filter values as the report form sends them' },
    tab: { type: ['string', 'null'], maxLength: 64 },
    sortBy: { type: ['string', 'null'], maxLength: 64 },
    sortDir: { enum: ['asc', 'desc', null] },
    columns: {
      type: ['array', 'null'],
      maxItems: SAVED_VIEW_LIMITS.columnsMax,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['colId', 'hide', 'pinned'],
        properties: {
          colId: { type: 'string', minLength: 1, maxLength: 64 },
          hide: { type: 'boolean' },
          width: { type: 'integer', minimum: 20, maximum: 4000 },
          pinned: { enum: ['left', 'right', null] },
        },
      },
    },
    layout: { enum: ['grid', 'cards', null] },
  },
} as const;

/** A view as the API answers it, checked (the client's boundary); null when malformed. */
export function parseSavedView(v: unknown): SavedView | null {
  if (!isObject(v) || !isObject(v.state)) return null;
  const { viewId, reportId, reportTitle, name, shared, ownerId, mine, createdAt, updatedAt, problem, state } = v;
  if (typeof viewId !== 'string' || typeof reportId !== 'string' || typeof name !== 'string' || typeof ownerId !== 'string') return null;
  if (!(reportTitle === null || typeof reportTitle === 'string') || typeof shared !== 'boolean' || typeof mine !== 'boolean') return null;
  if (typeof createdAt !== 'string' || typeof updatedAt !== 'string') return null;
  if (!isObject(state.filter)) return null;
  const columns = Array.isArray(state.columns)
    ? state.columns.flatMap((c): SavedColumn[] => {
        if (!isObject(c) || typeof c.colId !== 'string') return [];
        const col: SavedColumn = { colId: c.colId, hide: c.hide === true, pinned: c.pinned === 'left' || c.pinned === 'right' ? c.pinned : null };
        if (typeof c.width === 'number') col.width = c.width;
        return [col];
      })
    : null;
  const parsedState: SavedViewState = {
    filter: state.filter,
    tab: typeof state.tab === 'string' ? state.tab : null,
    sortBy: typeof state.sortBy === 'string' ? state.sortBy : null,
    sortDir: state.sortDir === 'asc' || state.sortDir === 'desc' ? state.sortDir : null,
    columns,
    layout: state.layout === 'grid' || state.layout === 'cards' ? state.layout : null,
  };
  let parsedProblem: SavedViewProblem | null = null;
  if (isObject(problem)) {
    if (problem.code === 'report_missing') parsedProblem = { code: 'report_missing' };
    else if (problem.code === 'report_unavailable') parsedProblem = { code: 'report_unavailable', reason: typeof problem.reason === 'string' ? problem.reason : '' };
    else if (problem.code === 'filter_invalid' && Array.isArray(problem.fields)) {
      parsedProblem = {
        code: 'filter_invalid',
        fields: problem.fields.flatMap((f) => (isObject(f) && typeof f.field === 'string' && typeof f.reason === 'string' ? [{ field: f.field, reason: f.reason }] : [])),
      };
    } else return null;
  }
  return { viewId, reportId, reportTitle, name, shared, ownerId, mine, state: parsedState, createdAt, updatedAt, problem: parsedProblem };
}
