import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DRIVERS, createTestDb, type TestDb } from '../support/db';
import { freePort } from '../support/server';
import { serverReady } from '../support/server-ready';
import { openDb, type Db } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { ensureSeeded } from '../../src/server/demo';
import { issueCredential } from '../../src/server/hht/credentials';
import type { HhtRecord } from '../../src/shared/hht-sync';

const SLOW = 600_000;

/** The real server as a child process, so it can be killed with SIGKILL mid-stream. */
async function serve(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', HHT_SEED: 'none', HHT_FEED: 'off', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await serverReady(child);
  return { url: `http://127.0.0.1:${port}`, child };
}

const killed = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe.each(TEST_DRIVERS)('sync batches across a kill -9 on %s', (driver) => {
  let t: TestDb | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  let token: string;
  let deviceId: string;
  let beatId: number;
  let psgns: number[];

  const open = async (): Promise<Db> => (t ? t.db : openDb({ dataDir: dataDir ?? null }));

  beforeAll(async () => {
    let db: Db;
    if (driver === 'pg') {
      t = await createTestDb('pg');
      db = t.db;
      env = { DATABASE_URL: t.url ?? '' };
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'hht-kill-'));
      db = await openDb({ dataDir });
      await migrate(db);
      env = { HHT_DATA_DIR: dataDir };
    }
    await ensureSeeded(db, { scale: 'tiny', today: '2026-03-15', log: () => undefined });
    // A beat of the seed's today, so the records' times (that day) lie in its run's window.
    const beat = (await db.query<{ beat_id: number; run_id: number; device_id: string; coaches: string[] }>(
      `SELECT b.beat_id, b.run_id, b.device_id, b.coaches FROM beats b JOIN devices d USING (device_id) JOIN train_runs r ON r.run_id = b.run_id
       WHERE d.status = 'IN_SERVICE' AND r.start_date = '2026-03-15' ORDER BY b.beat_id LIMIT 1`,
    )).rows[0];
    if (!beat) throw new Error('no beat with a device in service');
    [deviceId, beatId] = [beat.device_id, Number(beat.beat_id)];
    // Passengers of the beat's own coaches: a device checks only those.
    psgns = (await db.query<{ id: number }>('SELECT psgn_id AS id FROM passengers WHERE run_id = $1 AND coach_id = ANY($2)', [beat.run_id, beat.coaches])).rows.map((r) => Number(r.id));
    token = (await issueCredential(db, deviceId, 'TEST', new Date())).token;
    if (driver === 'pglite') await db.close(); // the server owns the embedded database files
  }, SLOW);
  afterAll(async () => {
    await t?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const batch = (n: number): { batchId: string; records: HhtRecord[] } => ({
    batchId: `kill-${n}`,
    records: Array.from({ length: 50 }, (_, i) => ({
      id: `k${n}-${i}`, type: 'CHECK', beatId, eventType: 'O', psgnId: psgns[(n * 50 + i) % psgns.length] ?? null,
      deviceTime: new Date(Date.UTC(2026, 2, 15, 6, 0, i)).toISOString(),
    })),
  });

  it('stores every acknowledged batch exactly once after the server is killed mid-stream and restarted', async () => {
    const first = await serve(env);
    const acked = new Set<number>();
    let next = 0;
    let stop = false;
    const send = async (url: string, n: number): Promise<number> => {
      const res = await fetch(`${url}/api/hht/sync`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch(n)),
      });
      return res.status;
    };
    // Four terminals' worth of batches in flight at once until the kill.
    const workers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const n = next++;
        try {
          if ((await send(first.url, n)) === 200) acked.add(n);
        } catch {
          return; // connection reset by the kill: not acknowledged
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    await killed(first.child);
    stop = true;
    await Promise.all(workers);
    const sent = next;
    expect(acked.size).toBeGreaterThan(0);

    const second = await serve(env);
    try {
      // The terminals resend what they did not see acknowledged (and, to be sure, everything else too).
      for (let n = 0; n < sent; n++) expect(await send(second.url, n)).toBe(200);
    } finally {
      await killed(second.child);
    }
    const db = await open();
    try {
      const q = async (sql: string, p: unknown[]): Promise<number> => Number((await db.query<{ n: number }>(sql, p)).rows[0]?.n);
      for (const n of acked) {
        expect(await q("SELECT count(*)::int AS n FROM hht_records WHERE device_id = $1 AND batch_id = $2", [deviceId, `kill-${n}`])).toBe(50);
      }
      // Exactly once: one event per record sent, whichever attempt stored it.
      expect(await q("SELECT count(*)::int AS n FROM hht_records WHERE device_id = $1 AND record_id LIKE 'k%'", [deviceId])).toBe(sent * 50);
      expect(await q("SELECT count(*)::int AS n FROM checking_events WHERE beat_id = $1 AND event_id >= 100000000000000000", [beatId])).toBe(sent * 50);
    } finally {
      if (driver === 'pglite') await db.close();
    }
  }, SLOW);
});
