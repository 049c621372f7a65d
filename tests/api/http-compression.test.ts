import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { randomIp } from '../support/login';
import { pickEncoding } from '../../src/server/http/compress';

/** The body as the browser sees it after undoing Content-Encoding. */
function decoded(res: LightMyRequestResponse): Buffer {
  const enc = res.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(res.rawPayload);
  if (enc === 'gzip') return gunzipSync(res.rawPayload);
  if (enc !== undefined) throw new Error(`unexpected content-encoding ${String(enc)}`);
  return res.rawPayload;
}

const varies = (res: LightMyRequestResponse): boolean => /accept-encoding/i.test(String(res.headers.vary ?? ''));

// A client folder shaped like Vite's output, precompressed by the same script `npm run build` runs.
const clientDir = mkdtempSync(join(tmpdir(), 'hht-client-'));
const script = 'console.log("IR-HHT Portal");\n'.repeat(400);
const indexHtml = `<!doctype html><html><head><title>IR-HHT</title></head><body>${'<div class="x"></div>'.repeat(100)}</body></html>`;
const themeCss = '.p-button { color: red; }\n'.repeat(200);
beforeAll(() => {
  mkdirSync(join(clientDir, 'assets'));
  mkdirSync(join(clientDir, 'themes', 'lara'), { recursive: true });
  writeFileSync(join(clientDir, 'index.html'), indexHtml);
  writeFileSync(join(clientDir, 'assets', 'index-Bx12abCD.js'), script);
  writeFileSync(join(clientDir, 'assets', 'tiny-Ab12cdEF.js'), 'x();');
  writeFileSync(join(clientDir, 'themes', 'lara', 'theme.css'), themeCss);
  execFileSync(process.execPath, ['scripts/precompress.mjs', clientDir]);
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

describe('precompress script', () => {
  it('writes .br and .gz next to each compressible file that decode to it, and skips tiny files', () => {
    const file = join(clientDir, 'assets', 'index-Bx12abCD.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);
    expect(existsSync(join(clientDir, 'assets', 'tiny-Ab12cdEF.js.br'))).toBe(false);
  });
});

describe('choice of encoding', () => {
  it('prefers br, honours q values and refusals', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe.each(TEST_DRIVERS)('compression and cache headers on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildTestApp(t.db, { config: { clientDir } });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['identity', undefined],
    [undefined, undefined],
  ])('a hashed asset asked with Accept-Encoding %s comes as %s, cached for a year, same bytes', async (accept, expected) => {
    const res = await app.inject({
      method: 'GET', url: '/assets/index-Bx12abCD.js', headers: accept === undefined ? {} : { 'accept-encoding': accept },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res)).toBe(true);
    expect(decoded(res).toString()).toBe(script);
    if (expected) expect(res.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('a file without a hash in its name (theme CSS) is revalidated each time, and compressed', async () => {
    const res = await app.inject({ method: 'GET', url: '/themes/lara/theme.css', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(decoded(res).toString()).toBe(themeCss);
  });

  it.each(['/', '/layout/uikit/vacant_berths', '/index.html'])('the app page at %s is no-store and compressed', async (url) => {
    for (const [accept, expected] of [['br', 'br'], ['gzip', 'gzip'], ['', undefined]] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-encoding']).toBe(expected);
      expect(varies(res)).toBe(true);
      expect(decoded(res).toString()).toBe(indexHtml);
    }
  });

  it('API JSON above 1 KB is compressed as negotiated, no-store, and decodes to the same JSON', async () => {
    const ip = randomIp();
    const bodies: unknown[] = [];
    for (const [accept, expected] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['br;q=0, gzip;q=0', undefined]] as const) {
      const res = await app.inject({ method: 'GET', url: '/api/captcha', headers: { 'accept-encoding': accept, 'x-forwarded-for': ip } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(varies(res)).toBe(true);
      const json = JSON.parse(decoded(res).toString()) as { captchaId: string; imageDataUrl: string };
      expect(json.imageDataUrl).toMatch(/^data:image\/svg\+xml/);
      expect(decoded(res).length).toBeGreaterThan(1024);
      if (expected) expect(res.rawPayload.length).toBeLessThan(decoded(res).length);
      bodies.push(json);
    }
    expect(bodies).toHaveLength(3);
  });

  it('small API JSON goes out as it is, still no-store', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('a JSON error above 1 KB is compressed too and keeps its status', async () => {
    const res = await app.inject({
      method: 'GET', url: `/api/a/b/${'x'.repeat(1500)}`, headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(res).toString()).message).toContain('x'.repeat(1500));
  });
});
