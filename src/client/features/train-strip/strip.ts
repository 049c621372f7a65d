import { YET_TO_START, type RunningDetails, type StationRow } from '../../../shared/running-details';

/** Spec section 4/9: the strip refreshes every 120 s. */
export const STRIP_REFRESH_MS = 120_000;
export { STRIP_TRAIN_KEY } from '../../lib/train-memory';

export interface StripStation {
  index: number;
  row: StationRow;
  current: boolean;
  /** Stations were left out before this one. */
  gapBefore: boolean;
}

export interface StripView {
  stations: StripStation[];
  position: string;
  finished: boolean;
  notStarted: boolean;
}

/**
 * Which station is current: the first while 'Yet to start from its source', the highlighted one, the last when the
 * train has finished (no next station), otherwise the one named as the last station passed.
 */
export function currentIndex(d: RunningDetails): { index: number; finished: boolean; notStarted: boolean } {
  const rows = d.vStationList;
  const last = rows.length - 1;
  const pos = d.trainCurrentPosition;
  if (pos?.currentPosition.includes(YET_TO_START)) return { index: 0, finished: false, notStarted: true };
  const finished =
    !!pos && pos.nextPTTStationName.trim() === '' && (pos.lastStationName === rows[last]?.stationName || rows[last]?.isHighlighted === true);
  if (finished) return { index: last, finished: true, notStarted: false };
  const highlighted = rows.findIndex((r) => r.isHighlighted);
  if (highlighted >= 0) return { index: highlighted, finished: highlighted === last, notStarted: false };
  const named = pos ? rows.findIndex((r) => r.stationName === pos.lastStationName) : -1;
  return { index: Math.max(0, named), finished: named === last, notStarted: false };
}

/** The strip shows the first station, the stations around the current one, and the last. Null clears the strip. */
export function stripView(d: RunningDetails | null): StripView | null {
  if (!d || d.vStationList.length === 0) return null;
  const rows = d.vStationList;
  const last = rows.length - 1;
  const { index, finished, notStarted } = currentIndex(d);
  const keep = new Set([0, index - 1, index, index + 1, last].filter((i) => i >= 0 && i <= last));
  const picked = [...keep].sort((a, b) => a - b);
  return {
    stations: picked.map((i, k) => ({
      index: i,
      row: rows[i] as StationRow,
      current: i === index,
      gapBefore: k > 0 && i - (picked[k - 1] ?? i) > 1,
    })),
    position: d.trainCurrentPosition?.currentPosition ?? '',
    finished,
    notStarted,
  };
}

/** The train shown: the stored choice if it is still in the user's list, else the first. */
export function pickTrain(trains: readonly string[], stored: string | null): string | null {
  if (stored && trains.includes(stored)) return stored;
  return trains[0] ?? null;
}

/** Today's date in ISO form (the journey start date the strip asks for), in the browser's time zone. */
export function todayIso(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The position sentence in parts, so it can be said in the interface language; null for any other wording. */
export type PositionParts =
  | { kind: 'notStarted' }
  | { kind: 'arrivedDestination' | 'arrived' | 'departed'; station: string; time: string; lateMin: number };

/**
 * Reads the running-details sentence ('Departed from Bhopal Jn (BPL) at 14:51, running 6 min late'; the spec's
 * wording, in English on the wire). A sentence in another wording (another backend) is shown as it came.
 */
export function positionParts(text: string): PositionParts | null {
  if (text.trim() === YET_TO_START) return { kind: 'notStarted' };
  const m = /^(Arrived at its destination|Arrived at|Departed from) (.+) at (\d{1,2}:\d{2}), running (?:(\d+) min late|on time)$/.exec(text.trim());
  if (!m) return null;
  const kind = m[1] === 'Departed from' ? 'departed' : m[1] === 'Arrived at' ? 'arrived' : 'arrivedDestination';
  return { kind, station: m[2] as string, time: m[3] as string, lateMin: m[4] ? Number(m[4]) : 0 };
}
