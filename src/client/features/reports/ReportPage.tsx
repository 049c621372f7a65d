import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import { useCallback, useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { useReportDefinition } from './api';
import { ReportView } from './ReportView';
import { ErrorState, LoadingRows, ReportNotFound, ReportUnavailable } from './components/States';
import './reports.css';

const REPORT_ID = /^[A-Za-z0-9_-]{1,64}$/;

function ReportLoader({ id }: { id: string }) {
  const { t } = useTranslation();
  const { state, retry } = useReportDefinition(id, useLanguage());
  const title = state.status === 'ok' ? state.report.title : null;
  // A run answered "no such call": the definition changed (or broke) since it was loaded. Load it again, once, so the
  // page shows the report as it is now (or the unavailable state and its reason) instead of the bare error.
  const rechecked = useRef(false);
  const recheck = useCallback(() => {
    if (rechecked.current) return;
    rechecked.current = true;
    retry();
  }, [retry]);
  useEffect(() => {
    if (title) document.title = `${title} · ${t('common.portal')}`;
  }, [title, t]);
  switch (state.status) {
    case 'loading':
      return (
        <div className="report-page">
          <LoadingRows label={t('reports.loadingReport')} />
        </div>
      );
    case 'notFound':
      return <ReportNotFound id={id} />;
    case 'unavailable':
      return <ReportUnavailable id={id} reason={state.reason} />;
    case 'error':
      return (
        <div className="report-page">
          <ErrorState title={t('reports.loadFailed')} message={state.message} onRetry={retry} />
        </div>
      );
    case 'ok':
      return <ReportView key={state.report.id} report={state.report} onCallGone={recheck} />;
  }
}

/** Route /layout/uikit/:reportId: any report, from its definition (the app's buttons come through ReportActionsContext). */
export function ReportPage() {
  const { reportId = '' } = useParams();
  if (!REPORT_ID.test(reportId)) return <ReportNotFound id={reportId} />;
  return <ReportLoader key={reportId} id={reportId} />;
}

export default ReportPage;
