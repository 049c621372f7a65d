import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatMoment } from '../../i18n/format';
import type { Freshness } from '../../../shared/freshness';
import './freshness.css';

/** "5 min", "2 h 10 min": a span of minutes for people. */
function span(minutes: number, t: TFunction): string {
  if (minutes < 60) return t('freshness.minutes', { count: minutes });
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? t('freshness.hours', { count: h }) : t('freshness.hoursMinutes', { h, m });
}

export interface FreshnessNoteProps {
  freshness: Freshness | null | undefined;
  /** The answer came from the server's result cache, this old (seconds, its Age header). */
  cacheAgeSeconds?: number | null | undefined;
  /** One line (dashboard cards): no beat list. */
  compact?: boolean;
}

/**
 * As of when an answer's data is: the latest synced record it covers, how long before the answer that was, whether
 * the server answered from its cache (and how old that is) and, for one train run, each beat's last sync with stale
 * beats marked. Shared by the report page and the dashboard cards.
 */
export function FreshnessNote({ freshness, cacheAgeSeconds, compact = false }: FreshnessNoteProps) {
  const { t } = useTranslation();
  if (!freshness) return null;
  const computed = Date.parse(freshness.computedAt);
  const asOf = freshness.asOf === null ? null : new Date(freshness.asOf);
  const behind = asOf ? Math.max(0, Math.round((computed - asOf.getTime()) / 60_000)) : null;
  const stale = freshness.beats?.filter((b) => b.stale) ?? [];
  return (
    <div className={compact ? 'freshness freshness-compact' : 'freshness'} data-testid="freshness">
      <p className="freshness-line">
        <i className="pi pi-clock" aria-hidden="true" />{' '}
        {asOf ? (
          <span data-testid="freshness-asof">
            {t('freshness.asOf', { time: formatMoment(asOf) })}
            {behind !== null && behind > 0 ? ` ${t('freshness.behind', { span: span(behind, t) })}` : ''}
          </span>
        ) : (
          <span data-testid="freshness-asof">{t('freshness.nothingSynced')}</span>
        )}
        {cacheAgeSeconds !== null && cacheAgeSeconds !== undefined ? (
          <span className="freshness-cache" data-testid="freshness-cache">
            {' · '}
            {t('freshness.fromCache', { span: cacheAgeSeconds < 60 ? t('freshness.seconds', { count: cacheAgeSeconds }) : span(Math.round(cacheAgeSeconds / 60), t) })}
          </span>
        ) : null}
      </p>
      {!compact && freshness.beats && freshness.beats.length > 0 ? (
        <details className="freshness-beats" open={stale.length > 0}>
          <summary>
            {t('freshness.beatsSummary', { count: freshness.beats.length })}
            {stale.length > 0 ? ' ' : null}
            {stale.length > 0 ? <span className="freshness-stale-tag">{t('freshness.staleCount', { count: stale.length })}</span> : null}
          </summary>
          <ul>
            {freshness.beats.map((b) => (
              <li key={b.beatNo} className={b.stale ? 'freshness-beat freshness-beat-stale' : 'freshness-beat'} data-testid={`freshness-beat-${b.beatNo}`}>
                <span className="freshness-beat-name">{t('freshness.beat', { n: b.beatNo, tte: b.tteId })}</span>{' '}
                <span>
                  {b.lastSyncAt
                    ? t('freshness.lastSync', { time: formatMoment(new Date(b.lastSyncAt)), span: span(b.lagMinutes ?? 0, t) })
                    : t('freshness.neverSynced')}
                </span>
                {b.stale ? ' ' : null}
                {b.stale ? <span className="freshness-stale-tag">{t('freshness.stale', { span: span(freshness.staleAfterMinutes, t) })}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
