import { VIEW_KEYS } from '../features/reports/lib/filter-url';
import { clearColumnState, columnStateKey, writeColumnState } from '../features/reports/lib/column-state';
import type { SavedView, SavedViewState } from '../../shared/saved-views';

/** The report page's query parameter that names a saved view to open. */
export const VIEW_PARAM = '_view';

const browserStorage = (): Storage | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

/** A saved view's state as the report page's URL (filter fields, run, tab, sort, layout). */
export function viewParams(state: SavedViewState): URLSearchParams {
  const params = new URLSearchParams();
  const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
  for (const [key, value] of Object.entries(state.filter)) {
    if (key.startsWith('_') || value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, text(item));
    else params.set(key, text(value));
  }
  params.set(VIEW_KEYS.run, '1');
  if (state.tab) params.set(VIEW_KEYS.tab, state.tab);
  if (state.sortBy) {
    params.set(VIEW_KEYS.sort, state.sortBy);
    params.set(VIEW_KEYS.dir, state.sortDir ?? 'asc');
  }
  if (state.layout) params.set(VIEW_KEYS.layout, state.layout);
  return params;
}

/** A saved view's column layout becomes the report's remembered layout in this browser (or the default, if it has none). */
export function applySavedViewLayout(view: SavedView): void {
  const key = columnStateKey(view.reportId, view.state.tab ?? undefined);
  if (view.state.columns) writeColumnState(browserStorage(), key, view.state.columns);
  else clearColumnState(browserStorage(), key);
}
