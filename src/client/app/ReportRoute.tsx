import { ReportPage } from '../features/reports/ReportPage';
import { TrainListContext } from '../features/reports/api';
import { useSession } from '../lib/session';

/** /layout/uikit/:reportId: the generic report page, with the signed-in user's train list for the train picker. */
export function ReportRoute() {
  const { trains } = useSession();
  return (
    <TrainListContext.Provider value={trains}>
      <ReportPage />
    </TrainListContext.Provider>
  );
}
