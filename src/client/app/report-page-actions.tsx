import type { ReportActions, ReportPageState } from '../features/reports/report-actions';
import { SaveViewButton } from '../features/saved-views/SaveViewButton';
import { SubscribeButton } from '../features/subscriptions/SubscribeButton';
import { SUBSCRIPTION_FORMATS } from '../../shared/subscriptions';
import type { SavedViewState } from '../../shared/saved-views';

/** The page as a saved view keeps it: filter, tab, sort, the grid's column layout (read now), the layout choice. */
export function savedViewState(page: ReportPageState): SavedViewState {
  return { filter: page.filter, tab: page.tab, sortBy: page.sortBy, sortDir: page.sortDir, columns: page.columnLayout(), layout: page.layout };
}

/** "E-mail me this": a subscription to the report as it is on screen, in the formats both the report and mail offer. */
function subscribeButton(page: ReportPageState) {
  const formats = (page.report.export?.formats ?? []).filter((f) => (SUBSCRIPTION_FORMATS as readonly string[]).includes(f));
  if (formats.length === 0) return null;
  return (
    <SubscribeButton
      target="report"
      reportId={page.report.id}
      {...(page.tab ? { tab: page.tab } : {})}
      filter={page.filter}
      filterSchema={page.report.filter.schema}
      columns={page.visibleColumns}
      {...(page.sortBy ? { sortBy: page.sortBy, sortDir: page.sortDir ?? 'asc' } : {})}
      formats={formats}
    />
  );
}

/** What the app adds to every report page: Save view beside the title, "E-mail me this" on the result toolbar. */
export const reportPageActions: ReportActions = {
  header: (page) => <SaveViewButton reportId={page.report.id} capture={() => savedViewState(page)} />,
  resultToolbar: subscribeButton,
};
