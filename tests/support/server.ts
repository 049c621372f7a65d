import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverReady } from './server-ready';

export interface RunningServer {
  url: string;
  port: number;
  /** Process id of the server (the primary when HHT_WORKERS > 1). */
  pid: number;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const madeHere = new Set<string>();

/**
 * Starts the real server (src/server/main.ts) as a child process on 127.0.0.1 and a free port, and waits for
 * its ready line. Test hooks are on. Extra env (DATABASE_URL, HHT_ROOT_DIR, ...) passes through.
 */
export async function startServer(env: Record<string, string> = {}, timeoutMs = 180_000): Promise<RunningServer> {
  // A port the caller chose (a developer's own range on a shared machine), else any free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.HHT_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'hht-data-'));
  // A data folder this module made is removed when the server stops (a seeded one is hundreds of MB).
  const owned = env.HHT_DATA_DIR === undefined || madeHere.has(dataDir);
  const cleanUp = (): void => {
    if (owned) rmSync(dataDir, { recursive: true, force: true });
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HHT_DATA_DIR: dataDir,
      HHT_TEST_HOOKS: '1',
      // Browser tests read the complete planned data; the live feed is tested in tests/api/hht-feed.test.ts.
      HHT_FEED: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await serverReady(child, { timeoutMs, onExit: cleanUp });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    dataDir,
    output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          cleanUp();
          return resolve();
        }
        child.once('exit', () => {
          cleanUp();
          resolve();
        });
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/**
 * A data folder holding only the schema and the demo users, for a server started with HHT_SEED=none that a test
 * must still sign in to (seeding a data set would cost tens of seconds).
 */
export async function dataDirWithDemoUsers(): Promise<string> {
  const { openDb } = await import('../../src/server/db');
  const { migrate } = await import('../../src/server/db/migrate');
  const { insertDemoUsers } = await import('../../src/server/auth/demo-users');
  const dir = mkdtempSync(join(tmpdir(), 'hht-data-users-'));
  madeHere.add(dir);
  const db = await openDb({ dataDir: dir });
  await migrate(db);
  await insertDemoUsers(db);
  await db.close();
  return dir;
}
