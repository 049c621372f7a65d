import { MIN_MS, iso } from './calendar';
import type { RunBuild } from './context';

/** The HHT's events numbered in device-time order; sync delay mostly minutes, some hours, a few pending. */
export function numberEvents(run: RunBuild): void {
  const { out, rng, runId, scope, events } = run;
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
}
