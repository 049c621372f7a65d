/**
 * `npm run bench -- --section replicas [--database-url P --replica-urls R1,R2]`: the per-read cost of replica routing
 * (src/server/db/replicas.ts) and of a replica failing. Without URLs it starts its own primary and pg_basebackup
 * replica on 127.0.0.1 (tests/support/pg-cluster.ts) and also measures a stopped replica. Interleaved rounds,
 * medians, as ratios to the same report session on the primary with no routing.
 */
import pg from 'pg';
import { openDb, type Db } from '../../src/server/db';
import { openPg } from '../../src/server/db/pg-driver';
import { migrate } from '../../src/server/db/migrate';
import { withReplicas, type RoutedDb } from '../../src/server/db/replicas';
import { startPrimaryWithReplica, waitForReplay, withDatabase, type PrimaryWithReplica } from '../support/pg-cluster';

const SQL = 'SELECT zone_code, name FROM zones WHERE zone_code = $1';
const read = (db: Db) => db.reportSession(15_000, (q) => q.query(SQL, ['NR']));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function benchReplicas(primaryArg?: string, replicaArg?: string, rounds = 7, calls = 300): Promise<void> {
  let cluster: PrimaryWithReplica | undefined;
  let primaryUrl = primaryArg;
  let replicaUrls = replicaArg?.split(',').filter(Boolean) ?? [];
  if (!primaryUrl || replicaUrls.length === 0) {
    cluster = await startPrimaryWithReplica();
    const admin = new pg.Client({ connectionString: cluster.primaryUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE hht_replica_bench');
    await admin.end();
    primaryUrl = withDatabase(cluster.primaryUrl, 'hht_replica_bench');
    replicaUrls = [withDatabase(cluster.replicaUrl, 'hht_replica_bench')];
  }
  try {
    const setup = await openDb({ databaseUrl: primaryUrl, dataDir: null });
    await migrate(setup);
    await setup.query("INSERT INTO zones (zone_code, name) VALUES ('NR', 'Northern Railway') ON CONFLICT DO NOTHING");
    await setup.close();
    for (const r of replicaUrls) await waitForReplay(primaryUrl, withDatabase(r, 'postgres'), new URL(primaryUrl).pathname.slice(1));

    const plain = await openPg(primaryUrl);
    const onReplica = await openPg(replicaUrls[0] ?? '');
    const lag = await withReplicas(await openPg(primaryUrl), { urls: replicaUrls, maxLagMs: 2000 });
    const strict = await withReplicas(await openPg(primaryUrl), { urls: replicaUrls, maxLagMs: 0 });
    const ways: Record<string, Db> = {
      'primary, no routing': plain,
      'replica, opened directly': onReplica,
      'routed, max lag 2000 ms (replica)': lag,
      'routed, strict (max lag 0)': strict,
    };
    const perCall: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
    for (const db of Object.values(ways)) await read(db);
    for (let r = 0; r < rounds; r += 1) {
      for (const [name, db] of Object.entries(ways)) {
        const t0 = performance.now();
        for (let i = 0; i < calls; i += 1) await read(db);
        perCall[name]?.push(((performance.now() - t0) * 1000) / calls);
      }
    }
    const base = median(perCall['primary, no routing'] ?? []);
    console.log(`\n## Read replicas: cost per report read (${rounds} interleaved rounds of ${calls} calls, medians)\n`);
    console.log('| way | µs per read | vs primary |\n|---|---:|---:|');
    for (const [name, xs] of Object.entries(perCall)) console.log(`| ${name} | ${median(xs).toFixed(0)} | ${(median(xs) / base).toFixed(2)}x |`);
    const served = (db: RoutedDb) => JSON.stringify(db.replicas.counts());
    console.log(`\nreads served: lag mode ${served(lag)}; strict ${served(strict)}`);

    if (cluster) {
      // A replica stopped under a router that has not probed since: the first read fails over (retry on the
      // primary), later ones skip the replica until the back-off ends.
      const unprobed = await withReplicas(await openPg(primaryUrl), { urls: replicaUrls, maxLagMs: 2000, probeIntervalMs: 3_600_000 });
      await read(unprobed);
      await cluster.stopReplica();
      let t0 = performance.now();
      await read(unprobed);
      const firstMs = performance.now() - t0;
      t0 = performance.now();
      for (let i = 0; i < calls; i += 1) await read(unprobed);
      const afterUs = ((performance.now() - t0) * 1000) / calls;
      console.log(`\nstopped replica: first read (fails on the replica, retried on the primary) ${firstMs.toFixed(1)} ms; next ${calls} reads ${afterUs.toFixed(0)} µs each; ${served(unprobed)}`);
      await unprobed.close();
      await cluster.startReplica();
    }
    for (const db of Object.values(ways)) await db.close();
  } finally {
    await cluster?.stop();
  }
}
