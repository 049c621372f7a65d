import { mobileNumber, personName } from '../names';
import { Rng } from '../prng';
import { pad } from './calendar';
import type { RunBuild } from './context';
import { AC } from './fares';

const STAFF_PREFIX: Record<string, string> = {
  COACH_ATTENDANT: 'CA',
  CATERING: 'IRC',
  RPF: 'RPF',
  ELECTRICIAN: 'EL',
  HOUSEKEEPING: 'OB',
};

/** On-board staff of the run: the TTEs of its beats and the crew (attendants, catering, RPF, electricians...). */
export function rosterStaff(run: RunBuild): void {
  const { ref, t, out, rng, runId, day, scope, premium, coaches, classOf, slot, beats } = run;
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
}
