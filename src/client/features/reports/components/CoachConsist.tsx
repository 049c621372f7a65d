import { localizeMessage } from '../../../i18n/messages';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format';
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { formatDate } from '../../../../shared/column-types';
import type { ConsistResponse } from '../../../../shared/consist';
import type { ConsistDef } from '../../../../shared/report-definition';
import { ApiError, useReportApi } from '../api';
import type { Filter } from '../lib/filter-url';

type State = { status: 'loading' } | { status: 'ok'; consist: ConsistResponse } | { status: 'error'; message: string };

const n = (x: number): string => formatNumber(x);

/**
 * The run's coach composition above a report's result (definition key `consist`): coaches in marshalling order
 * with class and berths. Where the definition names a coach field, a coach is a toggle that runs the report for it.
 * A failed lookup says so here and leaves the report alone.
 */
export function CoachConsist({ def, filter, onPickCoach }: { def: ConsistDef; filter: Filter; onPickCoach: (coach: string | null) => void }) {
  const { t } = useTranslation();
  const reportApi = useReportApi();
  const trainNo = typeof filter[def.trainNo] === 'string' ? String(filter[def.trainNo]).trim() : '';
  const startDate = typeof filter[def.startDate] === 'string' ? String(filter[def.startDate]) : '';
  const picked = def.coach && typeof filter[def.coach] === 'string' ? String(filter[def.coach]) : null;
  const trainEvent = def.trainEvent ?? 'C';
  const key = `${trainNo}|${startDate}|${trainEvent}`;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ key: string; attempt: number; value: State } | null>(null);

  useEffect(() => {
    if (!trainNo || !startDate) return;
    const ctrl = new AbortController();
    reportApi.coachConsist({ trainNo, startDate, trainEvent }, ctrl.signal).then(
      (consist) => setState({ key, attempt, value: { status: 'ok', consist } }),
      (e: unknown) => {
        if (ctrl.signal.aborted) return;
        const message = e instanceof ApiError || e instanceof Error ? e.message : '';
        setState({ key, attempt, value: { status: 'error', message } });
      },
    );
    return () => ctrl.abort();
  }, [reportApi, key, trainNo, startDate, trainEvent, attempt]);

  if (!trainNo || !startDate) return null;
  const value: State = state && state.key === key && state.attempt === attempt ? state.value : { status: 'loading' };

  return (
    <section className="report-card report-consist" aria-labelledby="report-consist-heading" aria-busy={value.status === 'loading'}>
      <h2 id="report-consist-heading" className="report-consist-heading">
        {t('reports.consistTitle')}
        <span className="report-consist-run">
          {' '}
          {t('reports.consistRun', { train: trainNo, date: formatDate(startDate) })}
          {value.status === 'ok' &&
            t('reports.consistTotals', { coaches: n(value.consist.coaches.length), berths: n(value.consist.coaches.reduce((a, c) => a + c.capacity, 0)) })}
        </span>
      </h2>
      {value.status === 'loading' && <p className="report-consist-note">{t('reports.consistLoading')}</p>}
      {value.status === 'error' && (
        <p className="report-consist-note" role="alert">
          {t('reports.consistUnavailable', { message: localizeMessage(value.message || t('reports.lookupFailed')) })}{' '}
          <Button type="button" link label={t('reports.tryAgain')} className="p-0" onClick={() => setAttempt((a) => a + 1)} />
        </p>
      )}
      {value.status === 'ok' && value.consist.coaches.length === 0 && <p className="report-consist-note">{t('reports.consistNone')}</p>}
      {value.status === 'ok' && value.consist.coaches.length > 0 && (
        // A scroller the keyboard can reach when its coaches are not buttons (axe: scrollable-region-focusable).
        <ol className="report-consist-list" {...(def.coach ? {} : { tabIndex: 0, 'aria-label': t('reports.consistTitle') })}>
          {value.consist.coaches.map((c) => {
            const label = t('reports.consistCoach', { coach: c.coachId, cls: c.class, berths: n(c.capacity) });
            const body = (
              <>
                <span className="report-consist-coach">{c.coachId}</span>{' '}
                <span className="report-consist-class">{c.class}</span>
                <span className="report-sr-only">{t('reports.consistBerths', { berths: n(c.capacity) })}</span>
              </>
            );
            return (
              <li key={`${c.seq}-${c.coachId}`}>
                {def.coach ? (
                  <button
                    type="button"
                    className="report-consist-item"
                    aria-pressed={picked === c.coachId}
                    aria-label={label}
                    title={picked === c.coachId ? t('reports.consistShowingCoach', { label }) : t('reports.consistShowCoach', { label })}
                    onClick={() => onPickCoach(picked === c.coachId ? null : c.coachId)}
                  >
                    {body}
                  </button>
                ) : (
                  <span className="report-consist-item" title={label}>
                    {body}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
