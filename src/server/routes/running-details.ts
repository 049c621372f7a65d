import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { HttpError } from '../plugins/errors';
import { allowedScope, trainsInScope } from '../auth/scope';
import { isoDateSchema } from '../plugins/schema-formats';
import {
  YET_TO_START,
  type RunningDetails,
  type RunningDetailsRequest,
  type StationRow,
  type TrainCurrentPosition,
} from '../../shared/running-details';

const IST_OFFSET_MS = 330 * 60_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface StopRow {
  seq: number;
  station_code: string;
  name: string;
  arr_time: string | null;
  dep_time: string | null;
  day_no: number;
  distance_km: number;
}

interface TimedStop {
  stationName: string;
  sta: number | null;
  std: number | null;
  eta: number | null;
  etd: number | null;
}

/** Milliseconds since the epoch of an IST wall-clock 'HH:MM' on day day_no of a journey starting startDate. */
function istInstant(startDate: string, dayNo: number, hhmm: string): number {
  const [y, m, d] = startDate.split('-').map(Number) as [number, number, number];
  const [hh, mm] = hhmm.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d) - IST_OFFSET_MS + (dayNo - 1) * DAY + (hh * 60 + mm) * MINUTE;
}

/** 'HH:MM' in IST. */
function istClock(ms: number | null): string | null {
  if (ms === null) return null;
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(11, 16);
}

function isRealDate(iso: string): boolean {
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/**
 * Timetable plus the run's running delay. The delay builds up along the route in proportion to the distance
 * covered (a train rarely leaves its source late but loses time on the way), so the expected times at the source
 * equal the schedule and the destination carries the run's whole delay_min.
 */
function timeStops(stops: StopRow[], startDate: string, delayMin: number): TimedStop[] {
  const total = stops[stops.length - 1]?.distance_km ?? 0;
  return stops.map((s) => {
    const delay = Math.round(total > 0 ? (delayMin * s.distance_km) / total : delayMin) * MINUTE;
    const sta = s.arr_time ? istInstant(startDate, s.day_no, s.arr_time) : null;
    let std = s.dep_time ? istInstant(startDate, s.day_no, s.dep_time) : null;
    if (sta !== null && std !== null && std < sta) std += DAY; // departure after midnight of the arrival day
    return {
      stationName: `${s.name} (${s.station_code})`,
      sta,
      std,
      eta: sta === null ? null : sta + delay,
      etd: std === null ? null : std + delay,
    };
  });
}

function lateness(delayMs: number): string {
  const min = Math.round(delayMs / MINUTE);
  return min > 0 ? `running ${min} min late` : 'running on time';
}

/** Where the train is at `now`, and which station to highlight. */
export function currentPosition(stops: TimedStop[], now: number): { index: number; position: TrainCurrentPosition } {
  const first = stops[0];
  const lastIndex = stops.length - 1;
  const last = stops[lastIndex];
  if (!first || !last) throw new Error('no stops');
  if (first.etd === null || now < first.etd) {
    return {
      index: 0,
      position: { currentPosition: YET_TO_START, lastStationName: '', nextPTTStationName: first.stationName },
    };
  }
  if (last.eta !== null && now >= last.eta) {
    return {
      index: lastIndex,
      position: {
        currentPosition: `Arrived at its destination ${last.stationName} at ${istClock(last.eta)}, ${lateness(last.eta - (last.sta ?? last.eta))}`,
        lastStationName: last.stationName,
        nextPTTStationName: '',
      },
    };
  }
  // The last station reached: arrival (or departure, at the source) not after now.
  let i = 0;
  for (let k = 1; k < lastIndex; k++) {
    const s = stops[k];
    if (s?.eta !== null && s?.eta !== undefined && s.eta <= now) i = k;
  }
  const at = stops[i] as TimedStop;
  const next = stops[i + 1] as TimedStop;
  const halted = at.etd !== null && now < at.etd;
  const delay = (at.etd ?? 0) - (at.std ?? at.etd ?? 0);
  return {
    index: i,
    position: {
      currentPosition: halted
        ? `Arrived at ${at.stationName} at ${istClock(at.eta)}, ${lateness((at.eta ?? 0) - (at.sta ?? at.eta ?? 0))}`
        : `Departed from ${at.stationName} at ${istClock(at.etd)}, ${lateness(delay)}`,
      lastStationName: at.stationName,
      nextPTTStationName: next.stationName,
    },
  };
}

const bodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['trainNo', 'startDate'],
  properties: {
    trainNo: { type: 'string', pattern: '^[0-9]{5}$' },
    startDate: isoDateSchema,
  },
} as const;

/** POST /api/running-details: the train strip of a train in the user's list, from the timetable, the run's delay and app.clock. */
export function runningDetailsRoutes(app: FastifyInstance, deps: { db: Db; suMobiles: readonly string[] }): void {
  const { db, suMobiles } = deps;
  app.post<{ Body: RunningDetailsRequest }>(
    '/api/running-details',
    { schema: { body: bodySchema }, preHandler: app.authenticate },
    async (request): Promise<RunningDetails> => {
      const { trainNo, startDate } = request.body;
      if (!isRealDate(startDate)) {
        throw new HttpError(400, `Invalid startDate: ${startDate} is not a calendar date`, [
          { field: 'startDate', reason: 'must be a calendar date YYYY-MM-DD' },
        ]);
      }
      // Scoped like the consist lookup: only trains of the user's own list (spec section 6).
      const user = request.sessionUser;
      if (!user) throw new HttpError(403, 'Session expired, Please login again');
      if (!(await trainsInScope(db, allowedScope(user, suMobiles))).includes(trainNo)) {
        throw new HttpError(404, `Train ${trainNo} is not in your train list`);
      }
      const run = (
        await db.query<{ delay_min: number }>(
          'SELECT delay_min FROM train_runs WHERE train_no = $1 AND start_date = $2::date',
          [trainNo, startDate],
        )
      ).rows[0];
      if (!run) return { vStationList: [], trainCurrentPosition: null };
      const stops = (
        await db.query<StopRow>(
          `SELECT s.seq, s.station_code, st.name, s.arr_time, s.dep_time, s.day_no, s.distance_km
             FROM train_stops s JOIN stations st ON st.station_code = s.station_code
            WHERE s.train_no = $1 ORDER BY s.seq`,
          [trainNo],
        )
      ).rows;
      if (stops.length < 2) return { vStationList: [], trainCurrentPosition: null };
      const timed = timeStops(stops, startDate, Number(run.delay_min));
      const { index, position } = currentPosition(timed, app.clock.now().getTime());
      const vStationList: StationRow[] = timed.map((s, k) => ({
        stationName: s.stationName,
        STA: istClock(s.sta),
        STD: istClock(s.std),
        ETA: istClock(s.eta),
        ETD: istClock(s.etd),
        isHighlighted: k === index,
      }));
      return { vStationList, trainCurrentPosition: position };
    },
  );
}
