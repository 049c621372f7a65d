import { Rng, hash32 } from './prng';
import { mobileNumber, personName } from './names';
import type { Reference, Train } from './reference';
import type { TteRow } from './reference/staff';

/**
 * One train run's rows. The complete form is a pure function of (scale, train, start date); a run that has
 * not been charted yet (start date after 'today') is the booking-phase view of the same data: the same PNRs
 * and passengers as booked, no chart, no on-board activity.
 */
export type Row = Record<string, unknown>;

export interface RunRows {
  train_runs: Row[];
  run_coaches: Row[];
  beats: Row[];
  pnrs: Row[];
  passengers: Row[];
  checking_events: Row[];
  vacant_berths: Row[];
  reallocations: Row[];
  efts: Row[];
  digital_payments: Row[];
  tdrs: Row[];
  coach_deficiencies: Row[];
  complaints: Row[];
  dynamic_fares: Row[];
  onboard_staff: Row[];
  dropped_etickets: Row[];
}

/** Load order: parents before children. */
export const RUN_TABLES: (keyof RunRows)[] = [
  'train_runs',
  'run_coaches',
  'beats',
  'pnrs',
  'passengers',
  'checking_events',
  'vacant_berths',
  'reallocations',
  'efts',
  'digital_payments',
  'tdrs',
  'coach_deficiencies',
  'complaints',
  'dynamic_fares',
  'onboard_staff',
  'dropped_etickets',
];

export function emptyRunRows(): RunRows {
  const rows = {} as RunRows;
  for (const t of RUN_TABLES) rows[t] = [];
  return rows;
}

const DAY_MS = 86_400_000;
const MIN_MS = 60_000;
const IST_OFFSET_MIN = 330;
const EPOCH_2000 = Date.UTC(2000, 0, 1);

export function dayIndex(date: string): number {
  const [y, m, d] = date.split('-').map((x) => Number.parseInt(x, 10)) as [number, number, number];
  return Math.round((Date.UTC(y, m - 1, d) - EPOCH_2000) / DAY_MS);
}

