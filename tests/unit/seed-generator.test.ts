import { describe, expect, it } from 'vitest';
import { Rng, hash32 } from '../../src/server/demo/prng';
import { buildReference } from '../../src/server/demo/reference';
import { generateDay } from '../../src/server/demo/loader';
import { addDays, berthType, dayIndex, isHastyAllotmentRun, runIdOf, weekdayMon0, type Row } from '../../src/server/demo/runs';

const TODAY = '2026-03-15';

describe('seeded PRNG', () => {
  it('repeats a stream for the same key and differs for another', () => {
    const a = new Rng('12951|2026-03-15');
    const b = new Rng('12951|2026-03-15');
    const c = new Rng('12951|2026-03-16');
    const sa = Array.from({ length: 5 }, () => a.nextU32());
    expect(Array.from({ length: 5 }, () => b.nextU32())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.nextU32())).not.toEqual(sa);
    expect(hash32('x')).toBe(hash32('x'));
  });

  it('keeps int() inside its bounds and roughly uniform', () => {
    const r = new Rng('bounds');
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const v = r.int(0, 3);
      counts[v] = (counts[v] ?? 0) + 1;
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4000);
    for (const n of counts) expect(n).toBeGreaterThan(850);
  });
});

describe('keys and calendar', () => {
  it('derives run_id from the day number and train number', () => {
    expect(dayIndex('2000-01-01')).toBe(0);
    expect(runIdOf('12951', '2000-01-02')).toBe(100000 + 12951);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(weekdayMon0('2026-03-16')).toBe(0); // a Monday
  });

  it('lays out berths per class', () => {
    expect([1, 2, 3, 7, 8].map((b) => berthType('SL', b))).toEqual(['LB', 'MB', 'UB', 'SL', 'SU']);
    expect([5, 6].map((b) => berthType('2A', b))).toEqual(['SL', 'SU']);
    expect([1, 3, 5].map((b) => berthType('CC', b))).toEqual(['WS', 'AS', 'WS']);
  });
});

describe('reference data', () => {
  const ref = buildReference('small');
  const table = (name: string) => ref.tables.find(([n]) => n === name)?.[1] ?? [];

  it('has the zones and divisions of the brief, lobbies everywhere, and the special offices', () => {
    const divs = table('divisions').map((d) => d.div_code);
    for (const d of ['DLI', 'UMB', 'FZR', 'LKO', 'MB', 'BB', 'BSL', 'NGP', 'PUNE', 'SUR', 'BCT', 'ADI', 'BRC', 'RTM', 'RJT', 'MAS', 'MDU', 'SA', 'TPJ', 'TVC', 'PGT']) {
      expect(divs).toContain(d);
      expect(table('lobbies').filter((l) => l.div_code === d).length).toBeGreaterThanOrEqual(2);
    }
    expect(table('lobbies').find((l) => l.lobby_code === 'NDLS')).toMatchObject({ div_code: 'DLI', zone_code: 'NR' });
    const offices = table('offices');
    expect(offices.find((o) => o.off_code === 'NRHQ')).toMatchObject({ off_type: 'HQ', zone_code: 'NR' });
    expect(offices.map((o) => o.off_code)).toEqual(expect.arrayContaining(['PTS', 'CTCRB', 'DLIDV', 'NRZN']));
  });

  it('builds trains with valid numbers, timetables and consists', () => {
    for (const t of ref.trains) {
      expect(t.row.train_no).toMatch(/^\d{5}$/);
      expect(t.row.run_days).toMatch(/^[YN]{7}$/);
      expect(t.stops[0]?.station_code).toBe(t.row.src_station);
      expect(t.stops.at(-1)?.station_code).toBe(t.row.dest_station);
      const km = t.stops.map((s) => s.distance_km);
      expect([...km].sort((a, b) => a - b)).toEqual(km);
      expect(t.consist.length).toBeGreaterThan(5);
    }
    expect(ref.trains.filter((t) => t.row.div_code === 'DLI').length).toBeGreaterThanOrEqual(2);
    expect(new Set(ref.trains.map((t) => t.row.zone_code)).size).toBeGreaterThanOrEqual(4);
  });

  it('is a pure function of the scale', () => {
    expect(JSON.stringify(buildReference('tiny').tables)).toBe(JSON.stringify(buildReference('tiny').tables));
  });
});

