import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useEffect, useId, useState } from 'react';
import './train-strip.css';
import { parseRunningDetails, type RunningDetails } from '../../../shared/running-details';
import { pickTrain, positionParts, STRIP_REFRESH_MS, STRIP_TRAIN_KEY, stripView, todayIso } from './strip';

export interface TrainStripProps {
  /** The user's train list. */
  trains: readonly string[];
  /** POST /api/running-details with the session's credentials; resolves with the response body. */
  postJson(path: string, body: unknown, signal?: AbortSignal): Promise<unknown>;
}

function readStored(): string | null {
  try {
    const v = localStorage.getItem(STRIP_TRAIN_KEY);
    return v && /^[0-9A-Z]{1,10}$/.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** The position sentence in the interface language (station names are data and stay as they are). */
function positionText(position: string, t: TFunction): string {
  const p = positionParts(position);
  if (!p) return position;
  if (p.kind === 'notStarted') return t('dashboard.stripNotStarted');
  const late = p.lateMin > 0 ? t('dashboard.stripLate', { minutes: p.lateMin }) : t('dashboard.stripOnTime');
  const key = p.kind === 'departed' ? 'dashboard.stripDeparted' : p.kind === 'arrived' ? 'dashboard.stripArrived' : 'dashboard.stripArrivedDestination';
  return t(key, { station: p.station, time: p.time, late });
}

/** The live train running strip in the top bar. */
export function TrainStrip({ trains, postJson }: TrainStripProps) {
  const { t } = useTranslation();
  const [trainNo, setTrainNo] = useState<string | null>(() => pickTrain(trains, readStored()));
  const [details, setDetails] = useState<RunningDetails | null>(null);
  const labelId = useId();

  // The list can change (new session): keep the choice valid.
  const valid = pickTrain(trains, trainNo);
  if (valid !== trainNo) setTrainNo(valid);

  useEffect(() => {
    if (!trainNo) {
      setDetails(null);
      return;
    }
    let ctrl = new AbortController();
    const load = (): void => {
      ctrl.abort();
      ctrl = new AbortController();
      const signal = ctrl.signal;
      postJson('/api/running-details', { trainNo, startDate: todayIso() }, signal).then(
        (body) => {
          if (!signal.aborted) setDetails(parseRunningDetails(body)); // null (cleared) when malformed
        },
        () => {
          if (!signal.aborted) setDetails(null); // a failed fetch clears the strip
        },
      );
    };
    setDetails(null);
    load();
    const timer = setInterval(load, STRIP_REFRESH_MS);
    return () => {
      clearInterval(timer);
      ctrl.abort();
    };
  }, [trainNo, postJson]);

  const choose = (value: unknown): void => {
    if (typeof value !== 'string' || !trains.includes(value)) return;
    setTrainNo(value);
    try {
      localStorage.setItem(STRIP_TRAIN_KEY, value);
    } catch {
      // not persisted
    }
  };

  if (trains.length === 0) return null;
  const view = stripView(details);

  return (
    <div className="train-strip" role="region" aria-labelledby={labelId}>
      <span id={labelId} className="sr-only">
        {t('dashboard.stripRegion')}
      </span>
      <label htmlFor={`${labelId}-train`} className="sr-only">
        {t('dashboard.stripTrain')}
      </label>
      <select
        id={`${labelId}-train`}
        className="p-inputtext p-component train-strip-select"
        value={trainNo ?? ''}
        onChange={(e) => choose(e.target.value)}
      >
        {trains.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {view ? (
        <div className="train-strip-body" data-testid="train-strip">
          <ol className="train-strip-stations">
            {view.stations.map((s) => (
              <li
                key={s.index}
                className={`train-strip-station${s.current ? ' current' : ''}${s.gapBefore ? ' gap-before' : ''}`}
                aria-current={s.current ? 'location' : undefined}
                title={`STA ${s.row.STA ?? '--'} / STD ${s.row.STD ?? '--'} · ETA ${s.row.ETA ?? '--'} / ETD ${s.row.ETD ?? '--'}`}
              >
                {s.gapBefore && <span className="train-strip-gap" aria-hidden="true">…</span>}
                <span className="train-strip-name">{s.row.stationName}</span>
                <span className="train-strip-time">{s.row.ETA ?? s.row.ETD ?? ''}</span>
              </li>
            ))}
          </ol>
          <p className="train-strip-position" aria-live="polite">
            {positionText(view.position, t)}
          </p>
        </div>
      ) : null}
    </div>
  );
}
