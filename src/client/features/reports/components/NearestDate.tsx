import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { formatDate } from '../../../../shared/column-types';
import { formatNumber } from '../../../i18n/format';
import { useReportApi, type RunRequest } from '../api';
import type { NearestDate as Nearest } from '../lib/parse';

type State = { status: 'looking' } | { status: 'found'; nearest: Nearest } | { status: 'none' } | { status: 'failed' };

/**
 * Under an empty result of a report with one date: the nearest earlier date on which the same filter has rows for
 * the user, as a button that runs it ("26/11/2026: 2 records"). A failed lookup just offers nothing.
 */
export function NearestDate({ request, requestKey, onPick, daysBack }: { request: RunRequest; requestKey: string; onPick: (field: string, date: string) => void; daysBack: number }) {
  const { t } = useTranslation();
  const reportApi = useReportApi();
  const [state, setState] = useState<{ key: string; value: State }>({ key: requestKey, value: { status: 'looking' } });
  const current = state.key === requestKey ? state.value : { status: 'looking' as const };
  useEffect(() => {
    const ctrl = new AbortController();
    reportApi.nearestDate({ ...request, signal: ctrl.signal }).then(
      (nearest) => setState({ key: requestKey, value: nearest ? { status: 'found', nearest } : { status: 'none' } }),
      () => {
        if (!ctrl.signal.aborted) setState({ key: requestKey, value: { status: 'failed' } });
      },
    );
    return () => ctrl.abort();
    // The request is described whole by its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey, reportApi]);

  if (current.status === 'looking') return <p className="report-hint">{t('reports.nearestLooking')}</p>;
  if (current.status === 'none') return <p className="report-hint">{t('reports.nearestNone', { days: daysBack })}</p>;
  if (current.status === 'failed') return null;
  const { nearest } = current;
  return (
    <div className="report-nearest">
      <p>{t('reports.nearestOffer')}</p>
      <Button
        type="button"
        outlined
        label={t('reports.nearestRecords', { count: nearest.count, formatted: formatNumber(nearest.count), date: formatDate(nearest.date) })}
        onClick={() => onPick(nearest.field, nearest.date)}
      />
    </div>
  );
}
