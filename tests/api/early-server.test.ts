/**
 * The server a start listens with before its app is ready (process/early-server.ts): what health, API calls and pages
 * answer at each step, and the hand-over to the app on the same socket.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenEarly, type EarlyServer } from '../../src/server/process/early-server';
import { testConfig } from '../support/app';

describe('the early server of a start', () => {
  let early: EarlyServer | undefined;
  afterEach(async () => {
    await early?.close();
    early = undefined;
  });
  const start = async (): Promise<string> => {
    early = await listenEarly(testConfig({ port: 0, host: '127.0.0.1' }));
    return `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;
  };

  it('says "seeding" and how far on health, the API and every page, then hands the socket to the app', async () => {
    const base = await start();
    let health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'seeding', message: 'Preparing the database' });

    early?.onSeedProgress({ day: 12, days: 32, step: 'day' });
    health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('2');
    expect(await health.json()).toEqual({ status: 'seeding', message: 'Preparing the demo data: day 12 of 32', day: 12, days: 32 });

    const api = await fetch(`${base}/api/menu`, { method: 'POST', body: '{}' });
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ error: 'Service Unavailable', message: 'Preparing the demo data: day 12 of 32' });

    const page = await fetch(`${base}/reports/nullTWR?x=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<p role="status">Preparing the demo data: day 12 of 32</p>');
    expect(html).toContain('<progress max="100" value="34"');
    expect(html).toContain('<meta http-equiv="refresh" content="2">');

    early?.onSeedProgress({ day: 32, days: 32, step: 'records' });
    expect(await (await fetch(`${base}/api/health`)).json()).toMatchObject({ status: 'seeding', message: 'Preparing the demo data: finishing' });
    if (early) early.state.phase = 'starting';
    expect(await (await fetch(`${base}/api/health`)).json()).toMatchObject({ status: 'starting', message: 'Starting the portal' });

    early?.handOver((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