export function dateOfIndex(idx: number): string {
  return new Date(EPOCH_2000 + idx * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfIndex(dayIndex(date) + days);
}

/** Monday = 0 .. Sunday = 6, matching trains.run_days. */
export function weekdayMon0(date: string): number {
  return (new Date(EPOCH_2000 + dayIndex(date) * DAY_MS).getUTCDay() + 6) % 7;
}

export function runsOn(train: Train, date: string): boolean {
  return train.row.run_days[weekdayMon0(date)] === 'Y';
}

export function runIdOf(trainNo: string, date: string): number {
  return dayIndex(date) * 100000 + Number.parseInt(trainNo, 10);
}

const iso = (ms: number): string => new Date(ms).toISOString();
const pad = (n: number, w: number): string => String(n).padStart(w, '0');

// Berth layouts by class: position within a bay/row -> berth type.
const LAYOUT: Record<string, string[]> = {
  '1A': ['LB', 'UB', 'LB', 'UB'],
  '2A': ['LB', 'UB', 'LB', 'UB', 'SL', 'SU'],
  '3A': ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  '3E': ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  SL: ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  CC: ['WS', 'MS', 'AS', 'AS', 'WS'],
  EC: ['WS', 'AS', 'AS', 'WS'],
  '2S': ['WS', 'MS', 'AS', 'AS', 'MS', 'WS'],
};

export function berthType(cls: string, berthNo: number): string {
  const layout = LAYOUT[cls] ?? LAYOUT.SL ?? [];
  return layout[(berthNo - 1) % layout.length] ?? 'LB';
}

// Rupees per km (roughly the published base fares) and the minimum charge per class.
const RATE: Record<string, number> = { '1A': 3.4, '2A': 2.0, '3A': 1.45, '3E': 1.3, SL: 0.55, CC: 1.2, EC: 2.4, '2S': 0.35 };
const MIN_FARE: Record<string, number> = { '1A': 1200, '2A': 700, '3A': 500, '3E': 450, SL: 180, CC: 300, EC: 600, '2S': 60 };
const AC = new Set(['1A', '2A', '3A', '3E', 'CC', 'EC']);
const RAC_BERTHS: Record<string, number> = { SL: 4, '3A': 2, '3E': 2, '2A': 1 };

function fareFor(cls: string, km: number, premium: boolean): number {
  const base = Math.max(MIN_FARE[cls] ?? 200, km * (RATE[cls] ?? 1)) * (premium ? 1.3 : 1) + (AC.has(cls) ? 60 : 20);
  return Math.round(base / 5) * 5;
}

/** 10-digit PNR: a PRS region digit and an affine scramble of (day, train slot, sequence) - unique and stable. */
function pnrOf(regionDigit: number, day: number, trainIdx: number, seq: number): string {
  const n = (((day % 5000) * 100 + trainIdx) * 2000 + seq) % 1_000_000_000;
  const scrambled = (n * 7_654_321 + 123_456_789) % 1_000_000_000;
  return `${regionDigit}${pad(scrambled, 9)}`;
}

/** Share of passengers on board (confirmed, staying to their destination) who swap berths, per run on average. */
const SWAP_SHARE = 0.004;

/**
 * Share of runs whose TTE makes one allotment of an NT passenger's berth without waiting for the NT grace.
 * About as many anomalies as the generator made by accident before allotments respected the grace (8 of 122
 * allotments on the tiny seed's month then, 6 now), so the AllocationException report keeps finding some.
 */
const HASTY_RUN_SHARE = 0.4;

/**
 * Whether the run makes one deliberate allotment within the NT grace (when it has an NT berth to allot early
 * at all). A pure function of (scale, run), independent of the run's random stream: tests use it to tell the
 * deliberate anomalies from mistakes.
 */
export function isHastyAllotmentRun(scale: string, runId: number): boolean {
  return hash32(`${scale}|hasty-allotment|${runId}`) / 4294967296 < HASTY_RUN_SHARE;
}

const PNR_REGION: Record<string, number> = { NR: 2, NCR: 2, WR: 8, CR: 8, SR: 4, SCR: 4, ER: 6, ECR: 6, WCR: 2 };

interface Segment {
  f: number;
  t: number;
}

interface Psgn extends Segment {
  row: Row;
  coach: string | null;
  berth: number | null;
  cls: string;
  status: string; // current status after charting
  pnr: string;
  name: string;
  fare: number;
}

interface Vacancy extends Segment {
  coach: string;
  berth: number;
  cls: string;
  reason: 'NT' | 'CANCELLED' | 'UNSOLD' | 'GOT_DOWN';
  at: number; // when it became known (ms)
  freeAt?: number; // earliest time it may go to someone else (NT: after the mark and the grace); default `at`
}

interface Beat {
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

const COMPLAINTS: [string, string, number][] = [
  ['Coach - Cleanliness', 'Toilets', 4],
  ['Coach - Cleanliness', 'Cockroach / Rodents', 6],
  ['Electrical Equipment', 'Fans / Lights', 4],
  ['Electrical Equipment', 'Charging Points', 6],
  ['Water Availability', 'Water not available in toilet', 3],
  ['Catering & Vending Services', 'Overcharging', 12],
  ['Catering & Vending Services', 'Food Quality', 12],
  ['Bed Roll', 'Dirty / Torn', 6],
  ['Staff Behaviour', 'Misbehaviour by staff', 24],
  ['Security', 'Unauthorised passengers', 2],
  ['Medical Assistance', 'Passenger unwell', 1],
  ['Coach - Maintenance', 'Window / Door', 8],
  ['Air Conditioner', 'Not working', 4],
];

const DEFICIENCIES: [string, string[]][] = [
  ['WATER', ['No water in toilets', 'Wash basin tap leaking', 'Water tank empty']],
  ['ELECTRICAL', ['Berth light not working', 'Mobile charging point dead', 'Fan not working']],
  ['AC', ['AC not cooling', 'AC vent leaking', 'Temperature control faulty']],
  ['FITTINGS', ['Window shutter broken', 'Ladder loose', 'Door latch broken', 'Berth cushion torn']],
  ['BEDROLL', ['Bedroll not supplied', 'Blanket dirty', 'Short supply of linen']],
  ['CLEANLINESS', ['Toilet not cleaned', 'Coach floor dirty', 'Dustbin overflowing']],
];

const STAFF_PREFIX: Record<string, string> = {
  COACH_ATTENDANT: 'CA',
  CATERING: 'IRC',
  RPF: 'RPF',
  ELECTRICIAN: 'EL',
  HOUSEKEEPING: 'OB',
};

export interface RunContext {
  ref: Reference;
  trainIdx: number;
}

/**
 * Generates one run. `charted` is false for runs after 'today' (booking phase).
 */
export function generateRun(ctx: RunContext, train: Train, date: string, charted: boolean): RunRows {
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

  // ---- Bookings ---------------------------------------------------------------------------------------
  const occupancy = rng.around(0.95, 0.07, 0.84, 1.05);
  const psgns: Psgn[] = [];
  const vacancies: Vacancy[] = [];
  const racNo = new Map<string, number>();
  const wlNo = new Map<string, number>();
  const soldByClass = new Map<string, number>();
  const capByClass = new Map<string, number>();
  let pnrSeq = 0;
  const region = PNR_REGION[t.zone_code] ?? 1;
  const nextPnr = (): string => pnrOf(region, day, ctx.trainIdx, ++pnrSeq);

  const makePnr = (cls: string, seg: Segment, quota: string): { pnr: string; row: Row; mobile: string } => {
    const pnr = nextPnr();
    const tatkal = quota === 'TQ' || quota === 'PT';
    // Tatkal opens the day before the journey at 10:00 (AC) or 11:00 (non-AC) IST.
    const bookedAt = tatkal
      ? EPOCH_2000 + (day - 1) * DAY_MS + ((AC.has(cls) ? 600 : 660) - IST_OFFSET_MIN + rng.int(0, 90)) * MIN_MS
      : depMs - rng.int(6 * 60, 120 * 1440) * MIN_MS;
    const mobile = mobileNumber(rng);
    const row: Row = {
      pnr,
      run_id: runId,
      class: cls,
      quota,
      from_station: stationAt(seg.f),
      to_station: stationAt(seg.t),
      booked_at: iso(Math.min(bookedAt, chart1 - 10 * MIN_MS)),
      channel: rng.chance(0.82) ? 'E_TICKET' : 'COUNTER',
      total_fare: 0,
      ...scope,
    };
    return { pnr, row, mobile };
  };

  const pickQuota = (cls: string): string =>
    rng.weighted([
      ['GN', 70],
      ['TQ', cls === '1A' ? 0 : 14],
      ['PT', cls === '1A' ? 0 : 3],
      ['LD', cls === 'SL' || cls === '3A' ? 3 : 0],
      ['SS', 5],
      ['HP', 1],
      ['DF', 1],
      ['FT', cls === '1A' || cls === '2A' ? 2 : 0],
      ['YU', cls === 'SL' ? 1 : 0],
    ] as const);

  const addPassenger = (
    pnrInfo: { pnr: string; row: Row; mobile: string },
    no: number,
    cls: string,
    seg: Segment,
    coach: string | null,
    berth: number | null,
    bookingStatus: string,
    status: string,
    familyName: string | null,
  ): Psgn => {
    const quota = String(pnrInfo.row.quota);
    const gender = quota === 'LD' ? 'F' : rng.weighted([['M', 56], ['F', 43], ['T', 1]] as const);
    const age = quota === 'SS' ? rng.int(gender === 'F' ? 58 : 60, 84) : rng.weighted([[rng.int(5, 11), 8], [rng.int(12, 25), 22], [rng.int(26, 45), 45], [rng.int(46, 59), 17], [rng.int(60, 80), 8]] as const);
    let name = personName(rng, gender === 'T' ? 'T' : gender);
    if (familyName && rng.chance(0.7)) name = `${name.split(' ')[0] ?? name} ${familyName}`;
    const fare = Math.round(fareFor(cls, kmAt(seg.t) - kmAt(seg.f), premium) * (quota === 'TQ' || quota === 'PT' ? 1.3 : 1));
    pnrInfo.row.total_fare = Number(pnrInfo.row.total_fare) + fare;
    const row: Row = {
      psgn_id: runId * 10000 + psgns.length + 1,
      pnr: pnrInfo.pnr,
      run_id: runId,
      psgn_no: no,
      name,
      age,
      gender,
      mobile_no: pnrInfo.mobile,
      class: cls,
      quota,
      booking_status: bookingStatus,
      current_status: status,
      coach_id: coach,
      berth_no: berth,
      berth_type: berth === null ? null : berthType(cls, berth),
      from_station: stationAt(seg.f),
      to_station: stationAt(seg.t),
      fare,
      mark: null,
      marked_at: null,
      marked_by: null,
      ...scope,
      lobby_code: null,
    };
    const p: Psgn = { row, coach, berth, cls, status, pnr: pnrInfo.pnr, name, fare, f: seg.f, t: seg.t };
    psgns.push(p);
    return p;
  };

  const bookedStatusForCnf = (quota: string): string => {
    if (quota === 'TQ' || quota === 'PT') return rng.chance(0.72) ? 'CNF' : `TQWL ${rng.int(1, 40)}`;
    return rng.weighted([
      ['CNF', 74],
      [`RAC ${rng.int(1, 30)}`, 8],
      [`GNWL ${rng.int(1, 80)}`, 12],
      [`RLWL ${rng.int(1, 20)}`, 3],
      [`PQWL ${rng.int(1, 15)}`, 3],
    ] as const);
  };

  // Seat each coach: slots are (berth, segment) pairs sold; consecutive slots with the same segment share a PNR.
  for (const c of train.consist) {
    const cls = c.class;
    capByClass.set(cls, (capByClass.get(cls) ?? 0) + c.capacity);
    const racLeft = { n: occupancy > 0.96 ? (RAC_BERTHS[cls] ?? 0) : 0 };
    const slots: { berth: number; seg: Segment; rac: boolean }[] = [];
    for (let b = 1; b <= c.capacity; b++) {
      const type = berthType(cls, b);
      if (type === 'SL' && racLeft.n > 0) {
        racLeft.n--;
        slots.push({ berth: b, seg: { f: 0, t: last }, rac: true }, { berth: b, seg: { f: 0, t: last }, rac: true });
        continue;
      }
      if (!rng.chance(Math.min(0.995, occupancy))) {
        vacancies.push({ coach: c.coach_id, berth: b, cls, f: 0, t: last, reason: 'UNSOLD', at: chart2 });
        continue;
      }
      const pattern = last < 2 ? 'full' : rng.weighted([['full', 72], ['split', 16], ['head', 6], ['tail', 6]] as const);
      if (pattern === 'full') slots.push({ berth: b, seg: { f: 0, t: last }, rac: false });
      else {
        const k = rng.int(1, last - 1);
        if (pattern !== 'tail') slots.push({ berth: b, seg: { f: 0, t: k }, rac: false });
        else vacancies.push({ coach: c.coach_id, berth: b, cls, f: 0, t: k, reason: 'UNSOLD', at: chart2 });
        if (pattern !== 'head') slots.push({ berth: b, seg: { f: k, t: last }, rac: false });
        else vacancies.push({ coach: c.coach_id, berth: b, cls, f: k, t: last, reason: 'UNSOLD', at: chart2 });
      }
    }
    // Group slots by segment (a party travels together, on neighbouring berths); RAC slots last.
    slots.sort((a, b) => Number(a.rac) - Number(b.rac) || a.seg.f - b.seg.f || a.seg.t - b.seg.t || a.berth - b.berth);
    let i = 0;
    while (i < slots.length) {
      const first = slots[i];
      if (!first) break;
      const size = rng.weighted([[1, 34], [2, 30], [3, 13], [4, 13], [5, 5], [6, 5]] as const);
      const quota = first.rac ? 'GN' : pickQuota(cls);
      const info = makePnr(cls, first.seg, quota);
      out.pnrs.push(info.row);
      const family = rng.chance(0.6) ? (personName(rng, 'M').split(' ')[1] ?? null) : null;
      let no = 0;
      while (i < slots.length && no < size) {
        const s = slots[i];
        if (!s || s.rac !== first.rac || s.seg.f !== first.seg.f || s.seg.t !== first.seg.t) break;
        no++;
        i++;
        soldByClass.set(cls, (soldByClass.get(cls) ?? 0) + 1);
        if (s.rac) {
          const n = (racNo.get(cls) ?? 0) + 1;
          racNo.set(cls, n);
          const booked = rng.chance(0.5) ? `RAC ${n + rng.int(0, 20)}` : `GNWL ${n + rng.int(10, 60)}`;
          addPassenger(info, no, cls, s.seg, c.coach_id, s.berth, booked, `RAC ${n}`, family);
        } else {
          const booked = bookedStatusForCnf(quota);
          const cancelled = rng.chance(0.015);
          addPassenger(info, no, cls, s.seg, c.coach_id, s.berth, booked, cancelled ? 'CAN' : 'CNF', family);
        }
      }
    }
  }

  // Demand beyond capacity: waitlist left after charting. Counter tickets stay on the chart as WL;
  // fully waitlisted e-tickets are dropped at charting.
  const dropped: { pnr: string; no: number; name: string; status: string; cls: string; seg: Segment }[] = [];
  for (const [cls, cap] of capByClass) {
    if (occupancy < 0.93 || cls === '1A') continue;
    const extra = Math.round(cap * rng.around(0.05, 0.03, 0, 0.1));
    let made = 0;
    while (made < extra) {
      const size = rng.weighted([[1, 45], [2, 35], [3, 12], [4, 8]] as const);
      const seg = { f: 0, t: last };
      const counter = rng.chance(0.3);
      if (counter) {
        const info = makePnr(cls, seg, 'GN');
        info.row.channel = 'COUNTER';
        out.pnrs.push(info.row);
        for (let no = 1; no <= size; no++) {
          const n = (wlNo.get(cls) ?? 0) + 1;
          wlNo.set(cls, n);
          addPassenger(info, no, cls, seg, null, null, `GNWL ${n + rng.int(20, 90)}`, `WL ${n}`, null);
        }
      } else {
        const pnr = nextPnr();
        for (let no = 1; no <= size; no++) {
          const n = (wlNo.get(cls) ?? 0) + 1;
          wlNo.set(cls, n);
          dropped.push({ pnr, no, name: personName(rng, rng.chance(0.55) ? 'M' : 'F'), status: `GNWL ${n + rng.int(20, 90)}`, cls, seg });
        }
      }
      made += size;
    }
  }

  // Dynamic (flexi) fare: +10% per 10% of berths sold, capped at 1.5x; not for 1A/EC.
  if (t.dynamic_fare) {
    for (const [cls, cap] of capByClass) {
      if (cls === '1A' || cls === 'EC') continue;
      const pct = Math.min(100, ((soldByClass.get(cls) ?? 0) / cap) * 100);
      const slab = Math.min(5, Math.floor(pct / 10));
      const base = fareFor(cls, kmAt(last), premium);
      out.dynamic_fares.push({
        run_id: runId,
        class: cls,
        base_fare: base,
        last_fare: Math.round(base * (1 + slab / 10)),
        slab,
        share_sold_pct: Math.round(pct * 100) / 100,
        ...scope,
      });
    }
  }

  if (!charted) {
    // Booking phase: the chart is not prepared, so the current status is the booked one and only
    // confirmed bookings hold a berth.
    for (const p of psgns) {
      const booked = String(p.row.booking_status);
      p.row.current_status = booked;
      if (booked !== 'CNF') {
        p.row.coach_id = null;
        p.row.berth_no = null;
        p.row.berth_type = null;
      }
    }
    out.passengers = psgns.map((p) => p.row);
    return out;
  }

  // ---- Beats: TTEs from the owning division's lobbies, each working a block of coaches -------------------
  const coaches = train.consist.map((c) => c.coach_id);
  const classOf = new Map(train.consist.map((c) => [c.coach_id, c.class]));
  const unmannedCount =
    coaches.length <= 2 ? (rng.chance(0.25) ? 1 : 0) : rng.weighted([[0, 50], [1, 30], [2, 12], [Math.ceil(coaches.length * 0.25), 8]] as const);
  const unmanned = new Set(rng.shuffle(coaches).slice(0, unmannedCount));
  const manned = coaches.filter((c) => !unmanned.has(c));
  const beatCount = Math.min(manned.length, manned.length >= 6 ? rng.weighted([[2, 40], [3, 60]] as const) : 2);
  const roster = ref.staff.ttesByDiv.get(t.div_code) ?? [];
  const slot = ref.slotInDivision.get(t.train_no) ?? 0;
  const trainsInDiv = ref.trainsInDivision.get(t.div_code) ?? 1;
  const beats: Beat[] = [];
  const beatOfCoach = new Map<string, Beat>();
  for (let b = 0; b < beatCount; b++) {
    const group = manned.slice(Math.floor((b * manned.length) / beatCount), Math.floor(((b + 1) * manned.length) / beatCount));
    // Roster: consecutive days and sister trains take different TTEs, so nobody works two trains at once.
    const tte = roster[(day * trainsInDiv * 3 + slot * 3 + b) % Math.max(1, roster.length)];
    if (!tte || group.length === 0) continue;
    const beatId = runId * 10 + (b + 1);
    const device = rng.chance(0.03) ? null : (ref.staff.deviceOf.get(tte.tte_id) ?? null);
    const twr = rng.weighted([['SUBMITTED', 87], ['NOT_SUBMITTED', 9], ['EMPTY', 4]] as const);
    const signOn = depMs - rng.int(45, 90) * MIN_MS;
    const signOff = endMs + rng.int(15, 45) * MIN_MS;
    const beat: Beat = {
      id: beatId,
      no: b + 1,
      tte,
      device,
      coaches: group,
      signOnId: `SO${tte.lobby_code}${ymd}${pad(Number.parseInt(t.train_no, 10) % 100000, 5)}${b + 1}`,
      tripId: `${pad(day, 5)}${t.train_no}${b + 1}`,
      active: device !== null && twr !== 'EMPTY',
      badSync: rng.chance(0.05),
    };
    beats.push(beat);
    for (const c of group) beatOfCoach.set(c, beat);
    out.beats.push({
      beat_id: beatId,
      run_id: runId,
      beat_no: b + 1,
      tte_id: tte.tte_id,
      device_id: device,
      ...scope,
      lobby_code: tte.lobby_code,
      from_station: t.src_station,
      to_station: t.dest_station,
      coaches: group,
      sign_on_id: beat.signOnId,
      trip_id: beat.tripId,
      sign_on_at: iso(signOn),
      sign_off_at: twr === 'NOT_SUBMITTED' && rng.chance(0.5) ? null : iso(signOff),
      twr_status: twr,
      twr_submitted_at: twr === 'NOT_SUBMITTED' ? null : iso(signOff + rng.int(5, 180) * MIN_MS),
    });
  }

  // ---- On board: marking, shifting, getting down ---------------------------------------------------------
  interface Ev {
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
  const events: Ev[] = [];
  // The TTE marks on the HHT only once the chart is on it, and finishes before the destination (sign-off follows).
  const lastMarkAt = endMs - 5 * MIN_MS;
  const ntRate = rng.around(0.065, 0.015, 0.04, 0.09);
  // First NT mark on a shared RAC berth, by coach|berth.
  const sharedRacNt = new Map<string, number>();
  const gotDown = new Set<Psgn>();
  for (const p of psgns) {
    if (p.coach === null || p.status === 'CAN') continue;
    const beat = beatOfCoach.get(p.coach);
    if (beat) p.row.lobby_code = beat.tte.lobby_code;
    if (!beat?.active) continue;
    const at = Math.min(lastMarkAt, Math.max(atStop(p.f, 'dep'), download) + rng.int(8, p.f === 0 ? 150 : 60) * MIN_MS);
    const nt = rng.chance(ntRate);
    events.push({ beat, psgn: p, type: nt ? 'NT' : 'O', coach: p.coach, berth: p.berth, station: stationAt(p.f), at });
    p.row.mark = nt ? 'NT' : 'O';
    p.row.marked_at = iso(at);
    p.row.marked_by = beat.tte.tte_id;
    if (nt && p.berth !== null) {
      // A shared RAC berth frees up only when both RAC holders are absent.
      const key = `${p.coach}|${p.berth}`;
      let known = at;
      if (p.status.startsWith('RAC')) {
        const first = sharedRacNt.get(key);
        if (first === undefined) {
          sharedRacNt.set(key, at);
          continue;
        }
        // Free once both are marked, whichever mark came later on the device.
        known = Math.max(first, at);
      }
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: p.f, t: p.t, reason: 'NT', at: known, freeAt: Math.max(known, ntGraceEnd(p.f)) });
    } else if (!nt && p.t - p.f >= 2 && rng.chance(0.008) && p.berth !== null && p.status === 'CNF') {
      // A confirmed passenger (a RAC one shares the berth, and would still be waiting for one) gets down at a
      // later stop reached after the mark, never before being seen on board.
      let first = p.f + 1;
      while (first < p.t && atStop(first, 'arr') <= at) first++;
      if (first > p.t - 1) continue;
      const k = rng.int(first, p.t - 1);
      const downAt = atStop(k, 'arr');
      gotDown.add(p);
      events.push({ beat, psgn: p, type: 'GOT_DOWN', coach: p.coach, berth: p.berth, station: stationAt(k), at: downAt });
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: k, t: p.t, reason: 'GOT_DOWN', at: downAt });
    }
  }
  for (const p of psgns) {
    if (p.status === 'CAN' && p.coach !== null && p.berth !== null) {
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: p.f, t: p.t, reason: 'CANCELLED', at: chart2 });
    }
  }
  // Berth swaps on request (e.g. a senior citizen to a lower berth), inside one coach, among passengers on board
  // who stay to their destination. Own stream: how many swaps a run gets leaves the rest of the run unchanged.
  const swapRng = new Rng(`${ref.scale}|${t.train_no}|${date}|swaps`);
  const present = psgns.filter((p) => p.row.mark === 'O' && p.status === 'CNF' && p.coach !== null && !gotDown.has(p));
  // 0.4 % of them on average: the whole part, plus one more with the fraction as its chance, so short runs
  // (under 250 present) get a swap now and then instead of never.
  const expectedSwaps = present.length * SWAP_SHARE;
  const swaps = Math.floor(expectedSwaps) + (swapRng.chance(expectedSwaps - Math.floor(expectedSwaps)) ? 1 : 0);
  for (let s = 0; s < swaps; s++) {
    const a = swapRng.pick(present);
    const others = present.filter((q) => q !== a && q.coach === a.coach && q.f === a.f && q.t === a.t);
    if (others.length === 0) continue;
    const b = swapRng.pick(others);
    const beat = a.coach ? beatOfCoach.get(a.coach) : undefined;
    if (!beat || a.berth === null || b.berth === null) continue;
    const marked = Math.max(Date.parse(String(a.row.marked_at)), Date.parse(String(b.row.marked_at)));
    const at = Math.min(endMs - MIN_MS, marked + swapRng.int(5, 40) * MIN_MS);
    events.push({ beat, psgn: a, type: 'SHIFTED', coach: a.coach, berth: a.berth, newCoach: b.coach, newBerth: b.berth, station: null, at });
    events.push({ beat, psgn: b, type: 'SHIFTED', coach: b.coach, berth: b.berth, newCoach: a.coach, newBerth: a.berth, station: null, at });
    const ab = a.berth;
    a.berth = b.berth;
    b.berth = ab;
    for (const p of [a, b]) {
      p.row.berth_no = p.berth;
      p.row.berth_type = berthType(p.cls, p.berth ?? 1);
    }
  }

  // ---- Reallocation: RAC first, then waitlist, onto vacancies in manned coaches of the same class ---------
  const candidates = [
    ...psgns.filter((p) => p.status.startsWith('RAC') && p.row.mark === 'O'),
    ...psgns.filter((p) => p.status.startsWith('WL') && rng.chance(0.6)),
  ];
  let reallocSeq = 0;
  const reallocRows: { row: Row; p: Psgn; beat: Beat }[] = [];
  // Latest RAC allotment per class: waitlisted passengers come after every RAC passenger of their class.
  const racServedUntil = new Map<string, number>();
  let hastyLeft = isHastyAllotmentRun(ref.scale, runId) ? 1 : 0;
  for (const p of candidates) {
    const idx = vacancies.findIndex(
      (v) => v.cls === p.cls && v.reason !== 'GOT_DOWN' && v.f <= p.f && v.t >= p.t && beatOfCoach.get(v.coach)?.active === true,
    );
    if (idx < 0) continue;
    const v = vacancies[idx];
    const beat = v ? beatOfCoach.get(v.coach) : undefined;
    if (!v || !beat) continue;
    vacancies.splice(idx, 1);
    if (v.t > p.t) vacancies.push({ ...v, f: p.t });
    const rac = p.status.startsWith('RAC');
    const ownMark = p.row.marked_at === null ? 0 : Date.parse(String(p.row.marked_at));
    const lagMin = rng.int(10, 50);
    const ready = Math.max(atStop(p.f, 'dep'), download, ownMark, rac ? 0 : (racServedUntil.get(p.cls) ?? 0));
    // After the holder's NT mark and grace. On a hasty run the TTE allots one NT berth without waiting for the
    // grace: right after the NT mark, or (the mark coming too late for that) before it: an
    // ALLOTTED_WITHIN_NT_GRACE anomaly.
    const freeAt = v.freeAt ?? v.at;
    let at = Math.max(ready, freeAt) + lagMin * MIN_MS;
    if (hastyLeft > 0 && v.reason === 'NT') {
      const quick = (1 + (lagMin % 5)) * MIN_MS;
      const afterMark = Math.max(ready, v.at) + quick;
      const hasty = afterMark < freeAt ? afterMark : ready + quick;
      if (hasty < freeAt) {
        at = hasty;
        hastyLeft--;
      }
    }
    if (rac) racServedUntil.set(p.cls, Math.max(at, racServedUntil.get(p.cls) ?? 0));
    events.push({ beat, psgn: p, type: 'ALLOTTED', coach: p.coach, berth: p.berth, newCoach: v.coach, newBerth: v.berth, station: stationAt(p.f), at });
    const row: Row = {
      realloc_id: runId * 1000 + ++reallocSeq,
      run_id: runId,
      psgn_id: p.row.psgn_id,
      pnr: p.pnr,
      prev_status: p.status,
      coach_id: v.coach,
      berth_no: v.berth,
      from_station: stationAt(p.f),
      to_station: stationAt(p.t),
      allotted_at: iso(at),
      tte_id: beat.tte.tte_id,
      eft_no: null,
      ...scope,
      lobby_code: beat.tte.lobby_code,
    };
    reallocRows.push({ row, p, beat });
    out.reallocations.push(row);
    p.coach = v.coach;
    p.berth = v.berth;
    p.row.coach_id = v.coach;
    p.row.berth_no = v.berth;
    p.row.berth_type = berthType(p.cls, v.berth);
    p.row.lobby_code = beat.tte.lobby_code;
    if (p.row.mark === null) {
      p.row.mark = 'O';
      p.row.marked_at = iso(at);
      p.row.marked_by = beat.tte.tte_id;
    }
  }

  // ---- Vacant berths left, some released to PRS for the next remote location -----------------------------
  const seen = new Set<string>();
  for (const v of vacancies) {
    const key = `${v.coach}|${v.berth}|${v.f}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const beat = beatOfCoach.get(v.coach);
    const release = beat?.active === true && v.reason !== 'GOT_DOWN' && rng.chance(0.4);
    out.vacant_berths.push({
      run_id: runId,
      coach_id: v.coach,
      berth_no: v.berth,
      berth_type: berthType(v.cls, v.berth),
      class: v.cls,
      from_station: stationAt(v.f),
      to_station: stationAt(v.t),
      reason: v.reason,
      released_to_prs: release,
      released_at: release ? iso((v.freeAt ?? v.at) + rng.int(5, 45) * MIN_MS) : null,
      released_by: release && beat ? beat.tte.tte_id : null,
      rebooked: release && rng.chance(0.35),
      ...scope,
      lobby_code: beat?.tte.lobby_code ?? null,
    });
  }

  // ---- EFTs and digital payments ---------------------------------------------------------------------------
  let eftSeq = 0;
  let txnSeq = 0;
  const issueEft = (
    beat: Beat,
    reason: string,
    p: { pnr: string | null; name: string; coach: string | null; f: number; t: number },
    cls: string,
    notBefore = 0,
  ): string => {
    const eftNo = `EF${t.train_no}${ymd}${pad(++eftSeq, 3)}`;
    const km = Math.max(50, kmAt(p.t) - kmAt(p.f));
    const fullFare = fareFor(cls, km, premium);
    let fare: number;
    let charge: number;
    if (reason === 'TICKETLESS' || reason === 'IRREGULAR') {
      fare = fullFare;
      charge = Math.max(250, fullFare); // penalty: equal to the fare, at least Rs 250
    } else if (reason === 'UPGRADE') {
      fare = Math.max(150, Math.round((fareFor('2A', km, premium) - fareFor(cls, km, premium)) / 5) * 5);
      charge = 250;
    } else {
      fare = Math.max(100, Math.round(fullFare * (reason === 'EXTENSION' ? 0.4 : 0.3) / 5) * 5);
      charge = 250;
    }
    // On an HHT only once the chart is on it; a berth charge only once the berth is allotted.
    const from = Math.max(atStop(p.f, 'dep'), beat.device === null ? 0 : download, notBefore);
    const issued = Math.min(endMs - 10 * MIN_MS, from + rng.int(20, 180) * MIN_MS);
    const mode = beat.device === null ? 'CASH' : rng.weighted([['CASH', 50], ['UPI', 35], ['CARD', 15]] as const);
    const synced = beat.device === null ? null : rng.chance(0.02) ? null : issued + rng.int(1, beat.badSync ? 600 : 30) * MIN_MS;
    const total = fare + charge;
    out.efts.push({
      eft_no: eftNo,
      run_id: runId,
      beat_id: beat.id,
      trip_id: beat.tripId,
      tte_id: beat.tte.tte_id,
      device_id: beat.device,
      pnr: p.pnr,
      psgn_name: p.name,
      coach_id: p.coach,
      from_station: stationAt(p.f),
      to_station: stationAt(p.t),
      reason,
      excess_fare: fare,
      excess_charge: charge,
      total,
      payment_mode: mode,
      issued_at: iso(issued),
      synced_at: synced === null ? null : iso(synced),
      ...scope,
      lobby_code: beat.tte.lobby_code,
    });
    if (mode !== 'CASH' && beat.device) {
      const outcome = rng.weighted([['SUCCESS', 88], ['RETRY', 7], ['PENDING', 4], ['FAILED', 1]] as const);
      const attempts: ('SUCCESS' | 'FAILED' | 'PENDING')[] =
        outcome === 'RETRY' ? ['FAILED', 'SUCCESS'] : [outcome];
      let at = issued + rng.int(0, 3) * MIN_MS;
      for (const status of attempts) {
        out.digital_payments.push({
          txn_id: `${mode === 'UPI' ? 'UPI' : 'POS'}${ymd}${t.train_no}${pad(++txnSeq, 4)}`,
          eft_no: eftNo,
          amount: total,
          mode,
          status,
          txn_at: iso(at),
          tte_id: beat.tte.tte_id,
          pos_id: `POS${beat.device.slice(3)}`,
          sign_on_id: beat.signOnId,
          ...scope,
          lobby_code: beat.tte.lobby_code,
        });
        at += rng.int(1, 4) * MIN_MS;
      }
    }
    return eftNo;
  };

  const activeBeats = beats.filter((b) => b.device !== null || b.active);
  const workingBeats = activeBeats.length > 0 ? activeBeats : beats;
  // Berth charge on some waitlisted passengers given a berth.
  for (const r of reallocRows) {
    if (String(r.row.prev_status).startsWith('WL') && rng.chance(0.4)) {
      const allotted = Date.parse(String(r.row.allotted_at));
      r.row.eft_no = issueEft(r.beat, 'BERTH_CHARGE', { pnr: r.p.pnr, name: r.p.name, coach: r.p.coach, f: r.p.f, t: r.p.t }, r.p.cls, allotted);
    }
  }
  // Dropped e-ticket holders found on board travel ticketless.
  for (const d of dropped) {
    const found = rng.chance(0.06) && workingBeats.length > 0;
    let eftNo: string | null = null;
    if (found) {
      const beat = rng.pick(workingBeats);
      eftNo = issueEft(beat, 'TICKETLESS', { pnr: d.pnr, name: d.name, coach: rng.pick(beat.coaches), f: d.seg.f, t: d.seg.t }, d.cls);
    }
    out.dropped_etickets.push({
      pnr: d.pnr,
      psgn_no: d.no,
      run_id: runId,
      name: d.name,
      booking_status: d.status,
      class: d.cls,
      from_station: stationAt(d.seg.f),
      to_station: stationAt(d.seg.t),
      dropped_at: iso(chart1),
      found_travelling: found,
      eft_no: eftNo,
      ...scope,
    });
  }
  // Other EFTs: about 1.5% of passengers, at least two per run with a working TTE.
  const onBoard = psgns.filter((p) => p.row.mark === 'O' && p.coach !== null && beatOfCoach.has(p.coach));
  const others = Math.max(workingBeats.length > 0 ? 2 : 0, Math.round(onBoard.length * rng.around(0.015, 0.006, 0.004, 0.03)));
  for (let e = 0; e < others && workingBeats.length > 0; e++) {
    const reason = rng.weighted([['TICKETLESS', 35], ['UPGRADE', 20], ['EXTENSION', 15], ['IRREGULAR', 15], ['BERTH_CHARGE', 15]] as const);
    if (reason === 'TICKETLESS' || onBoard.length === 0) {
      const beat = rng.pick(workingBeats);
      const f = rng.int(0, Math.max(0, last - 1));
      const g = rng.chance(0.5) ? 'M' : 'F';
      const cls = classOf.get(beat.coaches[0] ?? '') ?? 'SL';
      issueEft(beat, 'TICKETLESS', { pnr: null, name: personName(rng, g), coach: rng.pick(beat.coaches), f, t: rng.int(f + 1, last) }, cls);
    } else {
      const p = rng.pick(onBoard);
      const beat = p.coach ? beatOfCoach.get(p.coach) : undefined;
      if (!beat) continue;
      const to = reason === 'EXTENSION' && p.t < last ? rng.int(p.t + 1, last) : p.t;
      issueEft(beat, reason, { pnr: p.pnr, name: p.name, coach: p.coach, f: reason === 'EXTENSION' && p.t < last ? p.t : p.f, t: to }, p.cls);
    }
  }

  // ---- Events: numbered in device-time order; sync delay mostly minutes, some hours, a few pending ---------
  events.sort((a, b) => a.at - b.at);
  events.forEach((e, i) => {
    const roll = rng.next();
    const pending = e.beat.badSync ? roll < 0.15 : roll < 0.004;
    const lag = e.beat.badSync ? rng.int(60, 900) : roll < 0.82 ? rng.int(1, 15) : roll < 0.97 ? rng.int(15, 120) : rng.int(120, 720);
    out.checking_events.push({
      event_id: runId * 100000 + i + 1,
      run_id: runId,
      beat_id: e.beat.id,
      psgn_id: e.psgn?.row.psgn_id ?? null,
      tte_id: e.beat.tte.tte_id,
      device_id: e.beat.device,
      event_type: e.type,
      coach_id: e.coach,
      berth_no: e.berth,
      new_coach_id: e.newCoach ?? null,
      new_berth_no: e.newBerth ?? null,
      station_code: e.station,
      device_time: iso(e.at),
      sync_time: pending ? null : iso(e.at + lag * MIN_MS + rng.int(0, 59) * 1000),
      ...scope,
      lobby_code: e.beat.tte.lobby_code,
    });
  });

  // ---- TDRs: refund claims for absent passengers, AC failure, late running ----------------------------------
  const ntPsgns = psgns.filter((p) => p.row.mark === 'NT');
  const tdrCount = Math.max(1, Math.round(out.pnrs.length * rng.around(0.01, 0.005, 0.002, 0.02)));
  for (let k = 1; k <= tdrCount; k++) {
    const reason = rng.weighted([
      ['NOT_TRAVELLED', ntPsgns.length > 0 ? 45 : 0],
      ['PARTY_PARTIALLY_TRAVELLED', ntPsgns.length > 0 ? 15 : 0],
      ['AC_FAILURE', 12],
      ['TRAIN_LATE', delay > 180 ? 60 : 0],
      ['TRAVELLED_IN_LOWER_CLASS', 6],
      ['OTHER', 5],
    ] as const);
    const p = reason === 'NOT_TRAVELLED' || reason === 'PARTY_PARTIALLY_TRAVELLED' ? rng.pick(ntPsgns) : rng.pick(psgns);
    const beat = p.coach ? beatOfCoach.get(p.coach) : undefined;
    const status = rng.weighted([['FILED', 20], ['ATTESTED', 30], ['REFUNDED', 40], ['REJECTED', 10]] as const);
    const remark =
      reason === 'NOT_TRAVELLED' ? `Berth marked NT at ${p.row.from_station}` : reason === 'AC_FAILURE' ? 'AC not working, GC issued' : reason === 'TRAIN_LATE' ? `Train late by ${delay} min` : null;
    out.tdrs.push({
      tdr_id: `TDR${ymd}${t.train_no}${pad(k, 3)}`,
      pnr: p.pnr,
      run_id: runId,
      reason,
      coach_id: p.coach,
      class: p.cls,
      filed_at: iso(chart2 + rng.int(10, 72 * 60) * MIN_MS),
      certificate_no: reason === 'AC_FAILURE' ? `GC${ymd}${pad(k, 4)}` : reason === 'TRAVELLED_IN_LOWER_CLASS' ? (out.efts[0]?.eft_no as string | undefined) ?? null : null,
      tte_remark: status === 'FILED' || !beat ? null : remark,
      status,
      refund_amount: status === 'REFUNDED' ? Math.round(p.fare * rng.around(0.7, 0.2, 0.25, 1) / 5) * 5 : null,
      ...scope,
    });
  }

  // ---- Coach deficiencies reported by TTEs ---------------------------------------------------------------
  const defCount = rng.weighted([[0, 20], [1, 35], [2, 25], [3, 12], [4, 8]] as const);
  for (let k = 1; k <= defCount && beats.length > 0; k++) {
    const beat = rng.pick(beats);
    const coach = rng.pick(beat.coaches);
    const ac = AC.has(classOf.get(coach) ?? 'SL');
    const [category, descriptions] = rng.pick(DEFICIENCIES.filter(([c]) => ac || c !== 'AC'));
    const stop = rng.int(0, Math.max(0, last - 1));
    const at = atStop(stop, 'dep') + rng.int(5, 90) * MIN_MS;
    const closed = rng.chance(0.7);
    out.coach_deficiencies.push({
      deficiency_id: runId * 100 + k,
      run_id: runId,
      coach_id: coach,
      category,
      description: rng.pick(descriptions),
      station_code: stationAt(stop),
      reported_at: iso(at),
      tte_id: beat.tte.tte_id,
      status: closed ? 'CLOSED' : 'OPEN',
      closed_at: closed ? iso(at + rng.int(60, 36 * 60) * MIN_MS) : null,
      ...scope,
      lobby_code: beat.tte.lobby_code,
    });
  }

  // ---- Rail Madad complaints ---------------------------------------------------------------------------
  const complaintCount = Math.round(psgns.length * rng.around(0.004, 0.002, 0, 0.008));
  // Complaints name the complainant's coach and berth: only passengers holding one complain.
  const seated = psgns.filter((p) => p.coach !== null && p.berth !== null && p.status !== 'CAN');
  for (let k = 1; k <= complaintCount && seated.length > 0; k++) {
    const [category, sub, sla] = rng.pick(COMPLAINTS);
    const p = rng.pick(seated);
    const at = atStop(rng.int(0, Math.max(0, last - 1)), 'dep') + rng.int(10, 120) * MIN_MS;
    const status = rng.weighted([['CLOSED', 60], ['RESOLVED', 30], ['OPEN', 10]] as const);
    const hours = rng.chance(0.8) ? rng.around(sla * 0.6, sla * 0.4, 0.2, sla) : rng.around(sla * 1.8, sla, sla + 0.5, sla * 4);
    out.complaints.push({
      ref_no: `${date.replaceAll('-', '')}${t.train_no}${pad(k, 2)}`,
      run_id: runId,
      category,
      sub_category: sub,
      coach_id: p.coach,
      berth_no: p.berth,
      registered_at: iso(at),
      resolved_at: status === 'OPEN' ? null : iso(at + Math.round(hours * 60) * MIN_MS),
      sla_hours: sla,
      status,
      ...scope,
    });
  }

  // ---- On-board staff --------------------------------------------------------------------------------------
  let staffSeq = 0;
  const staffRow = (type: string, id: string, name: string, mobile: string, list: string[]): void => {
    out.onboard_staff.push({ staff_row_id: runId * 100 + ++staffSeq, run_id: runId, staff_type: type, staff_id: id, name, mobile_no: mobile, coaches: list, ...scope });
  };
  for (const b of beats) staffRow('TTE', b.tte.tte_id, b.tte.name, b.tte.mobile_no, b.coaches);
  const acCoaches = coaches.filter((c) => AC.has(classOf.get(c) ?? 'SL'));
  const sleeperAc = acCoaches.filter((c) => !['CC', 'EC'].includes(classOf.get(c) ?? ''));
  const crew: [string, number, string[]][] = [
    ['COACH_ATTENDANT', Math.ceil(sleeperAc.length / 2), sleeperAc],
    ['CATERING', premium ? rng.int(3, 6) : rng.int(1, 3), coaches],
    ['RPF', rng.int(2, 4), coaches],
    ['ELECTRICIAN', acCoaches.length > 0 ? rng.int(1, 2) : 0, acCoaches],
    ['HOUSEKEEPING', rng.int(2, 3), coaches],
  ];
  for (const [type, count, pool] of crew) {
    for (let k = 0; k < count && pool.length > 0; k++) {
      const share = type === 'COACH_ATTENDANT' ? pool.slice(k * 2, k * 2 + 2) : rng.shuffle(pool).slice(0, Math.min(pool.length, rng.int(2, 6)));
      const person = new Rng(`${ref.scale}|staff|${t.div_code}|${type}|${(slot * 7 + day * 3 + k) % 40}`);
      staffRow(type, `${STAFF_PREFIX[type] ?? 'ST'}${pad(person.int(10000, 99999), 5)}`, personName(person, person.chance(0.8) ? 'M' : 'F'), mobileNumber(person), share);
    }
  }

  out.passengers = psgns.map((p) => p.row);
  return out;
}
