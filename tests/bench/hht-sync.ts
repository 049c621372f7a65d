/**
 * `npm run bench -- --section sync [--database-url URL]`: device sync throughput (records/s, batches of 500,
 * idempotency on) on PGlite and, when a URL is given (or TEST_DATABASE_URL is set), on PostgreSQL; and the time
 * from a batch's arrival to its EFT appearing in the EFT report. Each driver gets a fresh tiny data set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { ensureSeeded } from '../../src/server/demo';
import { istDate } from '../../src/server/clock';
import { ingestBatch } from '../../src/server/hht/ingest';
import { validateSyncRequest } from '../../src/server/hht/validate';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView } from '../../src/server/reports/executor';
import type { HhtRecord } from '../../src/shared/hht-sync';

const BATCH = 500;
const BATCHES = 40;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Beat {
  beat_id: number;
  run_id: number;
  device_id: string;
  train_no: string;
  start_date: string;
  coaches: string[];
}

async function freshPg(baseUrl: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  const name = `hht_bench_sync_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), dataDir: null });
  return { db, drop: async () => { await db.close(); await admin(`DROP DATABASE ${name} WITH (FORCE)`); } };
}

/** A device's batch: marks of the beat's passengers (re-marks after the first pass), every 25th record an EFT paid by UPI. */
function batchFor(beat: Beat, psgns: number[], n: number, tag: string, now: Date): HhtRecord[] {
  const records: HhtRecord[] = [];
  const at = (i: number): string => new Date(now.getTime() - (BATCH - i) * 1000).toISOString();
  for (let i = 0; i < BATCH; i++) {
    const id = `${tag}-${n}-${i}`;
    if (i % 25 === 24) {
      const eftNo = `EFB${tag}${n}x${i}`;
      records.push({
        id, type: 'EFT', beatId: beat.beat_id, eftNo, psgnName: 'Bench Passenger', fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS',
        excessFare: 500, excessCharge: 250, total: 750, paymentMode: 'UPI', issuedAt: at(i),
        payments: [{ txnId: `UPB${tag}${n}x${i}`, amount: 750, mode: 'UPI', status: 'SUCCESS', at: at(i), posId: 'POSBENCH' }],
      });
    } else {
      records.push({ id, type: 'CHECK', beatId: beat.beat_id, eventType: i % 13 === 0 ? 'NT' : 'O', psgnId: psgns[(n * BATCH + i) % psgns.length] ?? null, deviceTime: at(i) });
    }
  }
  return records;
}

async function benchDriver(label: string, db: Db): Promise<void> {
  await migrate(db);
  const today = istDate(new Date());
  await ensureSeeded(db, { scale: 'tiny', today, log: () => undefined });
  const beats = (await db.query<Beat>(
    `SELECT b.beat_id, b.run_id, b.device_id, tr.train_no, tr.start_date, b.coaches FROM beats b JOIN train_runs tr USING (run_id)
     WHERE b.device_id IS NOT NULL AND tr.start_date = $1::date - 1 ORDER BY b.beat_id LIMIT 8`,
    [today],
  )).rows;
  const psgnsOf = new Map<number, number[]>();
  for (const b of beats) {
    // A device checks the passengers of its beat's coaches only.
    psgnsOf.set(b.beat_id, (await db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = ANY($2)', [b.run_id, b.coaches])).rows.map((r) => Number(r.id)));
  }
  const now = new Date();
  const times: number[] = [];
  let stored = 0;
  const started = performance.now();
  for (let n = 0; n < BATCHES; n++) {
    const beat = beats[n % beats.length];
    if (!beat) break;
    const body = { batchId: `bench-${n}`, records: batchFor(beat, psgnsOf.get(beat.beat_id) ?? [], n, label, now) };
    const t0 = performance.now();
    const checked = validateSyncRequest(JSON.parse(JSON.stringify(body))); // the route's work: parse and check
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors.slice(0, 3)));
    const answer = await ingestBatch(db, { deviceId: beat.device_id, ...checked.request, receivedAt: now });
    times.push(performance.now() - t0);
    stored += answer.stored;
  }
  const total = (performance.now() - started) / 1000;
  // Replays: the same batches again (same records: a batch id is held to them) store nothing and cost one lookup each.
  const replays = Array.from({ length: 10 }, (_, n) => beats[n % beats.length]).map((beat, n) =>
    beat ? { deviceId: beat.device_id, batchId: `bench-${n}`, records: batchFor(beat, psgnsOf.get(beat.beat_id) ?? [], n, label, now), receivedAt: now } : null,
  );
  const replayStart = performance.now();
  for (const replay of replays) if (replay) await ingestBatch(db, replay);
  const replayMs = (performance.now() - replayStart) / 10;

  // Sync to report: a batch with one EFT, then the EFT report of that train and day until the EFT is listed.
  const eftReport = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.definition.id === 'eft_report');
  const view = eftReport?.views[0];
  const lat: number[] = [];
  if (eftReport && view) {
    for (let k = 0; k < 5; k++) {
      const beat = beats[k % beats.length];
      if (!beat) break;
      const eftNo = `EFL${label}${k}`;
      const t0 = performance.now();
      await ingestBatch(db, {
        deviceId: beat.device_id, batchId: `lat-${k}`, receivedAt: now,
        records: [{ id: `lat-${k}`, type: 'EFT', beatId: beat.beat_id, eftNo, psgnName: 'Latency', fromStation: 'NDLS', toStation: 'BCT', reason: 'TICKETLESS', excessFare: 100, excessCharge: 250, total: 350, paymentMode: 'CASH', issuedAt: now.toISOString() }],
      });
      const filter = parseFilter(eftReport, { start_date: istDate(now), end_date: istDate(now), trainNo: beat.train_no }, today);
      // Newest first: the EFT report is paged on the server, and the EFT just synced is the day's latest.
      const r = await runView(db, view, filter, { kind: 'all' }, { timeoutMs: 60_000, sortBy: 'issued_at', sortDir: 'desc' });
      if (!r.rows.some((row) => row.eft_no === eftNo)) throw new Error('EFT not in the report after its sync');
      lat.push(performance.now() - t0);
    }
  }
  console.log(
    `| ${label} | ${stored} | ${(stored / total).toFixed(0)} | ${median(times).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${replayMs.toFixed(1)} | ${median(lat).toFixed(1)} |`,
  );
}

export async function benchSync(databaseUrl: string | undefined): Promise<void> {
  console.log(`# Device sync (POST /api/hht/sync's validate + ingest), ${BATCHES} batches of ${BATCH} records, 1 in 25 an EFT with a payment\n`);
  console.log('| driver | records stored | records/s | median ms/batch | max ms/batch | replay ms/batch | sync to EFT report ms (median of 5) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const lite = await openDb({ dataDir: null });
  await benchDriver('pglite', lite);
  await lite.close();
  const url = databaseUrl ?? process.env.TEST_DATABASE_URL;
  if (url) {
    const p = await freshPg(url);
    try {
      await benchDriver('postgresql', p.db);
    } finally {
      await p.drop();
    }
  } else {
    console.log('| postgresql | - | skipped: pass --database-url or set TEST_DATABASE_URL | | | | |');
  }
}