describe('a generated day', () => {
  const ref = buildReference('tiny');
  const day = generateDay(ref, TODAY, TODAY);

  it('is identical when generated again, whatever else was generated before', () => {
    generateDay(ref, addDays(TODAY, -3), TODAY);
    expect(JSON.stringify(generateDay(ref, TODAY, TODAY))).toBe(JSON.stringify(day));
  });

  it('keeps passengers within capacity', () => {
    const cap = new Map(day.run_coaches.map((c) => [`${c.run_id}|${c.coach_id}`, Number(c.capacity)]));
    const withBerth = day.passengers.filter((p) => p.berth_no !== null);
    expect(withBerth.length).toBeGreaterThan(0);
    for (const p of withBerth) {
      expect(Number(p.berth_no)).toBeGreaterThanOrEqual(1);
      expect(Number(p.berth_no)).toBeLessThanOrEqual(cap.get(`${p.run_id}|${p.coach_id}`) ?? 0);
    }
  });

  it('keeps events, EFTs and payments consistent', () => {
    const psgn = new Set(day.passengers.map((p) => p.psgn_id));
    const beats = new Set(day.beats.map((b) => b.beat_id));
    expect(day.checking_events.length).toBeGreaterThan(0);
    for (const e of day.checking_events) {
      if (e.psgn_id !== null) expect(psgn.has(e.psgn_id)).toBe(true);
      expect(beats.has(e.beat_id)).toBe(true);
    }
    expect(day.efts.length).toBeGreaterThan(0);
    for (const e of day.efts) {
      expect(Number(e.total)).toBe(Number(e.excess_fare) + Number(e.excess_charge));
      expect(Number(e.total)).toBeGreaterThanOrEqual(250);
    }
    const modes = new Map(day.efts.map((e) => [e.eft_no, e.payment_mode]));
    for (const d of day.digital_payments) expect(['CARD', 'UPI']).toContain(modes.get(d.eft_no));
    for (const p of day.passengers) {
      if (p.mark !== null) expect(p.marked_by).toBeTruthy();
    }
  });

  it('gives tomorrow bookings only', () => {
    const tomorrow = generateDay(ref, addDays(TODAY, 1), TODAY);
    expect(tomorrow.passengers.length).toBeGreaterThan(0);
    expect(tomorrow.beats).toEqual([]);
    expect(tomorrow.checking_events).toEqual([]);
    expect(tomorrow.train_runs.every((r) => r.chart1_at === null)).toBe(true);
    expect(tomorrow.passengers.every((p) => p.current_status === p.booking_status)).toBe(true);
  });
});

