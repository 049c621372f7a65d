import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import type { DashboardCard } from '../../../shared/dashboard';
import { failureText, fetchDashboard } from './api';
import { DashboardCardView } from './DashboardCardView';
import { useRefreshTick } from './refresh';
import './dashboard.css';

type PageState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; cards: DashboardCard[] };

/** /layout/dashboard: the cards of dashboard.json in order; each card loads on its own, in parallel. */
export function DashboardPage() {
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const refresh = useRefreshTick();

  useEffect(() => {
    const ctl = new AbortController();
    setState({ status: 'loading' });
    fetchDashboard(ctl.signal).then(
      (d) => setState({ status: 'ok', cards: d.cards }),
      async (err: unknown) => {
        if (!ctl.signal.aborted) setState({ status: 'error', message: await failureText(err) });
      },
    );
    return () => ctl.abort();
  }, [attempt]);

  return (
    <div className="dash-page">
      <h1 className="dash-heading">Dashboard</h1>
      <p className="dash-intro">Today&apos;s figures for your area. Choose a card to open the report behind it. Figures refresh every minute.</p>
      {state.status === 'loading' ? (
        <div className="dash-grid" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="dash-card">
              <Skeleton height="6rem" />
            </div>
          ))}
        </div>
      ) : state.status === 'error' ? (
        <div className="dash-card-error" role="alert">
          <span>The dashboard could not be loaded: {state.message}</span>
          <Button type="button" label="Retry" icon="pi pi-refresh" onClick={() => setAttempt((a) => a + 1)} />
        </div>
      ) : (
        <div className="dash-grid">
          {state.cards.map((c) => (
            <DashboardCardView key={c.id} card={c} refresh={refresh} />
          ))}
        </div>
      )}
    </div>
  );
}
