import { useCallback, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ReportPage, type ReportActionContext } from '../features/reports/ReportPage';
import { TrainListContext } from '../features/reports/api';
import { ReportExtensionsContext, type ReportExtensions } from '../features/reports/extensions';
import { VIEW_KEYS } from '../features/reports/lib/filter-url';
import { clearColumnState, columnStateKey, writeColumnState } from '../features/reports/lib/column-state';
import { OpenSavedView } from '../features/saved-views/OpenSavedView';
import { SaveViewButton } from '../features/saved-views/SaveViewButton';
import { SubscribeButton } from '../features/subscriptions/SubscribeButton';
import type { SavedView, SavedViewState } from '../../shared/saved-views';
import { useSession } from '../lib/session';
import { SUBSCRIPTION_FORMATS } from '../../shared/subscriptions';

/** "E-mail me this" on the result toolbar: a subscription to the report as it is on screen. */
function reportActions(ctx: ReportActionContext) {
  const formats = (ctx.report.export?.formats ?? []).filter((f) => (SUBSCRIPTION_FORMATS as readonly string[]).includes(f));
  if (formats.length === 0) return null;
  return (
    <SubscribeButton
      target="report"
      reportId={ctx.report.id}
      {...(ctx.tabId ? { tab: ctx.tabId } : {})}
      filter={ctx.filter}
      filterSchema={ctx.report.filter.schema}
      columns={ctx.columns}
      {...(ctx.sort?.sortBy ? { sortBy: ctx.sort.sortBy, sortDir: ctx.sort.sortDir ?? 'asc' } : {})}
      formats={formats}
    />
  );
}

const VIEW_PARAM = '_view';

const browserStorage = (): Storage | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

/** A saved view's state as the report page's URL (filter fields, run, tab, sort, layout). */
function viewParams(state: SavedViewState): URLSearchParams {
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

/**
 * /layout/uikit/:reportId: the generic report page, with the signed-in user's train list for the train picker and
 * the Save view button; with ?_view=<id> a saved view is opened first: its column layout becomes the report's layout
 * in this browser and its filter, tab, sort and layout the page's URL, which runs the report for the user's own scope.
 */
export function ReportRoute() {
  const { trains } = useSession();
  const { reportId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const viewId = params.get(VIEW_PARAM);

  const open = useCallback(
    (view: SavedView) => {
      const key = columnStateKey(view.reportId, view.state.tab ?? undefined);
      if (view.state.columns) writeColumnState(browserStorage(), key, view.state.columns);
      else clearColumnState(browserStorage(), key);
      setParams(viewParams(view.state), { replace: true });
    },
    [setParams],
  );
  const extensions = useMemo<ReportExtensions>(
    () => ({
      headerActions: (snapshot) => (
        <SaveViewButton
          reportId={reportId}
          capture={() => {
            const s = snapshot();
            return { filter: s.filter, tab: s.tab, sortBy: s.sortBy, sortDir: s.sortDir, columns: s.columns, layout: s.layout };
          }}
        />
      ),
    }),
    [reportId],
  );

  if (viewId) return <OpenSavedView key={viewId} viewId={viewId} reportId={reportId} onOpen={open} />;
  return (
    <TrainListContext.Provider value={trains}>
      <ReportExtensionsContext.Provider value={extensions}>
        <ReportPage actions={reportActions} />
      </ReportExtensionsContext.Provider>
    </TrainListContext.Provider>
  );
}