describe('on-board rules over two weeks of runs', () => {
  const ref = buildReference('tiny');
  const days = Array.from({ length: 14 }, (_, i) => generateDay(ref, addDays(TODAY, i - 13), TODAY));
  const all = <K extends keyof (typeof days)[number]>(table: K): Row[] => days.flatMap((d) => d[table]);
  const ms = (v: unknown): number => Date.parse(String(v));
  const passengers = new Map(all('passengers').map((p) => [p.psgn_id, p]));
  const events = all('checking_events');
  const eventsOf = (psgnId: unknown, type: string): Row[] => events.filter((e) => e.psgn_id === psgnId && e.event_type === type);

  it('swaps berths on runs with fewer than 250 passengers present too, and keeps the swapped berth', () => {
    const present = new Map<unknown, number>();
    for (const p of passengers.values()) if (p.mark === 'O') present.set(p.run_id, (present.get(p.run_id) ?? 0) + 1);
    const shifted = events.filter((e) => e.event_type === 'SHIFTED');
    const smallRuns = new Set(shifted.map((e) => e.run_id).filter((r) => (present.get(r) ?? 0) < 250));
    expect(smallRuns.size).toBeGreaterThan(0);
    for (const e of shifted) {
      const p = passengers.get(e.psgn_id);
      expect(p?.current_status).toBe('CNF');
      // The last shift of a passenger leaves them on its new berth; nobody shifts after getting down.
      const last = eventsOf(e.psgn_id, 'SHIFTED').sort((a, b) => Number(a.event_id) - Number(b.event_id)).at(-1);
      expect([p?.coach_id, p?.berth_no]).toEqual([last?.new_coach_id, last?.new_berth_no]);
      expect(eventsOf(e.psgn_id, 'GOT_DOWN')).toEqual([]);
    }
  });

  it("allots an NT passenger's berth only after the NT mark, except the one deliberate allotment of a hasty run", () => {
    const early = new Map<unknown, number>();
    let afterMark = 0;
    for (const r of all('reallocations')) {
      const holders = [...passengers.values()].filter(
        (p) => p.run_id === r.run_id && p.coach_id === r.coach_id && p.berth_no === r.berth_no && p.psgn_id !== r.psgn_id && p.mark === 'NT',
      );
      if (holders.length === 0) continue;
      if (holders.every((h) => ms(r.allotted_at) >= ms(h.marked_at))) afterMark += 1;
      else early.set(r.run_id, (early.get(r.run_id) ?? 0) + 1);
    }
    expect(afterMark).toBeGreaterThan(0);
    for (const [runId, n] of early) {
      expect(isHastyAllotmentRun('tiny', Number(runId)), `run ${String(runId)}`).toBe(true);
      expect(n).toBe(1);
    }
  });

  it('serves RAC before waitlist, and allots only to passengers already seen on board', () => {
    const realloc = all('reallocations');
    for (const w of realloc.filter((r) => String(r.prev_status).startsWith('WL'))) {
      const cls = passengers.get(w.psgn_id)?.class;
      const laterRac = realloc.filter(
        (r) => r.run_id === w.run_id && String(r.prev_status).startsWith('RAC') && passengers.get(r.psgn_id)?.class === cls && ms(r.allotted_at) > ms(w.allotted_at),
      );
      expect(laterRac).toEqual([]);
    }
    for (const r of realloc) {
      for (const o of eventsOf(r.psgn_id, 'O')) expect(ms(r.allotted_at)).toBeGreaterThanOrEqual(ms(o.device_time));
      expect(eventsOf(r.psgn_id, 'GOT_DOWN')).toEqual([]);
    }
    const efts = new Map(all('efts').map((e) => [e.eft_no, e]));
    for (const r of realloc.filter((x) => x.eft_no !== null)) expect(ms(efts.get(r.eft_no)?.issued_at)).toBeGreaterThanOrEqual(ms(r.allotted_at));
  });

  it('records events between the chart download on the HHT and the sign-off, and a got-down after the mark', () => {
    const runs = new Map(all('train_runs').map((r) => [r.run_id, r]));
    const beats = new Map(all('beats').map((b) => [b.beat_id, b]));
    for (const e of events) {
      expect(ms(e.device_time)).toBeGreaterThanOrEqual(ms(runs.get(e.run_id)?.hht_download_at));
      const off = beats.get(e.beat_id)?.sign_off_at;
      if (off !== null) expect(ms(e.device_time)).toBeLessThan(ms(off));
    }
    for (const g of events.filter((e) => e.event_type === 'GOT_DOWN')) {
      for (const o of eventsOf(g.psgn_id, 'O')) expect(ms(g.device_time)).toBeGreaterThan(ms(o.device_time));
    }
    for (const c of all('complaints')) expect(c.coach_id).not.toBeNull();
  });
});
