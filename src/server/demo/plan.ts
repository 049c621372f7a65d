import { berthType, type Row, type RunRows } from './runs';
import type { HhtRecord } from '../../shared/hht-sync';

/** A record a terminal will sync at `syncTime` (ISO, UTC); null sync time = pending on the device for good. */
export interface PlannedRecord {
  deviceId: string;
  syncTime: string;
  record: HhtRecord;
}

/** Chart times of a run (PRS events, not HHT records): shown once they have passed. */
export interface PlannedChart {
  runId: number;
  chart1At: string | null;
  chart2At: string | null;
  downloadAt: string | null;
}

/** Tables that change from outside the terminals (PRS, Rail Madad, the lobby, paper EFTs). */
export type ChangeTable =
  | 'beats' | 'passengers' | 'vacant_berths' | 'efts' | 'tdrs' | 'complaints' | 'dropped_etickets' | 'coach_deficiencies';

/**
 * A change not brought by a terminal, due at `at` (ISO, UTC): a row that appears (insert) or columns of a row that
 * change (update: `key` names the row, `set` the new values). Applied by the feed once `at` has passed.
 */
export type PlannedChange =
  | { at: string; table: ChangeTable; insert: Row }
  | { at: string; table: ChangeTable; key: Row; set: Row };

export interface DayPlan {
  /** What exists before any terminal syncs: bookings, the chart's passengers unmarked, beats not signed on. */
  base: RunRows;
  records: PlannedRecord[];
  charts: PlannedChart[];
  /** Changes from outside the terminals, all of them (the base holds those due by `until`). */
  changes: PlannedChange[];
}

const MIN_MS = 60_000;
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v);
const later = (iso: string, min: number): string => new Date(Date.parse(iso) + min * MIN_MS).toISOString();

/**
 * Splits the generator's complete rows of a day into the state before any sync and the HHT records that bring
 * it to the complete state, each with its planned sync time. Times that lie after `until` are blanked in the base
 * for what no terminal brings (beats worked without an HHT, EFTs written on paper) so nothing shows in the future.
 */
