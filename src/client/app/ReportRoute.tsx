import { useCallback, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ReportPage, type ReportActionContext } from '../features/reports/ReportPage';
import { TrainListContext } from '../features/reports/api';
import { ReportExtensionsContext, type ReportExtensions } from '../features/reports/extensions';
import { OpenSavedView } from '../features/saved-views/OpenSavedView';
import { SaveViewButton } from '../features/saved-views/SaveViewButton';
import { SubscribeButton } from '../features/subscriptions/SubscribeButton';
import type { SavedView } from '../../shared/saved-views';
import { applySavedViewLayout, VIEW_PARAM, viewParams } from './saved-view-link';
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
      applySavedViewLayout(view);
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
