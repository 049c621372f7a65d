/** POST /api/running-details {trainNo, startDate}: the train strip's data (spec sections 3, 4 and 7). */

export interface RunningDetailsRequest {
  trainNo: string;
  /** Journey start date, ISO 'YYYY-MM-DD'. */
  startDate: string;
}

export interface StationRow {
  stationName: string;
  /** Scheduled arrival 'HH:MM' (null at the source). */
  STA: string | null;
  /** Scheduled departure 'HH:MM' (null at the destination). */
  STD: string | null;
  /** Expected arrival with the running delay. */
  ETA: string | null;
  /** Expected departure with the running delay. */
  ETD: string | null;
  isHighlighted: boolean;
}

export interface TrainCurrentPosition {
  nextPTTStationName: string;
  currentPosition: string;
  lastStationName: string;
}

export interface RunningDetails {
  vStationList: StationRow[];
  /** null when the train has no run on that date. */
  trainCurrentPosition: TrainCurrentPosition | null;
}

export const YET_TO_START = 'Yet to start from its source';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullableString = (v: unknown): v is string | null => v === null || v === undefined || typeof v === 'string';

/** Boundary check of a running-details response: null when the shape is wrong. */
export function parseRunningDetails(value: unknown): RunningDetails | null {
  if (!isRecord(value) || !Array.isArray(value.vStationList)) return null;
  const rows: StationRow[] = [];
  for (const r of value.vStationList) {
    if (!isRecord(r) || typeof r.stationName !== 'string') return null;
    if (!nullableString(r.STA) || !nullableString(r.STD) || !nullableString(r.ETA) || !nullableString(r.ETD)) return null;
    rows.push({
      stationName: r.stationName,
      STA: r.STA ?? null,
      STD: r.STD ?? null,
      ETA: r.ETA ?? null,
      ETD: r.ETD ?? null,
      isHighlighted: r.isHighlighted === true,
    });
  }
  const p = value.trainCurrentPosition;
  let position: TrainCurrentPosition | null = null;
  if (isRecord(p)) {
    const s = (v: unknown): string => (typeof v === 'string' ? v : '');
    position = {
      nextPTTStationName: s(p.nextPTTStationName),
      currentPosition: s(p.currentPosition),
      lastStationName: s(p.lastStationName),
    };
  } else if (p !== null && p !== undefined) {
    return null;
  }
  return { vStationList: rows, trainCurrentPosition: position };
}
