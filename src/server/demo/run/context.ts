import { Rng } from '../prng';
import type { Reference, Train } from '../reference';
import type { TteRow } from '../reference/staff';
import { DAY_MS, EPOCH_2000, IST_OFFSET_MIN, MIN_MS, dayIndex, iso, runIdOf } from './calendar';
import { emptyRunRows, type Row, type RunRows } from './rows';

export interface RunContext {
  ref: Reference;
  trainIdx: number;
}

export interface Segment {
  f: number;
  t: number;
}

export interface Psgn extends Segment {
  row: Row;
  coach: string | null;
  berth: number | null;
  cls: string;
  status: string; // current status after charting
  pnr: string;
  name: string;
  fare: number;
}

export interface Vacancy extends Segment {
  coach: string;
  berth: number;
  cls: string;
  reason: 'NT' | 'CANCELLED' | 'UNSOLD' | 'GOT_DOWN';
  at: number; // when it became known (ms)
  freeAt?: number; // earliest time it may go to someone else (NT: after the mark and the grace); default `at`
}

export interface Beat {
  id: number;
  no: number;
  tte: TteRow;
  device: string | null;
  coaches: string[];
  signOnId: string;
  tripId: string;
  active: boolean; // the TTE worked the beat on an HHT (events recorded)
  badSync: boolean;
}

/** Something the TTE records on the HHT; numbered and given a sync time once the run is complete. */
export interface Ev {
  beat: Beat;
  psgn: Psgn | null;
  type: 'O' | 'NT' | 'SHIFTED' | 'GOT_DOWN' | 'ALLOTTED';
  coach: string | null;
  berth: number | null;
  newCoach?: string | null;
  newBerth?: number | null;
  station: string | null;
  at: number;
}

/** A fully waitlisted e-ticket passenger dropped at charting. */
export interface DroppedTicket {
  pnr: string;
  no: number;
  name: string;
  status: string;
  cls: string;
  seg: Segment;
}

/**
 * What the steps of one run's generation share: the run's identity and timings (fixed first), the rows made so
 * far and the on-board state each step leaves for the next. One random stream runs through the steps in a fixed
 * order, so the steps must run in that order for the same rows.
 */
export interface RunBuild {
  ctx: RunContext;
  ref: Reference;
  train: Train;
  t: Train['row'];
  date: string;
  out: RunRows;
  rng: Rng;
  runId: number;
  day: number;
  ymd: string;
  scope: { zone_code: string; div_code: string };
  premium: boolean;
  last: number;
  stationAt: (i: number) => string;
  kmAt: (i: number) => number;
  depMs: number;
  delay: number;
  /** A stop's actual time: the timetable plus a share of the final delay. */
  atStop: (i: number, which: 'arr' | 'dep') => number;
  endMs: number;
  /** End of the NT grace of a passenger boarding at stop `f`. */
  ntGraceEnd: (f: number) => number;
  chart1: number;
  chart2: number;
  download: number;
  psgns: Psgn[];
  vacancies: Vacancy[];
  dropped: DroppedTicket[];
  // Set by the beats step (charted runs only).
  coaches: string[];
  classOf: Map<string, string>;
  slot: number;
  beats: Beat[];
  beatOfCoach: Map<string, Beat>;
  events: Ev[];
  gotDown: Set<Psgn>;
  reallocRows: { row: Row; p: Psgn; beat: Beat }[];
}

/** The run's timings (delay, chart times) and its train_runs and run_coaches rows: the first draws of its stream. */
export function startRun(ctx: RunContext, train: Train, date: string, charted: boolean): RunBuild {
  const { ref } = ctx;
  const out = emptyRunRows();
  const t = train.row;
  const rng = new Rng(`${ref.scale}|${t.train_no}|${date}`);
  const runId = runIdOf(t.train_no, date);
  const day = dayIndex(date);
  const ymd = date.replaceAll('-', '').slice(2);
  const scope = { zone_code: t.zone_code, div_code: t.div_code };
  const premium = t.train_type !== 'SUPERFAST' && t.train_type !== 'MAIL_EXP';
  const stops = train.stops;
  const last = stops.length - 1;
  const stationAt = (i: number): string => stops[i]?.station_code ?? t.src_station;
  const kmAt = (i: number): number => stops[i]?.distance_km ?? 0;

  const depMs = EPOCH_2000 + day * DAY_MS + (train.depClock - IST_OFFSET_MIN) * MIN_MS;
  const delay = rng.weighted([[rng.int(0, 15), 70], [rng.int(15, 60), 20], [rng.int(60, 180), 8], [rng.int(180, 540), 2]] as const);
  // Delay builds up along the route: a stop's actual time is the timetable plus a share of the final delay.
  const atStop = (i: number, which: 'arr' | 'dep'): number =>
    depMs + ((which === 'arr' ? train.arrMin[i] : train.depMin[i]) ?? 0) * MIN_MS + Math.round((delay * i) / Math.max(1, last)) * MIN_MS;
  const endMs = atStop(last, 'arr');
  // NT grace (rule): a passenger not found on board may still board further on, so the berth stays theirs until
  // the train leaves the next stop, or for 60 minutes after it left the boarding stop, whichever comes first.
  // The same estimate of actual departures as the AllocationException report (timetable + share of the delay).
  const ntGraceEnd = (f: number): number => Math.min(atStop(Math.min(f + 1, last), 'dep'), atStop(f, 'dep') + 60 * MIN_MS);

  const chart1 = depMs - (240 + rng.int(0, 120)) * MIN_MS;
  const chart2 = depMs - rng.int(5, 30) * MIN_MS;
  const download = chart2 + (rng.chance(0.06) ? rng.int(60, 240) : rng.int(3, 25)) * MIN_MS;
  out.train_runs.push({
    run_id: runId,
    train_no: t.train_no,
    start_date: date,
    ...scope,
    chart1_at: charted ? iso(chart1) : null,
    chart2_at: charted ? iso(chart2) : null,
    hht_download_at: charted ? iso(download) : null,
    delay_min: charted ? delay : 0,
  });
  for (const c of train.consist) {
    out.run_coaches.push({ run_id: runId, coach_id: c.coach_id, seq: c.seq, class: c.class, capacity: c.capacity });
  }
  return {
    ctx, ref, train, t, date, out, rng, runId, day, ymd, scope, premium, last, stationAt, kmAt, depMs, delay, atStop, endMs, ntGraceEnd,
    chart1, chart2, download,
    psgns: [], vacancies: [], dropped: [],
    coaches: [], classOf: new Map(), slot: 0, beats: [], beatOfCoach: new Map(), events: [], gotDown: new Set(), reallocRows: [],
  };
}
