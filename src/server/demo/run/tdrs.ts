import { MIN_MS, iso, pad } from './calendar';
import type { RunBuild } from './context';

/** TDRs: refund claims for absent passengers, AC failure, late running. */
export function fileTdrs(run: RunBuild): void {
  const { t, out, rng, runId, ymd, scope, delay, chart2, psgns, beatOfCoach } = run;
  // A PNR travelled when any of its passengers was seen on board (marked O, an allotment included): NOT_TRAVELLED
  // only for PNRs none of whose passengers travelled, PARTY_PARTIALLY_TRAVELLED for the others with an NT.
  const travelled = new Set(psgns.filter((p) => p.row.mark === 'O').map((p) => p.pnr));
  const ntPsgns = psgns.filter((p) => p.row.mark === 'NT');
  const absentPnrs = ntPsgns.filter((p) => !travelled.has(p.pnr));
  const partPnrs = ntPsgns.filter((p) => travelled.has(p.pnr));
  // An EFT certificate is the PNR's own EFT (the excess fare the TTE collected on it).
  const eftOfPnr = new Map<string, string>();
  for (const e of out.efts) if (typeof e.pnr === 'string' && !eftOfPnr.has(e.pnr)) eftOfPnr.set(e.pnr, String(e.eft_no));
  const withEft = psgns.filter((p) => eftOfPnr.has(p.pnr));
  const tdrCount = Math.max(1, Math.round(out.pnrs.length * rng.around(0.01, 0.005, 0.002, 0.02)));
  for (let k = 1; k <= tdrCount; k++) {
    const reason = rng.weighted([
      ['NOT_TRAVELLED', absentPnrs.length > 0 ? 45 : 0],
      ['PARTY_PARTIALLY_TRAVELLED', partPnrs.length > 0 ? 15 : 0],
      ['AC_FAILURE', 12],
      ['TRAIN_LATE', delay > 180 ? 60 : 0],
      ['TRAVELLED_IN_LOWER_CLASS', withEft.length > 0 ? 6 : 0],
      ['OTHER', 5],
    ] as const);
    const p = reason === 'NOT_TRAVELLED' ? rng.pick(absentPnrs)
      : reason === 'PARTY_PARTIALLY_TRAVELLED' ? rng.pick(partPnrs)
      : reason === 'TRAVELLED_IN_LOWER_CLASS' ? rng.pick(withEft)
      : rng.pick(psgns);
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
      certificate_no: reason === 'AC_FAILURE' ? `GC${ymd}${pad(k, 4)}` : reason === 'TRAVELLED_IN_LOWER_CLASS' ? (eftOfPnr.get(p.pnr) ?? null) : null,
      tte_remark: status === 'FILED' || !beat ? null : remark,
      status,
      refund_amount: status === 'REFUNDED' ? Math.round(p.fare * rng.around(0.7, 0.2, 0.25, 1) / 5) * 5 : null,
      ...scope,
    });
  }
}