export function planDay(rows: RunRows, until: string): DayPlan {
  const base: RunRows = { ...rows };
  const records: PlannedRecord[] = [];
  const changes: PlannedChange[] = [];
  const due = (at: string | null): boolean => at !== null && at <= until;
  const beatsById = new Map<number, Row>(rows.beats.map((b) => [num(b.beat_id), b]));
  const beatsByTte = new Map<string, Row>(rows.beats.map((b) => [`${str(b.run_id)}|${str(b.tte_id)}`, b]));
  const beatOf = (runId: number, tteId: unknown): Row | undefined => beatsByTte.get(`${runId}|${str(tteId)}`);
  const push = (beat: Row | undefined, syncTime: string | null, record: HhtRecord): boolean => {
    const deviceId = beat ? strOrNull(beat.device_id) : null;
    if (!deviceId) return false;
    if (syncTime !== null) records.push({ deviceId, syncTime, record });
    return true;
  };

  // Beats: sign-on, sign-off and TWR arrive from the device a minute after they happen.
  base.beats = rows.beats.map((b) => {
    const beatId = num(b.beat_id);
    const signOn = strOrNull(b.sign_on_at);
    const signOff = strOrNull(b.sign_off_at);
    const twrAt = strOrNull(b.twr_submitted_at);
    const status = str(b.twr_status);
    if (b.device_id === null) {
      // No HHT: the lobby enters it; shown once it has happened.
      const key = { beat_id: beatId };
      if (signOn) changes.push({ at: signOn, table: 'beats', key, set: { sign_on_at: signOn } });
      if (signOff) changes.push({ at: signOff, table: 'beats', key, set: { sign_off_at: signOff } });
      if (twrAt) changes.push({ at: twrAt, table: 'beats', key, set: { twr_status: status, twr_submitted_at: twrAt } });
      return {
        ...b,
        sign_on_at: signOn && signOn <= until ? signOn : null,
        sign_off_at: signOff && signOff <= until ? signOff : null,
        twr_status: twrAt && twrAt <= until ? status : 'NOT_SUBMITTED',
        twr_submitted_at: twrAt && twrAt <= until ? twrAt : null,
      };
    }
    if (signOn) push(b, later(signOn, 1), { id: `son${beatId}`, type: 'SIGN_ON', beatId, at: signOn });
    if (signOff) push(b, later(signOff, 1), { id: `sof${beatId}`, type: 'SIGN_OFF', beatId, at: signOff });
    if (status !== 'NOT_SUBMITTED' && twrAt) {
      push(b, later(twrAt, 1), { id: `twr${beatId}`, type: 'TWR', beatId, twrStatus: status as 'SUBMITTED' | 'EMPTY', at: twrAt });
    }
    return { ...b, sign_on_at: null, sign_off_at: null, twr_status: 'NOT_SUBMITTED', twr_submitted_at: null };
  });

  const reallocByKey = new Map<string, Row>(rows.reallocations.map((r) => [`${str(r.psgn_id)}|${str(r.allotted_at)}`, r]));
  // Passengers as charted: unmarked, on their charted berth. Undo shifts and allotments, latest first.
  const psgnRows = new Map<number, Row>(rows.passengers.map((p) => [num(p.psgn_id), { ...p, mark: null, marked_at: null, marked_by: null }]));
  const events = [...rows.checking_events].sort((a, b) => (str(b.device_time) < str(a.device_time) ? -1 : 1));
  for (const e of events) {
    if (e.event_type !== 'SHIFTED' && e.event_type !== 'ALLOTTED') continue;
    const p = psgnRows.get(num(e.psgn_id));
    if (!p) continue;
    const berth = e.berth_no === null ? null : num(e.berth_no);
    p.coach_id = e.coach_id;
    p.berth_no = berth;
    p.berth_type = berth === null ? null : berthType(str(p.class), berth);
    if (e.event_type === 'ALLOTTED') {
      // Before the allotment the passenger holds the chart's status (RAC n, WL n), kept on the reallocation.
      const r = reallocByKey.get(`${str(e.psgn_id)}|${str(e.device_time)}`);
      if (r) p.current_status = r.prev_status;
      if (p.coach_id === null) p.lobby_code = null;
    }
  }
  // Before the first chart the run is in its booking phase (as the generator makes tomorrow's runs): booked
  // status, a berth only if confirmed. The chart sets the charted status, coach and berth at its time.
  const chart1Of = new Map<number, string | null>(rows.train_runs.map((r) => [num(r.run_id), strOrNull(r.chart1_at)]));
  base.passengers = [...psgnRows.values()].map((p) => {
    const chart1 = chart1Of.get(num(p.run_id)) ?? null;
    if (chart1 === null) return p;
    changes.push({
      at: chart1, table: 'passengers', key: { psgn_id: p.psgn_id },
      set: { current_status: p.current_status, coach_id: p.coach_id, berth_no: p.berth_no, berth_type: p.berth_type },
    });
    if (due(chart1)) return p;
    const booked = str(p.booking_status);
    return booked === 'CNF'
      ? { ...p, current_status: booked }
      : { ...p, current_status: booked, coach_id: null, berth_no: null, berth_type: null };
  });

  // Allotments: the reallocation and its ALLOTTED event are one record. The berth charge collected for it is issued
  // after the allotment, so the record does not name it: the EFT names its reallocation when it syncs (ingest), and
  // syncs after the allotment (a terminal sends its records in order), or never when the allotment never syncs.
  const allotmentSync = new Map<string, string | null>();
  base.checking_events = [];
  base.reallocations = [];
  for (const e of rows.checking_events) {
    const beatId = num(e.beat_id);
    const beat = beatsById.get(beatId);
    const sync = strOrNull(e.sync_time);
    if (e.event_type === 'ALLOTTED') {
      const r = reallocByKey.get(`${str(e.psgn_id)}|${str(e.device_time)}`);
      if (!r) continue;
      const sent = push(beat, sync, {
        id: `ra${str(r.realloc_id)}`, type: 'ALLOTMENT', beatId, psgnId: num(r.psgn_id), coachId: str(r.coach_id), berthNo: num(r.berth_no),
        fromStation: str(r.from_station), toStation: str(r.to_station), at: str(r.allotted_at), eftNo: null,
        eventId: num(e.event_id), reallocId: num(r.realloc_id),
      });
      if (r.eft_no !== null) allotmentSync.set(str(r.eft_no), sent ? sync : null);
      continue;
    }
    push(beat, sync, {
      id: `ev${str(e.event_id)}`, type: 'CHECK', beatId, eventType: e.event_type as 'O' | 'NT' | 'SHIFTED' | 'GOT_DOWN',
      psgnId: e.psgn_id === null ? null : num(e.psgn_id), coachId: strOrNull(e.coach_id), berthNo: e.berth_no === null ? null : num(e.berth_no),
      newCoachId: strOrNull(e.new_coach_id), newBerthNo: e.new_berth_no === null ? null : num(e.new_berth_no),
      stationCode: strOrNull(e.station_code), deviceTime: str(e.device_time), eventId: num(e.event_id),
    });
  }

  // EFTs with their payments, when synced; EFTs written without an HHT show once issued.
  const paymentsOf = new Map<string, Row[]>();
  for (const p of rows.digital_payments) paymentsOf.set(str(p.eft_no), [...(paymentsOf.get(str(p.eft_no)) ?? []), p]);
  base.efts = [];
  base.digital_payments = [];
  /** When each EFT reaches the database (null: never, pending on the device). */
  const eftArrival = new Map<string, string | null>();
  for (const e of rows.efts) {
    const beatId = num(e.beat_id);
    const record: HhtRecord = {
      id: `eft${str(e.eft_no)}`, type: 'EFT', beatId, eftNo: str(e.eft_no), pnr: strOrNull(e.pnr), psgnName: str(e.psgn_name),
      coachId: strOrNull(e.coach_id), fromStation: str(e.from_station), toStation: str(e.to_station), reason: e.reason as 'TICKETLESS',
      excessFare: num(e.excess_fare), excessCharge: num(e.excess_charge), total: num(e.total), paymentMode: e.payment_mode as 'CASH',
      issuedAt: str(e.issued_at),
      payments: (paymentsOf.get(str(e.eft_no)) ?? []).map((p) => ({
        txnId: str(p.txn_id), amount: num(p.amount), mode: p.mode as 'UPI', status: p.status as 'SUCCESS', at: str(p.txn_at), posId: str(p.pos_id),
      })),
    };
    const charged = allotmentSync.get(str(e.eft_no));
    const synced = strOrNull(e.synced_at);
    const syncTime = charged === undefined ? synced : charged === null || synced === null ? null : charged > synced ? charged : synced;
    if (push(beatsById.get(beatId), syncTime, record)) {
      eftArrival.set(str(e.eft_no), syncTime);
      continue;
    }
    // Written on paper (no HHT, cash only): entered when issued.
    eftArrival.set(str(e.eft_no), str(e.issued_at));
    changes.push({ at: str(e.issued_at), table: 'efts', insert: e });
    if (due(str(e.issued_at))) {
      base.efts.push(e);
      base.digital_payments.push(...(paymentsOf.get(str(e.eft_no)) ?? []));
    }
  }

  // A vacant berth exists from what made it vacant, once that has reached the database: an unsold or cancelled
  // berth with the chart, an NT berth with its holders' NT marks, a berth got down from with the GOT_DOWN event. A
  // vacancy whose event stays on the device never shows. The TTE's release to PRS syncs a couple of minutes after the
  // release, and never before the vacancy it releases (the terminal sends its records in order).
  const arrivals = new Map<string, (string | null)[]>();
  for (const e of rows.checking_events) {
    if (e.event_type !== 'NT' && e.event_type !== 'GOT_DOWN') continue;
    const key = `${str(e.run_id)}|${str(e.coach_id)}|${str(e.berth_no)}|${str(e.event_type)}${e.event_type === 'GOT_DOWN' ? `|${str(e.station_code)}` : ''}`;
    const beat = beatsById.get(num(e.beat_id));
    arrivals.set(key, [...(arrivals.get(key) ?? []), beat?.device_id ? strOrNull(e.sync_time) : null]);
  }
  const chart2Of = new Map<number, string | null>(rows.train_runs.map((r) => [num(r.run_id), strOrNull(r.chart2_at)]));
  const appearsAt = (v: Row): string | null => {
    if (v.reason === 'UNSOLD' || v.reason === 'CANCELLED') return chart2Of.get(num(v.run_id)) ?? null;
    const key = `${str(v.run_id)}|${str(v.coach_id)}|${str(v.berth_no)}|${str(v.reason)}${v.reason === 'GOT_DOWN' ? `|${str(v.from_station)}` : ''}`;
    const times = arrivals.get(key) ?? [];
    if (times.length === 0 || times.some((t) => t === null)) return null;
    return times.reduce((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
  };
  const latest = (a: string, b: string): string => (a > b ? a : b);
  base.vacant_berths = [];
  for (const v of rows.vacant_berths) {
    const appears = appearsAt(v);
    if (appears === null) continue;
    const open = { ...v, released_to_prs: false, released_at: null, released_by: null, rebooked: false };
    changes.push({ at: appears, table: 'vacant_berths', insert: open });
    let releasedInBase = false;
    if (v.released_to_prs === true) {
      const at = str(v.released_at);
      const beat = beatOf(num(v.run_id), v.released_by);
      const sent = push(beat, latest(later(at, 2), appears), {
        id: `rel${str(v.run_id)}${str(v.coach_id)}${str(v.berth_no)}${str(v.from_station)}`, type: 'BERTH_RELEASE', beatId: num(beat?.beat_id),
        coachId: str(v.coach_id), berthNo: num(v.berth_no), fromStation: str(v.from_station), at, rebooked: v.rebooked === true,
      });
      if (!sent) {
        // Released without an HHT: the lobby enters it at its time.
        const releasedBy = latest(at, appears);
        const key = { run_id: v.run_id, coach_id: v.coach_id, berth_no: v.berth_no, from_station: v.from_station };
        changes.push({ at: releasedBy, table: 'vacant_berths', key, set: { released_to_prs: true, released_at: at, released_by: v.released_by, rebooked: v.rebooked } });
        releasedInBase = due(releasedBy);
      }
    }
    if (due(appears)) base.vacant_berths.push(releasedInBase ? v : open);
  }

  // Coach deficiencies, five minutes after the report; a closing known by then comes with it, a later one is its
  // own record (five minutes after the closing), so the deficiency is OPEN until then.
  base.coach_deficiencies = [];
  for (const d of rows.coach_deficiencies) {
    const at = str(d.reported_at);
    const syncTime = later(at, 5);
    const closed = strOrNull(d.closed_at);
    const closedBySync = closed !== null && closed <= syncTime;
    const beat = beatOf(num(d.run_id), d.tte_id);
    const beatId = num(beat?.beat_id);
    const deficiencyId = num(d.deficiency_id);
    const sent = push(beat, syncTime, {
      id: `def${deficiencyId}`, type: 'DEFICIENCY', beatId, coachId: str(d.coach_id), category: str(d.category),
      description: str(d.description), stationCode: str(d.station_code), reportedAt: at, status: closedBySync ? 'CLOSED' : 'OPEN',
      closedAt: closedBySync ? closed : null, deficiencyId,
    });
    if (sent) {
      if (closed !== null && !closedBySync) {
        push(beat, later(closed, 5), { id: `defc${deficiencyId}`, type: 'DEFICIENCY_CLOSE', beatId, deficiencyId, closedAt: closed });
      }
      continue;
    }
    // No HHT on the beat: the lobby enters the report and its closing at their times.
    const open = { ...d, status: 'OPEN', closed_at: null };
    changes.push({ at, table: 'coach_deficiencies', insert: open });
    if (closed !== null) changes.push({ at: closed, table: 'coach_deficiencies', key: { deficiency_id: deficiencyId }, set: { status: 'CLOSED', closed_at: closed } });
    if (due(at)) base.coach_deficiencies.push(due(closed) ? d : open);
  }

  // Not from terminals: TDRs (filed with PRS), Rail Madad complaints, e-tickets dropped at charting. Each appears at
  // its time; a complaint's resolution and a dropped passenger's EFT (once that EFT is in) follow at theirs.
  base.tdrs = [];
  for (const t of rows.tdrs) {
    changes.push({ at: str(t.filed_at), table: 'tdrs', insert: t });
    if (due(str(t.filed_at))) base.tdrs.push(t);
  }
  base.complaints = [];
  for (const c of rows.complaints) {
    const resolved = strOrNull(c.resolved_at);
    const open = { ...c, status: 'OPEN', resolved_at: null };
    changes.push({ at: str(c.registered_at), table: 'complaints', insert: open });
    if (resolved !== null) changes.push({ at: resolved, table: 'complaints', key: { ref_no: c.ref_no }, set: { status: c.status, resolved_at: resolved } });
    if (due(str(c.registered_at))) base.complaints.push(due(resolved) ? c : open);
  }
  base.dropped_etickets = [];
  for (const d of rows.dropped_etickets) {
    const eftNo = strOrNull(d.eft_no);
    const found = eftNo === null ? null : (eftArrival.get(eftNo) ?? null);
    const notFound = { ...d, found_travelling: false, eft_no: null };
    changes.push({ at: str(d.dropped_at), table: 'dropped_etickets', insert: notFound });
    if (found !== null) changes.push({ at: found, table: 'dropped_etickets', key: { pnr: d.pnr, psgn_no: d.psgn_no }, set: { found_travelling: true, eft_no: eftNo } });
    if (due(str(d.dropped_at))) base.dropped_etickets.push(due(found) ? d : notFound);
  }

  // Charts: a run's chart times show once passed.
  const charts: PlannedChart[] = [];
  base.train_runs = rows.train_runs.map((r) => {
    const c = { runId: num(r.run_id), chart1At: strOrNull(r.chart1_at), chart2At: strOrNull(r.chart2_at), downloadAt: strOrNull(r.hht_download_at) };
    if (c.chart1At === null) return r;
    charts.push(c);
    const shown = (v: string | null): string | null => (v !== null && v <= until ? v : null);
    return { ...r, chart1_at: shown(c.chart1At), chart2_at: shown(c.chart2At), hht_download_at: shown(c.downloadAt) };
  });

  records.sort((a, b) => (a.syncTime < b.syncTime ? -1 : a.syncTime > b.syncTime ? 1 : 0));
  return { base, records, charts, changes };
}
