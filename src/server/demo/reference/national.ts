import { Rng } from '../prng';
import { CORRIDORS, corridorStops } from './corridors';
import { STATIONS } from './geography';
import type { TrainSpec, TrainType } from './train-spec';

/**
 * The national scale's generated trains. The reference data has 59 real trains; Indian Railways runs about
 * 3,000 reserved train runs a day, so the rest are generated deterministically (a pure function of this file):
 * up/down pairs along the real corridors, types and consists in roughly the national mix, most running daily.
 * They keep to train numbers the catalogue does not use, so run ids and keys stay unique.
 */

/** Generated up/down pairs: with the 59 catalogue trains about 3,000 runs a day (a few run weekly). */
export const NATIONAL_PAIRS = 1_800;

const TYPE_MIX: readonly (readonly [TrainType, number])[] = [
  ['MAIL_EXP', 46],
  ['SUPERFAST', 38],
  ['VANDE_BHARAT', 6],
  ['SHATABDI', 3],
  ['RAJDHANI', 4],
  ['DURONTO', 3],
];

/**
 * Reserved coaches only, and shorter rakes than the flagship consists: most reserved trains carry a few AC
 * coaches and a block of sleepers, plus general (unreserved) coaches that are not in the reservation system.
 * Sized so a national day holds about 2 M reserved passengers.
 */
const CONSISTS: Record<TrainType, readonly string[]> = {
  MAIL_EXP: ['3A x2,SL x5', '2A x1,3A x2,SL x6', '3A x1,3E x1,SL x5', '3A x2,SL x4,2S x1'],
  SUPERFAST: ['2A x1,3A x2,SL x5', '2A x1,3A x3,3E x1,SL x4', '3A x2,3E x1,SL x5', '3A x1,CC x4,2S x1'],
  VANDE_BHARAT: ['EC x1,CC x6', 'EC x1,CC x5'],
  SHATABDI: ['EC x1,CC x5', 'EC x1,CC x6'],
  RAJDHANI: ['1A x1,2A x2,3A x5', '2A x2,3A x6'],
  DURONTO: ['1A x1,2A x2,3A x4', '2A x2,3A x5,SL x2'],
};

/** Day-train types run short corridors by day; sleeper trains anything of some length. */
const DAY_TRAINS: ReadonlySet<TrainType> = new Set(['SHATABDI', 'VANDE_BHARAT']);

const divisionOf = new Map(STATIONS.map((s) => [s.station_code, s.div_code]));

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** Train numbers from 13001 upward that the catalogue does not use, two at a time (an up/down pair). */
function* pairNumbers(taken: ReadonlySet<string>): Generator<[string, string]> {
  for (let n = 13_001; n < 99_998; n += 2) {
    const up = String(n);
    const down = String(n + 1);
    if (!taken.has(up) && !taken.has(down)) yield [up, down];
  }
}

export function nationalTrains(taken: ReadonlySet<string>): TrainSpec[] {
  const rng = new Rng('national|trains');
  const corridors = Object.keys(CORRIDORS);
  const specs: TrainSpec[] = [];
  const numbers = pairNumbers(taken);
  for (let i = 0; i < NATIONAL_PAIRS; i++) {
    const pair = numbers.next();
    if (pair.done) throw new Error('national scale: train numbers exhausted');
    const [up, down] = pair.value;
    const type = rng.weighted(TYPE_MIX);
    const corridor = rng.pick(corridors);
    const stops = corridorStops(corridor);
    // A stretch of the corridor: day trains up to about 700 km, others at least three stations long.
    let a = rng.int(0, stops.length - 3);
    let b = rng.int(a + 2, stops.length - 1);
    if (DAY_TRAINS.has(type)) {
      while (b > a + 2 && (stops[b]?.km ?? 0) - (stops[a]?.km ?? 0) > 700) b--;
    } else if (rng.chance(0.5)) {
      a = rng.int(0, 1);
      b = stops.length - 1 - rng.int(0, 1);
    }
    const from = stops[a]?.code;
    const to = stops[b]?.code;
    // The pair belongs to the division at one of its ends (either, so the corridors' hubs do not own them all).
    const div = rng.chance(0.5) ? (from && divisionOf.get(from)) : (to && divisionOf.get(to));
    if (!from || !to || !div) throw new Error(`national scale: corridor ${corridor} has a station without a division`);
    const days = rng.chance(0.82) ? 'YYYYYYY' : weeklyDays(rng);
    const consist = rng.pick(CONSISTS[type]);
    const depart = DAY_TRAINS.has(type) ? rng.pick([rng.int(66, 96), rng.int(168, 204)]) * 5 : rng.int(0, 287) * 5;
    const back = DAY_TRAINS.has(type) ? rng.int(168, 210) * 5 : rng.int(0, 287) * 5;
    const base = { type, corridor, days, tier: 4, consist };
    specs.push({ ...base, no: up, name: `${from} - ${to} ${label(type)}`, from, to, dep: clock(depart), div });
    specs.push({ ...base, no: down, name: `${to} - ${from} ${label(type)}`, from: to, to: from, dep: clock(back), div });
  }
  return specs;
}

function weeklyDays(rng: Rng): string {
  const runs = rng.int(1, 3);
  const days = ['N', 'N', 'N', 'N', 'N', 'N', 'N'];
  for (const d of rng.shuffle([0, 1, 2, 3, 4, 5, 6]).slice(0, runs)) days[d] = 'Y';
  return days.join('');
}

function label(type: TrainType): string {
  switch (type) {
    case 'RAJDHANI':
      return 'Rajdhani Express';
    case 'SHATABDI':
      return 'Shatabdi Express';
    case 'DURONTO':
      return 'Duronto Express';
    case 'VANDE_BHARAT':
      return 'Vande Bharat Express';
    case 'SUPERFAST':
      return 'Superfast Express';
    case 'MAIL_EXP':
      return 'Express';
  }
}
