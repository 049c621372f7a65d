import { useTranslation } from 'react-i18next';
import { localizeMessage } from '../../i18n/messages';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import { cardHref, type DashboardCard } from '../../../shared/dashboard';
import { failureText, fetchCardData, type CardData } from './api';
import { StatBody } from './StatCard';
import { ChartBody } from './ChartCard';

import { updatedTime } from './refresh';
import { FreshnessNote } from '../../lib/freshness/FreshnessNote';

type CardState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; data: CardData; at: Date };

/**
 * One card: loads its own call, shows a skeleton, then the number or chart, or its own error with a retry.
 * Each `refresh` tick reloads it in place (the figures stay on screen meanwhile) and says when.
 */
export function DashboardCardView({ card, refresh = 0 }: { card: DashboardCard; refresh?: number }) {
  const { t } = useTranslation();
  const [state, setState] = useState<CardState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);

  useEffect(() => {
    const ctl = new AbortController();
    setState((s) => (s.status === 'ok' ? s : { status: 'loading' }));
    fetchCardData(card, ctl.signal).then(
      (data) => setState({ status: 'ok', data, at: new Date() }),
      async (err: unknown) => {
        if (ctl.signal.aborted) return;
        setState({ status: 'error', message: await failureText(err) });
      },
    );
    return () => ctl.abort();
  }, [card, attempt, refresh]);

  const href = card.link ? cardHref(card.link) : undefined;
  return (
    <section className={`dash-card dash-card-${card.kind}`} aria-labelledby={`card-title-${card.id}`} aria-busy={state.status === 'loading'} data-testid={`card-${card.id}`}>
      <header className="dash-card-head">
        {card.icon ? <i className={`${card.icon} dash-card-icon`} aria-hidden="true" /> : null}
        <h2 id={`card-title-${card.id}`} className="dash-card-title">
          {card.title}
        </h2>
      </header>
      <div className="dash-card-body">
        {state.status === 'loading' ? (
          card.kind === 'chart' ? <Skeleton height="12rem" /> : <Skeleton width="8rem" height="2.5rem" />
        ) : state.status === 'error' ? (
          <div className="dash-card-error" role="alert">
            <span>{localizeMessage(state.message)}</span>
            <Button type="button" label={t('common.retry')} icon="pi pi-refresh" size="small" text onClick={retry} />
          </div>
        ) : card.kind === 'stat' ? (
          <StatBody card={card} data={state.data} />
        ) : (
          <ChartBody card={card} rows={state.data.rows} />
        )}
      </div>
      {state.status === 'ok' ? (
        <p className="dash-card-updated" data-testid={`card-updated-${card.id}`}>
          {t('dashboard.updated', { time: updatedTime(state.at) })}
        </p>
      ) : null}
      {state.status === 'ok' ? <FreshnessNote compact freshness={state.data.freshness} cacheAgeSeconds={state.data.cacheAgeSeconds} /> : null}
      {href ? (
        <footer className="dash-card-foot">
          <Link to={href} className="dash-card-link">
            {href.startsWith('/layout/uikit/') ? t('dashboard.openReport') : t('dashboard.open')} <span className="dash-sr-only">{card.title}</span>
            <i className="pi pi-arrow-right" aria-hidden="true" />
          </Link>
        </footer>
      ) : null}
    </section>
  );
}
