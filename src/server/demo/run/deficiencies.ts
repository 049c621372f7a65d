import { MIN_MS, iso } from './calendar';
import type { RunBuild } from './context';
import { AC } from './fares';

const DEFICIENCIES: [string, string[]][] = [
  ['WATER', ['No water in toilets', 'Wash basin tap leaking', 'Water tank empty']],
  ['ELECTRICAL', ['Berth light not working', 'Mobile charging point dead', 'Fan not working']],
  ['AC', ['AC not cooling', 'AC vent leaking', 'Temperature control faulty']],
  ['FITTINGS', ['Window shutter broken', 'Ladder loose', 'Door latch broken', 'Berth cushion torn']],
  ['BEDROLL', ['Bedroll not supplied', 'Blanket dirty', 'Short supply of linen']],
  ['CLEANLINESS', ['Toilet not cleaned', 'Coach floor dirty', 'Dustbin overflowing']],
];

/** Coach deficiencies reported by TTEs, most closed some hours later. */
export function reportDeficiencies(run: RunBuild): void {
  const { out, rng, runId, scope, last, stationAt, atStop, classOf, beats } = run;
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
}
