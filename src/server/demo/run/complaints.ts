import { MIN_MS, iso, pad } from './calendar';
import type { RunBuild } from './context';

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

/** Rail Madad complaints from seated passengers, resolved within or after their SLA. */
export function registerComplaints(run: RunBuild): void {
  const { t, date, out, rng, runId, scope, last, atStop, psgns } = run;
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
}
