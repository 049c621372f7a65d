import { ReportPage, type ReportActionContext } from '../features/reports/ReportPage';
import { TrainListContext } from '../features/reports/api';
import { SubscribeButton } from '../features/subscriptions/SubscribeButton';
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

/** /layout/uikit/:reportId: the generic report page, with the signed-in user's train list for the train picker. */
export function ReportRoute() {
  const { trains } = useSession();
  return (
    <TrainListContext.Provider value={trains}>
      <ReportPage actions={reportActions} />
    </TrainListContext.Provider>
  );
}
