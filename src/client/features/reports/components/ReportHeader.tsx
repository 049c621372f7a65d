import type { PublicReport } from '../../../../shared/report-definition';
import { useReportActions, type ReportPageState } from '../report-actions';

/** The report's title and description, with the app's buttons for the report beside the title once it has run. */
export function ReportHeader({ report, page }: { report: PublicReport; /** null before a run. */ page: ReportPageState | null }) {
  const { header } = useReportActions();
  return (
    <header className="report-header">
      <div className="report-header-line">
        <h1>{report.title}</h1>
        {page && header ? <div className="report-header-actions">{header(page)}</div> : null}
      </div>
      {report.description && <p className="report-description">{report.description}</p>}
    </header>
  );
}
