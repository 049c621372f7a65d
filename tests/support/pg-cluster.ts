import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './server';

const run = promisify(execFile);

/** PostgreSQL server programs: PGBIN, else the Debian 15 folder. */
export const PG_BIN = process.env.PGBIN ?? '/usr/lib/postgresql/15/bin';
export const hasPgBinaries = (): boolean => ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => existsSync(join(PG_BIN, b)));

/** PostgreSQL refuses to run as root: as root, the programs run as the `postgres` user. */
const asPostgres = (program: string, args: string[]) =>
  process.getuid?.() === 0
    ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, program), ...args])
    : run(join(PG_BIN, program), args);

export interface PrimaryWithReplica {
  primaryUrl: string;
  replicaUrl: string;
  /** pg_ctl stop -m fast on the replica (its sessions end at once). */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both clusters and removes their folders. */
  stop(): Promise<void>;
}

const serverOptions = (port: number, sock: string) =>
  `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${sock} -c fsync=off -c hot_standby_feedback=on`;

/**
 * A throwaway primary (initdb; wal_level=replica and a replication line for 127.0.0.1 are initdb's defaults in 15)
 * and a streaming replica made from it with pg_basebackup -R, each on a free 127.0.0.1 port.
 */
export async function startPrimaryWithReplica(): Promise<PrimaryWithReplica> {
  const root = mkdtempSync(join(tmpdir(), 'hht-replica-test-'));
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const sock = root;
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const ctl = (dir: string, port: number, action: 'start' | 'stop') =>
    action === 'start'
      ? asPostgres('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-o', serverOptions(port, sock), 'start'])
      : asPostgres('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
  let primaryUp = false;
  let replicaUp = false;
  const stop = async (): Promise<void> => {
    if (replicaUp) await ctl(replicaDir, replicaPort, 'stop').catch(() => undefined);
    if (primaryUp) await ctl(primaryDir, primaryPort, 'stop').catch(() => undefined);
    replicaUp = primaryUp = false;
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    await ctl(primaryDir, primaryPort, 'start');
    primaryUp = true;
    await asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream']);
    await ctl(replicaDir, replicaPort, 'start');
    replicaUp = true;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    primaryUrl: `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgresql://postgres@127.0.0.1:${replicaPort}/postgres`,
    stopReplica: async () => {
      await ctl(replicaDir, replicaPort, 'stop');
      replicaUp = false;
    },
    startReplica: async () => {
      await ctl(replicaDir, replicaPort, 'start');
      replicaUp = true;
    },
    stop,
  };
}

/** The same server, another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Waits until a database created on the primary exists on a replica and the replica has replayed everything the
 * primary had flushed when called (a physical replica copies the whole cluster, CREATE DATABASE included).
 */
export async function waitForReplay(primaryUrl: string, replicaUrl: string, database: string, timeoutMs = 30_000): Promise<void> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  const replica = new pg.Client({ connectionString: withDatabase(replicaUrl, 'postgres') });
  await primary.connect();
  await replica.connect();
  try {
    const target = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn')).rows[0]?.lsn;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await replica.query<{ there: boolean; caught: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS there, pg_last_wal_replay_lsn() >= $2::pg_lsn AS caught',
        [database, target],
      );
      if (r.rows[0]?.there && r.rows[0].caught) return;
      if (Date.now() > deadline) throw new Error(`database ${database} not replayed on the replica within ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 20));
    }
  } finally {
    await primary.end();
    await replica.end();
  }
}
