import { useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ReportPage } from '../features/reports/ReportPage';
import { TrainListContext } from '../features/reports/api';
import { ReportActionsContext } from '../features/reports/report-actions';
import { OpenSavedView } from '../features/saved-views/OpenSavedView';
import type { SavedView } from '../../shared/saved-views';
import { applySavedViewLayout, VIEW_PARAM, viewParams } from './saved-view-link';
import { reportPageActions } from './report-page-actions';
import { useSession } from '../lib/session';

/**
 * /layout/uikit/:reportId: the generic report page, with the signed-in user's train list for the train picker and the
 * app's buttons (Save view, "E-mail me this"); with ?_view=<id> a saved view is opened first: its column layout becomes
 * the report's layout in this browser and its filter, tab, sort and layout the page's URL, which runs the report for
 * the user's own scope.
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

  if (viewId) return <OpenSavedView key={viewId} viewId={viewId} reportId={reportId} onOpen={open} />;
  return (
    <TrainListContext.Provider value={trains}>
      <ReportActionsContext.Provider value={reportPageActions}>
        <ReportPage />
      </ReportActionsContext.Provider>
    </TrainListContext.Provider>
  );
}
