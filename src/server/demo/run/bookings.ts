import { mobileNumber, personName } from '../names';
import { DAY_MS, EPOCH_2000, IST_OFFSET_MIN, MIN_MS, iso, pad } from './calendar';
import type { Psgn, RunBuild, Segment } from './context';
import { AC, RAC_BERTHS, berthType, fareFor } from './fares';
import type { Row } from './rows';

/** 10-digit PNR: a PRS region digit and an affine scramble of (day, train slot, sequence) - unique and stable. */
function pnrOf(regionDigit: number, day: number, trainIdx: number, seq: number): string {
  const n = (((day % 5000) * 100 + trainIdx) * 2000 + seq) % 1_000_000_000;
  const scrambled = (n * 7_654_321 + 123_456_789) % 1_000_000_000;
  return `${regionDigit}${pad(scrambled, 9)}`;
}

const PNR_REGION: Record<string, number> = { NR: 2, NCR: 2, WR: 8, CR: 8, SR: 4, SCR: 4, ER: 6, ECR: 6, WCR: 2 };

/**
 * Bookings as charted: each coach's berths sold by segment in PNR parties (RAC on side-lower berths of full
 * trains), unsold berths as vacancies, the waitlist left after charting (counter tickets on the chart, fully
 * waitlisted e-tickets dropped), and the dynamic fare slabs.
 */
export function seatBookings(run: RunBuild): void {
  const { ctx, train, t, out, rng, runId, day, scope, premium, last, stationAt, kmAt, depMs, chart1, chart2, psgns, vacancies, dropped } = run;
  const occupancy = rng.around(0.95, 0.07, 0.84, 1.05);
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
}
