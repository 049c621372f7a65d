import { hash32 } from '../prng';
import { MIN_MS, iso } from './calendar';
import type { RunBuild } from './context';
import { berthType } from './fares';
import type { Row } from './rows';

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

/** Current status of a passenger given a berth on board: confirmed on that coach and berth, e.g. `CNF/B1/23`. */
export function allottedStatus(coach: string, berth: number): string {
  return `CNF/${coach}/${berth}`;
}

/** Reallocation: RAC first, then the waitlist, onto vacancies in manned coaches of the same class. */
export function allotBerths(run: RunBuild): void {
  const { ref, out, rng, runId, scope, stationAt, atStop, download, psgns, vacancies, beatOfCoach, events, reallocRows } = run;
  const candidates = [
    ...psgns.filter((p) => p.status.startsWith('RAC') && p.row.mark === 'O'),
    ...psgns.filter((p) => p.status.startsWith('WL') && rng.chance(0.6)),
  ];
  let reallocSeq = 0;
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
    // The chart's status gives way to the berth now held (as PRS shows it): the previous one stays on the reallocation.
    p.row.current_status = allottedStatus(v.coach, v.berth);
    if (p.row.mark === null) {
      p.row.mark = 'O';
      p.row.marked_at = iso(at);
      p.row.marked_by = beat.tte.tte_id;
    }
  }
}
