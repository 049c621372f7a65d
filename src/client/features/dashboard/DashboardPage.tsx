import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n';
import { localizeMessage } from '../../i18n/messages';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import type { DashboardCard } from '../../../shared/dashboard';
import { failureText, fetchDashboard } from './api';
import { DashboardCardView } from './DashboardCardView';
import { useRefreshTick } from './refresh';
import './dashboard.css';

type PageState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; cards: DashboardCard[] };

/** /layout/dashboard: the cards of dashboard.json in order; each card loads on its own, in parallel. */
export function DashboardPage({ actions }: { /** More buttons beside the heading, given by the app. */ actions?: ReactNode } = {}) {
  const { t } = useTranslation();
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const refresh = useRefreshTick();
  const language = useLanguage();

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
  }, [attempt, language]); // card titles and captions come from the server in the interface language

  return (
    <div className="dash-page">
      <div className="dash-heading-row">
        <h1 className="dash-heading">{t('dashboard.heading')}</h1>
        {actions}
      </div>
      <p className="dash-intro">{t('dashboard.intro')}</p>
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
          <span>{t('dashboard.loadFailed', { message: localizeMessage(state.message) })}</span>
          <Button type="button" label={t('common.retry')} icon="pi pi-refresh" onClick={() => setAttempt((a) => a + 1)} />
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
