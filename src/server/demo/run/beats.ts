import { MIN_MS, iso, pad } from './calendar';
import type { Beat, RunBuild } from './context';

/**
 * Beats: TTEs from the owning division's lobbies, each working a block of coaches (some coaches unmanned),
 * mostly on an HHT, with sign-on/off and the Train Working Report status.
 */
export function assignBeats(run: RunBuild): void {
  const { ref, train, t, out, rng, runId, day, ymd, scope, depMs, endMs, beats, beatOfCoach } = run;
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
  run.coaches = coaches;
  run.classOf = classOf;
  run.slot = slot;
}
