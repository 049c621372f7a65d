import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db';
import { freePort, startServer, type RunningServer } from '../support/server';
import { LOCK_FILE } from '../../src/server/process/data-dir-lock';

/** GET on a new connection each time (no keep-alive), so that the kernel may hand it to any worker. */
function get(port: number, path: string): Promise<{ status: number; pid: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, pid: res.headers['x-hht-pid'] as string | undefined, body }));
    });
    req.on('error', reject);
    // A connection handed to a worker that was just killed never answers: give up on it, the caller retries.
    req.setTimeout(5_000, () => req.destroy(new Error('no answer in 5 s')));
    req.end();
  });
}

/** Runs src/server/main.ts to its end (a refused start exits at once) and returns its exit code and output. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`condition not met in ${timeoutMs} ms`);
}

describe('one server per embedded data folder', () => {
  let first: RunningServer | undefined;
  afterAll(async () => {
    await first?.stop();
  });

  it('runs one process with HHT_WORKERS=2 on PGlite and says why, and refuses a second server on the same folder', async () => {
    first = await startServer({ HHT_SEED: 'none', HHT_WORKERS: '2' });
    expect(first.output()).toContain(
      'IR-HHT Portal runs 1 server process, not 2: the embedded database (PGlite) can be opened by one process only; set DATABASE_URL to use HHT_WORKERS',
    );
    expect(readFileSync(join(first.dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(first.pid));

    const second = await runToExit({ PORT: String(await freePort()), HHT_SEED: 'none', HHT_DATA_DIR: first.dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toEqual([
      `IR-HHT Portal cannot start: the data folder ${first.dataDir} is in use by another IR-HHT Portal server (pid ${first.pid}); stop it or set HHT_DATA_DIR to another folder`,
    ]);
    // The first server is untouched and still owns the folder.
    expect((await get(first.port, '/api/health')).status).toBe(200);
    expect(readFileSync(join(first.dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(first.pid));

    const dataDir = first.dataDir;
    await first.stop();
    first = undefined;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false); // released on a clean stop
  }, 240_000);

  it('takes over a lock left by a server that died', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hht-data-stale-'));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    expect(alive(deadPid)).toBe(false);
    writeFileSync(join(dataDir, LOCK_FILE), `${deadPid}\n`);
    const server = await startServer({ HHT_SEED: 'none', HHT_DATA_DIR: dataDir, HHT_WORKERS: '1' });
    try {
      expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(server.pid));
      expect((await get(server.port, '/api/health')).status).toBe(200);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('several server processes on PostgreSQL', () => {
  let t: TestDb | undefined;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    await t?.drop();
  });

  it('two workers share the port and both answer; a killed worker is replaced; SIGTERM stops them all', async () => {
    t = await createTestDb('pg');
    server = await startServer({ HHT_SEED: 'none', HHT_WORKERS: '2', DATABASE_URL: t.url ?? '' });
    expect(server.output()).toContain('2 worker processes');
    const running = server;

    const seen = new Set<string>();
    await waitFor(async () => {
      const res = await get(running.port, '/api/health');
      expect(res.status).toBe(200);
      if (res.pid) seen.add(res.pid);
      return seen.size === 2;
    }, 30_000);
    const pids = [...seen].map(Number);
    expect(pids).not.toContain(running.pid);

    // A worker that dies is restarted: a third pid answers, the other worker keeps its own.
    process.kill(pids[0] ?? 0, 'SIGKILL');
    await waitFor(async () => {
      const res = await get(running.port, '/api/health').catch(() => undefined);
      if (res?.pid) seen.add(res.pid);
      return seen.size === 3;
    }, 150_000).catch((err: unknown) => {
      throw new Error(`${String(err)}; pids seen ${[...seen].join(', ')}; server output:\n${running.output()}`);
    }); // a worker starts in 10-40 s on this shared machine
    expect(running.output()).toMatch(/worker \d \(pid \d+\) died \(SIGKILL\); restarting it/);
    const workers = [...seen].map(Number).filter(alive);
    expect(workers).toHaveLength(2);

    await running.stop();
    server = undefined;
    expect(running.output()).toContain('SIGTERM received: stopping 2 workers');
    await waitFor(() => workers.every((pid) => !alive(pid)), 15_000);
  }, 480_000); // a loaded 2-core machine takes tens of seconds to start each worker under tsx
});
