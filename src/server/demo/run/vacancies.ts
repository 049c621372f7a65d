import { MIN_MS, iso } from './calendar';
import type { RunBuild } from './context';
import { berthType } from './fares';

/** Vacant berths left after allotment, some released to PRS for the next remote location. */
export function releaseVacantBerths(run: RunBuild): void {
  const { out, rng, runId, scope, stationAt, vacancies, beatOfCoach } = run;
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
}
