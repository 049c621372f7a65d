/**
 * One rule per fact, on a live day: the feed plays the day (records at their sync time, charts, TDR filings) and a
 * terminal syncs on top of it, and at three times of the day (morning, afternoon, 23:30 IST) every report says the
 * same thing about each fact: a passenger's mark, a berth given on board, when a vacancy starts, money collected,
 * the beat a payment belongs to, and the summaries read from rollups against the reports over the raw rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS } from '../support/db';
import { SEED_TODAY } from '../support/seeded';
import { loginAs } from '../support/login';
import { LIVE_DAY_TIMEOUT_MS, startLiveDay, type LiveDay } from '../support/live-day';
import { reportRows, type Row } from '../support/report-rows';
import { generateDay } from '../../src/server/demo/loader';
import { buildReference } from '../../src/server/demo/reference';
import { addDays } from '../../src/server/demo/runs';
import type { HhtRecord, IssuedCredential } from '../../src/shared/hht-sync';
import { applyChanges } from '../../src/server/demo/changes';

const SLOW = LIVE_DAY_TIMEOUT_MS;
const MIN = 60_000;
/** Morning, afternoon, late evening (IST). */
const STEPS = ['09:00', '15:00', '23:30'] as const;
const TODAY = SEED_TODAY;
const YESTERDAY = addDays(SEED_TODAY, -1);
const WEEK_START = addDays(SEED_TODAY, -6);

const sum = (rows: Row[], field: string): number => rows.reduce((s, r) => s + Number(r[field] ?? 0), 0);
const num = (v: unknown): number => Number(v ?? 0);

