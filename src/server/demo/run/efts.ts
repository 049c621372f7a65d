import { personName } from '../names';
import { MIN_MS, iso, pad } from './calendar';
import type { Beat, RunBuild } from './context';
import { fareFor } from './fares';
import type { Row } from './rows';

/**
 * EFTs and their digital payments: berth charges on some waitlisted passengers given a berth, dropped e-ticket
 * holders found travelling, and other excess fares (about 1.5% of passengers on board).
 */
export function issueEfts(run: RunBuild): void {
  const { t, out, rng, runId, ymd, scope, premium, last, stationAt, kmAt, atStop, endMs, chart1, download, psgns, dropped, classOf, beats, beatOfCoach, reallocRows } = run;
  let eftSeq = 0;
  let txnSeq = 0;
  const issueEft = (
    beat: Beat,
    reason: string,
    p: { pnr: string | null; name: string; coach: string | null; f: number; t: number },
    cls: string,
    notBefore = 0,
  ): string => {
    const eftNo = `EF${t.train_no}${ymd}${pad(++eftSeq, 3)}`;
    const km = Math.max(50, kmAt(p.t) - kmAt(p.f));
    const fullFare = fareFor(cls, km, premium);
    let fare: number;
    let charge: number;
    if (reason === 'TICKETLESS' || reason === 'IRREGULAR') {
      fare = fullFare;
      charge = Math.max(250, fullFare); // penalty: equal to the fare, at least Rs 250
    } else if (reason === 'UPGRADE') {
      fare = Math.max(150, Math.round((fareFor('2A', km, premium) - fareFor(cls, km, premium)) / 5) * 5);
      charge = 250;
    } else {
      fare = Math.max(100, Math.round(fullFare * (reason === 'EXTENSION' ? 0.4 : 0.3) / 5) * 5);
      charge = 250;
    }
    // On an HHT only once the chart is on it; a berth charge only once the berth is allotted.
    const from = Math.max(atStop(p.f, 'dep'), beat.device === null ? 0 : download, notBefore);
    const issued = Math.min(endMs - 10 * MIN_MS, from + rng.int(20, 180) * MIN_MS);
    const mode = beat.device === null ? 'CASH' : rng.weighted([['CASH', 50], ['UPI', 35], ['CARD', 15]] as const);
    const synced = beat.device === null ? null : rng.chance(0.02) ? null : issued + rng.int(1, beat.badSync ? 600 : 30) * MIN_MS;
    const total = fare + charge;
    const row: Row = {
      eft_no: eftNo,
      run_id: runId,
      beat_id: beat.id,
      trip_id: beat.tripId,
      tte_id: beat.tte.tte_id,
      device_id: beat.device,
      pnr: p.pnr,
      psgn_name: p.name,
      coach_id: p.coach,
      from_station: stationAt(p.f),
      to_station: stationAt(p.t),
      reason,
      excess_fare: fare,
      excess_charge: charge,
      total,
      payment_mode: mode,
      issued_at: iso(issued),
      synced_at: synced === null ? null : iso(synced),
      ...scope,
      lobby_code: beat.tte.lobby_code,
    };
    out.efts.push(row);
    if (mode !== 'CASH' && beat.device) {
      const outcome = rng.weighted([['SUCCESS', 88], ['RETRY', 7], ['PENDING', 4], ['FAILED', 1]] as const);
      const attempts: ('SUCCESS' | 'FAILED' | 'PENDING')[] =
        outcome === 'RETRY' ? ['FAILED', 'SUCCESS'] : [outcome];
      let at = issued + rng.int(0, 3) * MIN_MS;
      let lastAttempt = at;
      for (const status of attempts) {
        lastAttempt = at;
        out.digital_payments.push({
          txn_id: `${mode === 'UPI' ? 'UPI' : 'POS'}${ymd}${t.train_no}${pad(++txnSeq, 4)}`,
          eft_no: eftNo,
          amount: total,
          mode,
          status,
          txn_at: iso(at),
          tte_id: beat.tte.tte_id,
          pos_id: `POS${beat.device.slice(3)}`,
          sign_on_id: beat.signOnId,
          ...scope,
          lobby_code: beat.tte.lobby_code,
        });
        at += rng.int(1, 4) * MIN_MS;
      }
      // The terminal sends an EFT with its payments, so not before the last attempt (the server refuses a payment
      // timed after the sync that carries it).
      if (synced !== null && synced < lastAttempt) row.synced_at = iso(lastAttempt + 2 * MIN_MS);
    }
    return eftNo;
  };

  const activeBeats = beats.filter((b) => b.device !== null || b.active);
  const workingBeats = activeBeats.length > 0 ? activeBeats : beats;
  // Berth charge on some waitlisted passengers given a berth.
  for (const r of reallocRows) {
    if (String(r.row.prev_status).startsWith('WL') && rng.chance(0.4)) {
      const allotted = Date.parse(String(r.row.allotted_at));
      r.row.eft_no = issueEft(r.beat, 'BERTH_CHARGE', { pnr: r.p.pnr, name: r.p.name, coach: r.p.coach, f: r.p.f, t: r.p.t }, r.p.cls, allotted);
    }
  }
  // Dropped e-ticket holders found on board travel ticketless.
  for (const d of dropped) {
    const found = rng.chance(0.06) && workingBeats.length > 0;
    let eftNo: string | null = null;
    if (found) {
      const beat = rng.pick(workingBeats);
      eftNo = issueEft(beat, 'TICKETLESS', { pnr: d.pnr, name: d.name, coach: rng.pick(beat.coaches), f: d.seg.f, t: d.seg.t }, d.cls);
    }
    out.dropped_etickets.push({
      pnr: d.pnr,
      psgn_no: d.no,
      run_id: runId,
      name: d.name,
      booking_status: d.status,
      class: d.cls,
      from_station: stationAt(d.seg.f),
      to_station: stationAt(d.seg.t),
      dropped_at: iso(chart1),
      found_travelling: found,
      eft_no: eftNo,
      ...scope,
    });
  }
  // Other EFTs: about 1.5% of passengers, at least two per run with a working TTE. No berth charge among them: a
  // berth charge is collected with the allotment that gave the berth (above), which names it.
  const onBoard = psgns.filter((p) => p.row.mark === 'O' && p.coach !== null && beatOfCoach.has(p.coach));
  const others = Math.max(workingBeats.length > 0 ? 2 : 0, Math.round(onBoard.length * rng.around(0.015, 0.006, 0.004, 0.03)));
  for (let e = 0; e < others && workingBeats.length > 0; e++) {
    const reason = rng.weighted([['TICKETLESS', 35], ['UPGRADE', 20], ['EXTENSION', 15], ['IRREGULAR', 15]] as const);
    if (reason === 'TICKETLESS' || onBoard.length === 0) {
      const beat = rng.pick(workingBeats);
      const f = rng.int(0, Math.max(0, last - 1));
      const g = rng.chance(0.5) ? 'M' : 'F';
      const cls = classOf.get(beat.coaches[0] ?? '') ?? 'SL';
      issueEft(beat, 'TICKETLESS', { pnr: null, name: personName(rng, g), coach: rng.pick(beat.coaches), f, t: rng.int(f + 1, last) }, cls);
    } else {
      const p = rng.pick(onBoard);
      const beat = p.coach ? beatOfCoach.get(p.coach) : undefined;
      if (!beat) continue;
      const to = reason === 'EXTENSION' && p.t < last ? rng.int(p.t + 1, last) : p.t;
      issueEft(beat, reason, { pnr: p.pnr, name: p.name, coach: p.coach, f: reason === 'EXTENSION' && p.t < last ? p.t : p.f, t: to }, p.cls);
    }
  }
}
