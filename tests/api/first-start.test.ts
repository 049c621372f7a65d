/**
 * A first start on a fresh folder answers before its data is ready: while the database is migrated and the demo data
 * prepared, /api/health says "seeding" (503), every page says what is happening and how far, and other API calls get a
 * 503 with the same sentence; then the portal itself answers on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/server';
import { serverReady } from '../support/server-ready';

interface Seen {
  status: number;
  body: string;
}

const get = async (url: string): Promise<Seen | undefined> => {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return undefined; // not listening yet
  }
};

describe('a first start on a fresh folder', () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'hht-first-start-'));
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGTERM');
      setTimeout(() => child?.kill('SIGKILL'), 10_000).unref();
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the preparing page and "seeding" health before the data is ready, then the portal', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: process.cwd(),
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', HHT_DATA_DIR: dataDir, HHT_FEED: 'off', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ready = serverReady(child, { timeoutMs: 480_000 });
    let isReady = false;
    void ready.then(() => (isReady = true), () => undefined);

    const healths: { status: number; body: Record<string, unknown> }[] = [];
    const pages: string[] = [];
    const apiCalls: Seen[] = [];
    // Poll until the ready line: health, a page and an API call, as a browser and a load balancer would.
    while (!isReady && child.exitCode === null) {
      const [h, page, api] = await Promise.all([get(`${base}/api/health`), get(`${base}/reports/nullTWR`), get(`${base}/api/menu`)]);
      if (h && h.status === 503) healths.push({ status: h.status, body: JSON.parse(h.body) as Record<string, unknown> });
      if (page && page.body.includes('role="status"')) pages.push(page.body);
      if (api && api.status === 503) apiCalls.push(api);
      await new Promise((r) => setTimeout(r, 50));
    }
    await ready;

    expect(healths.length).toBeGreaterThan(0);
    // "seeding" while the database and the data are prepared, "starting" while the app itself is built.
    for (const h of healths) expect(['seeding', 'starting']).toContain(h.body.status);
    expect(healths.some((h) => h.body.status === 'seeding')).toBe(true);
    // How far: at least one answer names the day being prepared.
    const days = healths.filter((h) => h.body.status === 'seeding' && typeof h.body.day === 'number');
    expect(days.length).toBeGreaterThan(0);
    expect(days.some((h) => /^Preparing the demo data: day \d+ of \d+$/.test(String(h.body.message)))).toBe(true);
    expect(days.every((h) => Number(h.body.day) >= 1 && Number(h.body.day) <= Number(h.body.days))).toBe(true);

    expect(pages.length).toBeGreaterThan(0);
    expect(pages.some((p) => /Preparing the demo data: day \d+ of \d+/.test(p))).toBe(true);
    expect(pages[0]).toContain('<meta http-equiv="refresh"');
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(JSON.parse(apiCalls[0]?.body ?? '{}')).toMatchObject({ message: expect.stringMatching(/^Preparing the /) as unknown });

    // Then the portal answers on the same port: health ok, the SPA instead of the preparing page.
    const after = await get(`${base}/api/health`);
    expect(after?.status).toBe(200);
    expect(JSON.parse(after?.body ?? '{}')).toEqual({ status: 'ok' });
    const page = await get(`${base}/reports/nullTWR`);
    expect(page?.body).not.toContain('Preparing the');
  }, 540_000);
});
