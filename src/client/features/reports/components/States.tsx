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
  const seconds = useElapsed(true);
  return (
    <div className="report-loading" role="status" aria-live="polite">
      <ProgressBar mode="indeterminate" style={{ height: '0.35rem' }} aria-label={label} />
      <p>
        {label}
        {seconds >= 3 ? ` (${seconds} s; still working)` : ''}
      </p>
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} height="1.6rem" className="report-skeleton-row" />
      ))}
    </div>
  );
}

export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div className="report-error" role="alert">
      <Message severity="error" text={`${title}: ${message}`} />
      {onRetry && <Button type="button" label="Try again" icon="pi pi-refresh" text onClick={onRetry} />}
    </div>
  );
}

export function ReportNotFound({ id }: { id: string }) {
  return (
    <div className="report-page report-not-found">
      <h1>Report not found</h1>
      <p>
        There is no report named <code>{id}</code>. It may have been renamed or removed.
      </p>
      <Link to={DASHBOARD_PATH}>Back to the dashboard</Link>
    </div>
  );
}

export function ReportUnavailable({ id, reason }: { id: string; reason: string }) {
  return (
    <div className="report-page report-unavailable">
      <h1>Report unavailable</h1>
      <p>
        The report <code>{id}</code> cannot be shown right now because its definition has a problem. Please tell the HHT team.
      </p>
      <Message severity="warn" text={reason} />
      <p>
        <Link to={DASHBOARD_PATH}>Back to the dashboard</Link>
      </p>
    </div>
  );
}
