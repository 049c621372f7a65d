import { Rng } from '../prng';
import { MIN_MS, iso } from './calendar';
import type { RunBuild } from './context';
import { berthType } from './fares';

/** Share of passengers on board (confirmed, staying to their destination) who swap berths, per run on average. */
const SWAP_SHARE = 0.004;

/**
 * Checking on board: each passenger of a beat worked on an HHT is marked O or NT (an NT berth becomes a
 * vacancy once the grace is over; a shared RAC berth only when both are absent), a few get down early, and
 * cancelled berths are vacancies from the chart.
 */
export function markOnBoard(run: RunBuild): void {
  const { rng, stationAt, atStop, endMs, ntGraceEnd, chart2, download, psgns, vacancies, beatOfCoach, events, gotDown } = run;
  // The TTE marks on the HHT only once the chart is on it, and finishes before the destination (sign-off follows).
  const lastMarkAt = endMs - 5 * MIN_MS;
  const ntRate = rng.around(0.065, 0.015, 0.04, 0.09);
  // First NT mark on a shared RAC berth, by coach|berth.
  const sharedRacNt = new Map<string, number>();
  for (const p of psgns) {
    if (p.coach === null || p.status === 'CAN') continue;
    const beat = beatOfCoach.get(p.coach);
    if (beat) p.row.lobby_code = beat.tte.lobby_code;
    if (!beat?.active) continue;
    const at = Math.min(lastMarkAt, Math.max(atStop(p.f, 'dep'), download) + rng.int(8, p.f === 0 ? 150 : 60) * MIN_MS);
    const nt = rng.chance(ntRate);
    events.push({ beat, psgn: p, type: nt ? 'NT' : 'O', coach: p.coach, berth: p.berth, station: stationAt(p.f), at });
    p.row.mark = nt ? 'NT' : 'O';
    p.row.marked_at = iso(at);
    p.row.marked_by = beat.tte.tte_id;
    if (nt && p.berth !== null) {
      // A shared RAC berth frees up only when both RAC holders are absent.
      const key = `${p.coach}|${p.berth}`;
      let known = at;
      if (p.status.startsWith('RAC')) {
        const first = sharedRacNt.get(key);
        if (first === undefined) {
          sharedRacNt.set(key, at);
          continue;
        }
        // Free once both are marked, whichever mark came later on the device.
        known = Math.max(first, at);
      }
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: p.f, t: p.t, reason: 'NT', at: known, freeAt: Math.max(known, ntGraceEnd(p.f)) });
    } else if (!nt && p.t - p.f >= 2 && rng.chance(0.008) && p.berth !== null && p.status === 'CNF') {
      // A confirmed passenger (a RAC one shares the berth, and would still be waiting for one) gets down at a
      // later stop reached after the mark, never before being seen on board.
      let first = p.f + 1;
      while (first < p.t && atStop(first, 'arr') <= at) first++;
      if (first > p.t - 1) continue;
      const k = rng.int(first, p.t - 1);
      const downAt = atStop(k, 'arr');
      gotDown.add(p);
      events.push({ beat, psgn: p, type: 'GOT_DOWN', coach: p.coach, berth: p.berth, station: stationAt(k), at: downAt });
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: k, t: p.t, reason: 'GOT_DOWN', at: downAt });
    }
  }
  for (const p of psgns) {
    if (p.status === 'CAN' && p.coach !== null && p.berth !== null) {
      vacancies.push({ coach: p.coach, berth: p.berth, cls: p.cls, f: p.f, t: p.t, reason: 'CANCELLED', at: chart2 });
    }
  }
}

/**
 * Berth swaps on request (e.g. a senior citizen to a lower berth), inside one coach, among passengers on board
 * who stay to their destination. Own stream: how many swaps a run gets leaves the rest of the run unchanged.
 */
export function swapBerths(run: RunBuild): void {
  const { ref, t, date, endMs, psgns, beatOfCoach, events, gotDown } = run;
  const swapRng = new Rng(`${ref.scale}|${t.train_no}|${date}|swaps`);
  const present = psgns.filter((p) => p.row.mark === 'O' && p.status === 'CNF' && p.coach !== null && !gotDown.has(p));
  // 0.4 % of them on average: the whole part, plus one more with the fraction as its chance, so short runs
  // (under 250 present) get a swap now and then instead of never.
  const expectedSwaps = present.length * SWAP_SHARE;
  const swaps = Math.floor(expectedSwaps) + (swapRng.chance(expectedSwaps - Math.floor(expectedSwaps)) ? 1 : 0);
  for (let s = 0; s < swaps; s++) {
    const a = swapRng.pick(present);
    const others = present.filter((q) => q !== a && q.coach === a.coach && q.f === a.f && q.t === a.t);
    if (others.length === 0) continue;
    const b = swapRng.pick(others);
    const beat = a.coach ? beatOfCoach.get(a.coach) : undefined;
    if (!beat || a.berth === null || b.berth === null) continue;
    const marked = Math.max(Date.parse(String(a.row.marked_at)), Date.parse(String(b.row.marked_at)));
    const at = Math.min(endMs - MIN_MS, marked + swapRng.int(5, 40) * MIN_MS);
    events.push({ beat, psgn: a, type: 'SHIFTED', coach: a.coach, berth: a.berth, newCoach: b.coach, newBerth: b.berth, station: null, at });
    events.push({ beat, psgn: b, type: 'SHIFTED', coach: b.coach, berth: b.berth, newCoach: a.coach, newBerth: a.berth, station: null, at });
    const ab = a.berth;
    a.berth = b.berth;
    b.berth = ab;
    for (const p of [a, b]) {
      p.row.berth_no = p.berth;
      p.row.berth_type = berthType(p.cls, p.berth ?? 1);
    }
  }
}
