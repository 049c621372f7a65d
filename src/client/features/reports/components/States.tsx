import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../../i18n/messages';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';

export const DASHBOARD_PATH = '/layout/dashboard';

/** Seconds since `active` became true (a slow connection deserves to see that something is happening). */
function useElapsed(active: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    setSeconds(0);
    const t = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(t);
  }, [active]);
  return active ? seconds : 0;
}

export function LoadingRows({ label }: { label: string }) {
  const { t } = useTranslation();
  const seconds = useElapsed(true);
  return (
    <div className="report-loading" role="status" aria-live="polite">
      <ProgressBar mode="indeterminate" style={{ height: '0.35rem' }} aria-label={label} />
      <p>
        {label}
        {seconds >= 3 ? t('reports.stillWorking', { seconds }) : ''}
      </p>
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} height="1.6rem" className="report-skeleton-row" />
      ))}
    </div>
  );
}

export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="report-error" role="alert">
      <Message severity="error" text={`${title}: ${localizeMessage(message)}`} />
      {onRetry && <Button type="button" label={t('reports.tryAgain')} icon="pi pi-refresh" text onClick={onRetry} />}
    </div>
  );
}

export function ReportNotFound({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div className="report-page report-not-found">
      <h1>{t('reports.notFoundTitle')}</h1>
      <p>
        {t('reports.notFoundBefore')} <code>{id}</code>
        {t('reports.notFoundAfter')}
      </p>
      <Link to={DASHBOARD_PATH}>{t('reports.backToDashboard')}</Link>
    </div>
  );
}

export function ReportUnavailable({ id, reason }: { id: string; reason: string }) {
  const { t } = useTranslation();
  return (
    <div className="report-page report-unavailable">
      <h1>{t('reports.unavailableTitle')}</h1>
      <p>
        {t('reports.unavailableBefore')} <code>{id}</code> {t('reports.unavailableAfter')}
      </p>
      <Message severity="warn" text={reason} />
      <p>
        <Link to={DASHBOARD_PATH}>{t('reports.backToDashboard')}</Link>
      </p>
    </div>
  );
}