describe.each(TEST_DRIVERS)('one truth on a live day, on %s', (driver) => {
  let live: LiveDay;
  let seq = 0;

  const run = (id: string, tabId: string | undefined, values: Row): Promise<Row[]> => reportRows(live.t.db, id, tabId, values, TODAY);
  const q = async <T extends Row>(sql: string, params: unknown[] = []): Promise<T[]> => (await live.t.db.query<T>(sql, params)).rows;
  const now = (): Date => live.app.clock.now();
  const ago = (min: number): string => new Date(now().getTime() - min * MIN).toISOString();

  /** Syncs records as the beat's own terminal would (a credential issued for its HHT). */
  const syncAsDevice = async (deviceId: string, records: HhtRecord[]): Promise<void> => {
    const su = await loginAs(live.app, 'HHTSU');
    const issued = await live.app.inject({ method: 'POST', url: '/api/hht/credentials/issue', headers: su.headers(), payload: { deviceId } });
    expect(issued.statusCode, issued.body).toBe(200);
    const token = issued.json<IssuedCredential>().token;
    const res = await live.app.inject({
      method: 'POST', url: '/api/hht/sync', headers: { authorization: `Bearer ${token}` }, payload: { batchId: `truth-${++seq}`, records },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** A beat worked on an HHT in service, signed on by now, of a run of the given dates. */
  const activeBeat = async (dates: string[]): Promise<{ beat_id: number; run_id: number; device_id: string; coaches: string[]; train_no: string; start_date: string }> => {
    const rows = await q<{ beat_id: number; run_id: number; device_id: string; coaches: string[]; train_no: string; start_date: string }>(
      `SELECT b.beat_id, b.run_id, b.device_id, b.coaches, tr.train_no, tr.start_date::text AS start_date
         FROM beats b JOIN train_runs tr USING (run_id) JOIN devices d USING (device_id)
        WHERE d.status = 'IN_SERVICE' AND tr.start_date = ANY($1::date[]) AND b.sign_on_at IS NOT NULL AND b.sign_on_at < $2
        ORDER BY b.sign_off_at IS NULL DESC, tr.start_date DESC, b.beat_id LIMIT 1`,
      [dates, now().toISOString()],
    );
    const b = rows[0];
    if (!b) throw new Error(`no beat on an HHT signed on for ${dates.join(', ')}`);
    return { ...b, beat_id: Number(b.beat_id), run_id: Number(b.run_id) };
  };

  beforeAll(async () => {
    live = await startLiveDay(driver, STEPS[0]);
  }, SLOW);
  afterAll(async () => {
    await live?.stop();
  });

  describe.each(STEPS)('at %s IST', (hhmm) => {
    beforeAll(async () => {
      await live.moveTo(hhmm);
    }, SLOW);

    it("a passenger marked NT and later O (device time) is O in the TWR, TTE_TS, the Not Turned Up tab and Occupancy", async () => {
      const beat = await activeBeat([TODAY, YESTERDAY]);
      // An unmarked passenger of the beat's coaches whose PNR has no TDR (a TDR would rest on the NT).
      const p = (await q<{ psgn_id: number; coach_id: string }>(
        `SELECT p.psgn_id, p.coach_id FROM passengers p
          WHERE p.run_id = $1 AND p.coach_id = ANY($2) AND p.mark IS NULL AND p.current_status <> 'CAN'
            AND NOT EXISTS (SELECT 1 FROM tdrs td WHERE td.pnr = p.pnr)
            AND NOT EXISTS (SELECT 1 FROM checking_events ce WHERE ce.psgn_id = p.psgn_id)
          ORDER BY p.psgn_id LIMIT 1`,
        [beat.run_id, beat.coaches],
      ))[0];
      if (!p) throw new Error('no unmarked passenger');
      const psgnId = Number(p.psgn_id);
      // The NT syncs first; the O made later on the device syncs in a later batch.
      await syncAsDevice(beat.device_id, [{ id: `nt${psgnId}`, type: 'CHECK', beatId: beat.beat_id, eventType: 'NT', psgnId, coachId: p.coach_id, deviceTime: ago(30) }]);
      await syncAsDevice(beat.device_id, [{ id: `o${psgnId}`, type: 'CHECK', beatId: beat.beat_id, eventType: 'O', psgnId, coachId: p.coach_id, deviceTime: ago(10) }]);

      const runs = await q<{ train_no: string; d: string }>(
        'SELECT train_no, start_date::text AS d FROM train_runs WHERE start_date BETWEEN $1::date AND $2::date ORDER BY 1, 2', [YESTERDAY, TODAY],
      );
      for (const r of runs) {
        const where = { trainNo: r.train_no, startDate: r.d };
        const twr = await run('Train_Working_Report_BeatWise', undefined, where);
        const ntTab = await run('All_Passenger_Report', 'not-turned-up', where);
        const oTab = await run('All_Passenger_Report', 'turned-up', where);
        const occupancy = await run('Occupancy', undefined, where);
        const tte = await run('TTE_TS', undefined, { start_date: r.d, end_date: r.d, trainNo: r.train_no });
        const label = `${r.train_no} ${r.d}`;
        expect(sum(twr, 'nt'), `${label}: TWR NT vs Not Turned Up tab`).toBe(ntTab.length);
        expect(sum(tte, 'nt'), `${label}: TTE_TS NT`).toBe(ntTab.length);
        expect(sum(occupancy, 'nt'), `${label}: Occupancy NT`).toBe(ntTab.filter((x) => !String(x.current_status).startsWith('CAN')).length);
        expect(sum(twr, 'checked'), `${label}: TWR checked vs marked`).toBe(ntTab.length + oTab.length);
        if (r.train_no === beat.train_no && r.d === beat.start_date) {
          expect(oTab.some((x) => ntTab.every((y) => y.pnr !== x.pnr || y.psgn_no !== x.psgn_no))).toBe(true);
          expect(ntTab.filter((x) => String(x.marked_at) === ago(30))).toEqual([]);
        }
      }
    });

    it('a berth given on board by ALLOTMENT is vacant nowhere: Vacant Berths, Occupancy (and the card, below)', async () => {
      // An unsold or cancelled berth nobody holds, of a beat worked on an HHT, and a passenger of its class still without
      // a berth (no TDR on the PNR), on a run of the last three days.
      const found = (await q<{ beat_id: number; device_id: string; train_no: string; start_date: string; coach_id: string; berth_no: number;
        from_station: string; to_station: string; psgn_id: number }>(
        `SELECT b.beat_id, b.device_id, tr.train_no, tr.start_date::text AS start_date, vb.coach_id, vb.berth_no, vb.from_station,
                vb.to_station, w.psgn_id
           FROM beats b JOIN train_runs tr USING (run_id) JOIN devices d USING (device_id)
           JOIN vacant_berths vb ON vb.run_id = b.run_id AND vb.coach_id = ANY (b.coaches) AND vb.reason IN ('UNSOLD', 'CANCELLED') AND NOT vb.released_to_prs
           CROSS JOIN LATERAL (
                 SELECT p.psgn_id FROM passengers p
                  WHERE p.run_id = b.run_id AND p.class = vb.class AND p.coach_id IS NULL AND p.current_status <> 'CAN'
                    AND NOT EXISTS (SELECT 1 FROM tdrs td WHERE td.pnr = p.pnr) ORDER BY p.psgn_id LIMIT 1) w
          WHERE d.status = 'IN_SERVICE' AND tr.start_date BETWEEN $2::date - 1 AND $1::date AND b.sign_on_at < $3
            AND NOT EXISTS (SELECT 1 FROM passengers p WHERE p.run_id = vb.run_id AND p.coach_id = vb.coach_id AND p.berth_no = vb.berth_no
                               AND p.current_status <> 'CAN')
          ORDER BY tr.start_date DESC, b.beat_id, vb.coach_id, vb.berth_no LIMIT 1`,
        [TODAY, YESTERDAY, now().toISOString()],
      ))[0];
      if (!found) throw new Error('no unsold berth and waiting passenger on a beat worked on an HHT');
      const beat = { ...found, beat_id: Number(found.beat_id) };
      const vacancy = found;
      const waiting = found;
      const where = { trainNo: beat.train_no, startDate: beat.start_date };
      const occBefore = sum((await run('Occupancy', 'coachwise', where)).filter((c) => c.coach === vacancy.coach_id), 'vacant');
      const psgnId = Number(waiting.psgn_id);
      const stops = (await q<{ station_code: string; seq: number }>('SELECT station_code, seq FROM train_stops WHERE train_no = $1 ORDER BY seq', [beat.train_no]))
        .map((r) => ({ station: r.station_code, seq: Number(r.seq) }));
      const seq = new Map(stops.map((r) => [r.station, r.seq]));
      const at = (station: unknown): number => seq.get(String(station)) ?? Number.NaN;
      // The allotted journey: the vacant segment's first hop when it has more (the rest stays vacant), else all of it.
      const next = stops.find((r) => r.seq > at(vacancy.from_station))?.station ?? vacancy.to_station;
      const allotTo = at(next) < at(vacancy.to_station) ? next : vacancy.to_station;
      await syncAsDevice(beat.device_id, [{
        id: `ra${psgnId}`, type: 'ALLOTMENT', beatId: beat.beat_id, psgnId, coachId: vacancy.coach_id, berthNo: Number(vacancy.berth_no),
        fromStation: vacancy.from_station, toStation: allotTo, at: ago(5),
      }]);

      // No segment of the berth that overlaps the allotted journey is listed; what lies after it is.
      const vacant = await run('vacant_berths', undefined, where);
      const overlapping = vacant.filter((v) => v.coach === vacancy.coach_id && Number(v.berth_no) === Number(vacancy.berth_no)
        && at(v.vacant_from) < at(allotTo) && at(vacancy.from_station) < at(v.vacant_to));
      expect(overlapping).toEqual([]);
      if (allotTo !== vacancy.to_station) {
        expect(vacant.filter((v) => v.coach === vacancy.coach_id && Number(v.berth_no) === Number(vacancy.berth_no) && v.vacant_from === allotTo
          && v.vacant_to === vacancy.to_station)).toHaveLength(1);
      }
      const occAfter = sum((await run('Occupancy', 'coachwise', where)).filter((c) => c.coach === vacancy.coach_id), 'vacant');
      expect(occAfter).toBe(occBefore - 1);
    });

    it("the berths-released card's vacant and released counts are what Vacant Berths lists, for every run", async () => {
      for (const d of [YESTERDAY, TODAY]) {
        for (const card of await run('dash_release', undefined, { srcDate: d })) {
          const rows = await run('vacant_berths', undefined, { trainNo: String(card.train_no), startDate: d });
          expect(num(card.vacant), `${String(card.train_no)} ${d}: card vacant vs Vacant Berths`).toBe(rows.length);
          expect(num(card.released), `${String(card.train_no)} ${d}: card released`).toBe(rows.filter((v) => v.released_to_prs === 'YES').length);
        }
      }
    });

    it('a vacant segment exists only from the event that made it vacant', async () => {
      const runs = await q<{ train_no: string; d: string; run_id: number; charted: boolean }>(
        `SELECT train_no, start_date::text AS d, run_id, chart2_at IS NOT NULL AS charted FROM train_runs
          WHERE start_date BETWEEN $1::date AND $2::date ORDER BY 1, 2`,
        [addDays(TODAY, -3), addDays(TODAY, 1)],
      );
      const wrong: string[] = [];
      let seen = 0;
      for (const r of runs) {
        for (const v of await run('vacant_berths', undefined, { trainNo: r.train_no, startDate: r.d })) {
          seen += 1;
          const key = `${r.train_no} ${r.d} ${String(v.coach)}/${String(v.berth_no)} ${String(v.reason)} from ${String(v.vacant_from)}`;
          if (!r.charted) wrong.push(`${key}: before the chart`);
          if (v.reason === 'NT') {
            // Its holder (a passenger of that berth on that run) is marked NT, by an NT event in the database.
            const holders = await q(
              `SELECT 1 FROM passengers p WHERE p.run_id = $1 AND p.coach_id = $2 AND p.berth_no = $3 AND p.mark = 'NT'
                  AND EXISTS (SELECT 1 FROM checking_events ce WHERE ce.psgn_id = p.psgn_id AND ce.run_id = p.run_id AND ce.event_type = 'NT')`,
              [r.run_id, v.coach, v.berth_no],
            );
            if (holders.length === 0) wrong.push(`${key}: no holder marked NT`);
          }
          if (v.reason === 'GOT_DOWN') {
            const down = await q(
              `SELECT 1 FROM checking_events ce WHERE ce.run_id = $1 AND ce.event_type = 'GOT_DOWN' AND ce.coach_id = $2 AND ce.berth_no = $3
                  AND ce.station_code = $4 AND ce.device_time <= $5`,
              [r.run_id, v.coach, v.berth_no, v.vacant_from, now().toISOString()],
            );
            if (down.length === 0) wrong.push(`${key}: no got-down event`);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(seen).toBeGreaterThan(0);
    });

    it('money collected is SUCCESS payments everywhere; a card/UPI EFT without one is unpaid, never collected', async () => {
      const beat = await activeBeat([TODAY, YESTERDAY]);
      // A UPI EFT whose payment failed and a card EFT still pending: issued today, not collected.
      const eftNo = (k: string): string => `EFTRUTH${hhmm.replace(':', '')}${k}`;
      await syncAsDevice(beat.device_id, [
        {
          id: `eft-${eftNo('U')}`, type: 'EFT', beatId: beat.beat_id, eftNo: eftNo('U'), psgnName: 'Unpaid Passenger', fromStation: 'NDLS', toStation: 'BCT',
          reason: 'TICKETLESS', excessFare: 700, excessCharge: 700, total: 1400, paymentMode: 'UPI', issuedAt: ago(4),
          payments: [{ txnId: `UPI${eftNo('U')}`, amount: 1400, mode: 'UPI', status: 'FAILED', at: ago(3), posId: 'POSTRUTH' }],
        },
        {
          id: `eft-${eftNo('C')}`, type: 'EFT', beatId: beat.beat_id, eftNo: eftNo('C'), psgnName: 'Pending Passenger', fromStation: 'NDLS', toStation: 'BCT',
          reason: 'TICKETLESS', excessFare: 500, excessCharge: 500, total: 1000, paymentMode: 'CARD', issuedAt: ago(4),
          payments: [{ txnId: `POS${eftNo('C')}`, amount: 1000, mode: 'CARD', status: 'PENDING', at: ago(3), posId: 'POSTRUTH' }],
        },
      ]);
      // The definition, over the raw rows: collected = cash + card/UPI EFTs with a SUCCESS payment.
      const paid = `(e.payment_mode = 'CASH' OR EXISTS (SELECT 1 FROM digital_payments dp WHERE dp.eft_no = e.eft_no AND dp.status = 'SUCCESS'))`;
      const truth = async (from: string, to: string, group: string): Promise<Map<string, { amount: number; cash: number; digital: number; unpaid: number }>> => {
        const rows = await q<{ k: string; amount: string; cash: string; digital: string; unpaid: string }>(
          `SELECT ${group} AS k, sum(e.total) AS amount, COALESCE(sum(e.total) FILTER (WHERE e.payment_mode = 'CASH'), 0) AS cash,
                  COALESCE(sum(e.total) FILTER (WHERE e.payment_mode <> 'CASH' AND ${paid}), 0) AS digital,
                  COALESCE(sum(e.total) FILTER (WHERE NOT ${paid}), 0) AS unpaid
             FROM efts e WHERE ist_date(e.issued_at) BETWEEN $1::date AND $2::date GROUP BY 1`,
          [from, to],
        );
        return new Map(rows.map((r) => [r.k, { amount: num(r.amount), cash: num(r.cash), digital: num(r.digital), unpaid: num(r.unpaid) }]));
      };
      for (const [from, to] of [[TODAY, TODAY], [WEEK_START, TODAY]] as const) {
        const byDiv = await truth(from, to, 'e.div_code');
        expect([...byDiv.values()].some((v) => v.unpaid > 0)).toBe(true);
        const summary = await run('eft-summary', undefined, { start_date: from, end_date: to });
        expect(summary.length).toBe(byDiv.size);
        for (const s of summary) {
          const want = byDiv.get(String(s.div_code));
          const got = { amount: num(s.amount), cash: num(s.cash), digital: num(s.digital), unpaid: num(s.unpaid) };
          expect(got, `EFT Summary ${String(s.div_code)} ${from}..${to}`).toEqual(want);
        }
        const byTte = await truth(from, to, "e.tte_id || '|' || e.lobby_code");
        const tteRows = await run('eft-summary', 'tte-wise', { start_date: from, end_date: to });
        expect(tteRows.length).toBe(byTte.size);
        for (const s of tteRows) {
          const want = byTte.get(`${String(s.tte_id)}|${String(s.lobby_code)}`);
          const got = { amount: num(s.amount), cash: num(s.cash), digital: num(s.digital), unpaid: num(s.unpaid) };
          expect(got, `TTE-wise EFT Summary ${String(s.tte_id)} ${from}..${to}`).toEqual(want);
        }
        // EFT Report: every EFT says whether it was paid, and its collected amount.
        const efts = await run('eft_report', undefined, { start_date: from, end_date: to });
        const unpaidNos = new Set((await q<{ eft_no: string }>(
          `SELECT e.eft_no FROM efts e WHERE ist_date(e.issued_at) BETWEEN $1::date AND $2::date AND NOT ${paid}`, [from, to],
        )).map((r) => r.eft_no));
        expect(unpaidNos.has(eftNo('U')) && unpaidNos.has(eftNo('C'))).toBe(true);
        for (const e of efts) {
          const unpaid = unpaidNos.has(String(e.eft_no));
          expect(e.payment_status, String(e.eft_no)).toBe(unpaid ? 'UNPAID' : 'PAID');
          expect(num(e.collected), String(e.eft_no)).toBe(unpaid ? 0 : num(e.total));
        }
        const all = [...byDiv.values()];
        expect(sum(efts, 'collected')).toBe(all.reduce((s, v) => s + v.cash + v.digital, 0));
      }
      // Dashboard EFT card (today's collection) and its link.
      const today = [...(await truth(TODAY, TODAY, "'all'")).values()][0];
      const card = await run('dash_eft', undefined, { srcDate: TODAY });
      const valueField = 'collected';
      expect(sum(card, valueField)).toBe((today?.cash ?? 0) + (today?.digital ?? 0));
      expect(card.find((e) => e.eft_no === eftNo('U'))?.payment_status).toBe('UNPAID');
      // Digital Payments: the day's SUCCESS amounts are what the main view's SUCCESS rows add up to.
      const payments = await run('digitalpayment', undefined, { srcDate: TODAY });
      const success = await q<{ amount: string }>(
        `SELECT COALESCE(sum(amount), 0) AS amount FROM digital_payments WHERE status = 'SUCCESS' AND ist_date(txn_at) = $1::date`, [TODAY],
      );
      expect(sum(payments.filter((p) => p.status === 'SUCCESS'), 'amount')).toBe(num(success[0]?.amount));
    });

    it("Digital Payments' Sign On/Off tab counts each payment with the beat whose EFT it pays, whatever the date", async () => {
      // A payment taken after midnight (IST) for an EFT of a beat signed on the day before.
      const overnight = (await q<{ eft_no: string; beat_id: number; device_id: string; sign_on_at: Date }>(
        `SELECT e.eft_no, e.beat_id, b.device_id, b.sign_on_at FROM efts e JOIN beats b USING (beat_id) JOIN devices d ON d.device_id = b.device_id
          WHERE d.status = 'IN_SERVICE' AND ist_date(b.sign_on_at) = $1::date - 1 AND e.payment_mode = 'CASH' AND e.issued_at < $2
          ORDER BY e.eft_no LIMIT 1`,
        [TODAY, now().toISOString()],
      ))[0];
      const midnight = new Date(`${TODAY}T00:00:00+05:30`).getTime();
      if (overnight) {
        const beatId = Number(overnight.beat_id);
        const eftNo = `EFTNIGHT${hhmm.replace(':', '')}`;
        await syncAsDevice(overnight.device_id, [{
          id: `eft-${eftNo}`, type: 'EFT', beatId, eftNo, psgnName: 'Night Passenger', fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS',
          excessFare: 400, excessCharge: 400, total: 800, paymentMode: 'UPI', issuedAt: new Date(midnight - 10 * MIN).toISOString(),
          payments: [{ txnId: `UPI${eftNo}`, amount: 800, mode: 'UPI', status: 'SUCCESS', at: new Date(midnight + 20 * MIN).toISOString(), posId: 'POSNIGHT' }],
        }]);
      }
      const nightly = await q<{ n: number }>(
        `SELECT count(*)::int AS n FROM digital_payments dp JOIN efts e USING (eft_no) JOIN beats b ON b.beat_id = e.beat_id
          WHERE ist_date(dp.txn_at) <> ist_date(b.sign_on_at) AND ist_date(b.sign_on_at) BETWEEN $1::date - 3 AND $1::date`,
        [TODAY],
      );
      expect(num(nightly[0]?.n)).toBeGreaterThan(0);
      let compared = 0;
      for (const d of [-3, -2, -1, 0]) {
        const srcDate = addDays(TODAY, d);
        for (const row of await run('digitalpayment', 'sign-on-off', { srcDate })) {
          const own = (await q<{ n: number; amount: string }>(
            `SELECT count(*)::int AS n, COALESCE(sum(dp.amount) FILTER (WHERE dp.status = 'SUCCESS'), 0) AS amount
               FROM digital_payments dp JOIN efts e USING (eft_no) JOIN beats b ON b.beat_id = e.beat_id WHERE b.sign_on_id = $1`,
            [row.sign_on_id],
          ))[0];
          const label = `${String(row.sign_on_id)} on ${srcDate}`;
          expect(num(row.txn_count), label).toBe(num(own?.n));
          expect(num(row.digital_amount), label).toBeCloseTo(num(own?.amount), 2);
          const listed = await run('digitalpayment', undefined, { srcDate: String(row.src_date), signOnId: String(row.sign_on_id) });
          expect(listed.length, `${label}: its link`).toBe(num(row.txn_count));
          if (listed.length > 0) compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });

    it('TDR Summary says what TDR Details lists, after the feed filed and charted more', async () => {
      const from = addDays(TODAY, -7);
      // Besides what the feed filed by now, a filing and a refund through the feed's own path (PRS changes).
      const pnr = (await q<{ pnr: string; run_id: number; zone_code: string; div_code: string }>(
        `SELECT p.pnr, p.run_id, tr.zone_code, tr.div_code FROM pnrs p JOIN train_runs tr USING (run_id)
          WHERE tr.start_date = $1::date - 1 AND NOT EXISTS (SELECT 1 FROM tdrs td WHERE td.pnr = p.pnr) ORDER BY p.pnr LIMIT 1`,
        [TODAY],
      ))[0];
      const refund = (await q<{ tdr_id: string }>("SELECT tdr_id FROM tdrs WHERE status IN ('FILED', 'ATTESTED') ORDER BY tdr_id LIMIT 1"))[0];
      if (!pnr || !refund) throw new Error('no PNR without a TDR, or no TDR to refund');
      const at = now().toISOString();
      await live.t.db.transaction((tx) => applyChanges(tx, [
        { at, table: 'tdrs', insert: {
          tdr_id: `TDRTRUTH${hhmm.replace(':', '')}`, pnr: pnr.pnr, run_id: pnr.run_id, reason: 'OTHER', coach_id: null, class: '3A', filed_at: ago(1),
          certificate_no: null, tte_remark: null, status: 'FILED', refund_amount: null, zone_code: pnr.zone_code, div_code: pnr.div_code,
        } },
        { at, table: 'tdrs', key: { tdr_id: refund.tdr_id }, set: { status: 'REFUNDED', refund_amount: 1234 } },
      ]));
      const details = await run('tdrService', undefined, { start_date: from, end_date: TODAY });
      const summary = await run('tdrsummary', undefined, { start_date: from, end_date: TODAY });
      expect(details.length).toBeGreaterThan(0);
      expect(sum(summary, 'tdrs')).toBe(details.length);
      expect(sum(summary, 'filed')).toBe(details.filter((d) => d.status === 'FILED').length);
      expect(sum(summary, 'refund_amount')).toBeCloseTo(sum(details.filter((d) => d.status === 'REFUNDED'), 'refund_amount'), 2);
    });

    it('TTE Manning says what TTE Sign On/Off says, also after a device SIGN_ON and after a restart', async () => {
      const compare = async (label: string): Promise<void> => {
        const beats = await run('TTE_TS', undefined, { start_date: addDays(TODAY, -3), end_date: TODAY });
        const want = new Map<string, { on: number | null; off: number | null }>();
        for (const b of beats) {
          const duty = b.sign_on_at ? new Date(Date.parse(String(b.sign_on_at)) + 330 * MIN).toISOString().slice(0, 10) : String(b.start_date).slice(0, 10);
          if (duty !== TODAY) continue;
          const key = `${String(b.lobby_code)}|${String(b.tte_id)}`;
          const w = want.get(key) ?? { on: null, off: null };
          const on = b.sign_on_at ? Date.parse(String(b.sign_on_at)) : null;
          const off = b.sign_off_at ? Date.parse(String(b.sign_off_at)) : null;
          if (on !== null) w.on = w.on === null ? on : Math.min(w.on, on);
          if (off !== null) w.off = w.off === null ? off : Math.max(w.off, off);
          want.set(key, w);
        }
        const manning = await run('ttemanning', undefined, { srcDate: TODAY });
        expect(manning.length, label).toBe(want.size);
        for (const m of manning) {
          const w = want.get(`${String(m.lobby)}|${String(m.tte_id)}`);
          const got = { on: m.first_sign_on ? Date.parse(String(m.first_sign_on)) : null, off: m.last_sign_off ? Date.parse(String(m.last_sign_off)) : null };
          expect(got, `${label}: ${String(m.tte_id)}`).toEqual(w);
        }
      };
      await compare('as the feed left it');
      // A terminal signs on a beat of today that has not signed on yet (the beat's own HHT).
      const waiting = (await q<{ beat_id: number; device_id: string }>(
        `SELECT b.beat_id, b.device_id FROM beats b JOIN train_runs tr USING (run_id) JOIN devices d USING (device_id)
          WHERE d.status = 'IN_SERVICE' AND tr.start_date = $1::date AND b.sign_on_at IS NULL ORDER BY b.beat_id LIMIT 1`,
        [TODAY],
      ))[0];
      if (waiting) {
        const beatId = Number(waiting.beat_id);
        await syncAsDevice(waiting.device_id, [{ id: `son-truth-${beatId}`, type: 'SIGN_ON', beatId, at: ago(2) }]);
        await compare('after a device SIGN_ON');
      }
      if (hhmm === STEPS[STEPS.length - 1]) {
        // A restart: a new server process on the same database, with its own feed.
        await live.restart();
        await compare('after a restart');
      }
    });

    it('the Passengers card counts what the All Passenger Report lists, after charting', async () => {
      // Besides the charts the feed applied by now, a chart change through the feed's own path: an unmarked passenger
      // of today's run charted as cancelled.
      const psgn = (await q<{ psgn_id: number }>(
        `SELECT p.psgn_id FROM passengers p JOIN train_runs tr USING (run_id)
          WHERE tr.start_date = $1::date AND p.mark IS NULL AND p.current_status <> 'CAN' AND p.coach_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM tdrs td WHERE td.pnr = p.pnr) ORDER BY p.psgn_id DESC LIMIT 1`,
        [TODAY],
      ))[0];
      if (!psgn) throw new Error('no unmarked passenger today');
      await live.t.db.transaction((tx) => applyChanges(tx, [
        { at: now().toISOString(), table: 'passengers', key: { psgn_id: psgn.psgn_id }, set: { current_status: 'CAN' } },
      ]));
      for (const d of [YESTERDAY, TODAY]) {
        const card = await run('dash_psgn_count', undefined, { srcDate: d });
        expect(card.length).toBeGreaterThan(0);
        for (const c of card) {
          const all = await run('All_Passenger_Report', undefined, { trainNo: String(c.train_no), startDate: d });
          const label = `${String(c.train_no)} ${d}`;
          expect(num(c.passengers), `${label}: passengers`).toBe(all.filter((p) => p.current_status !== 'CAN').length);
          expect(num(c.not_turned_up), `${label}: NT`).toBe(all.filter((p) => p.current_status !== 'CAN' && p.mark === 'NT').length);
        }
      }
    });

    it('the demo data can be true: TDR certificates, NOT_TRAVELLED TDRs, reallocations and berth charges', async () => {
      const badCert = await q(
        `SELECT td.tdr_id FROM tdrs td WHERE td.certificate_no LIKE 'EF%'
            AND NOT EXISTS (SELECT 1 FROM efts e WHERE e.eft_no = td.certificate_no AND e.pnr = td.pnr AND e.run_id = td.run_id)`,
      );
      expect(badCert).toEqual([]);
      const travelled = await q(
        `SELECT td.tdr_id FROM tdrs td WHERE td.reason = 'NOT_TRAVELLED'
            AND EXISTS (SELECT 1 FROM passengers p WHERE p.run_id = td.run_id AND p.pnr = td.pnr AND p.mark = 'O')`,
      );
      expect(travelled).toEqual([]);
      const badRealloc = await q(
        `SELECT ra.realloc_id FROM reallocations ra WHERE ra.eft_no IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM efts e JOIN passengers p ON p.psgn_id = ra.psgn_id AND p.run_id = ra.run_id
                             WHERE e.eft_no = ra.eft_no AND e.reason = 'BERTH_CHARGE' AND e.pnr = ra.pnr AND e.psgn_name = p.name)`,
      );
      expect(badRealloc).toEqual([]);
      // In the database too, at every moment: a berth charge arrives after its allotment and names it.
      const orphanCharges = await q(
        `SELECT e.eft_no FROM efts e WHERE e.reason = 'BERTH_CHARGE' AND NOT EXISTS (SELECT 1 FROM reallocations ra WHERE ra.eft_no = e.eft_no)`,
      );
      expect(orphanCharges).toEqual([]);
      // Every berth charge of the generator's window has its reallocation (the complete rows, before any sync).
      if (hhmm === STEPS[0]) {
        const ref = buildReference('tiny');
        const orphans: string[] = [];
        for (let d = addDays(TODAY, -30); d <= TODAY; d = addDays(d, 1)) {
          const rows = generateDay(ref, d, TODAY);
          const named = new Set(rows.reallocations.map((r) => String(r.eft_no)));
          for (const e of rows.efts) if (e.reason === 'BERTH_CHARGE' && !named.has(String(e.eft_no))) orphans.push(String(e.eft_no));
        }
        expect(orphans).toEqual([]);
      }
    });
  });
});
