// @vitest-environment jsdom
/**
 * The browser HTTP client (src/client/lib/api.ts) against the real server (a child process, test hooks on; its
 * auth clock is moved with the clock test hook). jsdom supplies window, document.cookie and sessionStorage;
 * Node supplies fetch. Two adapters stand in for what a browser does by itself: relative URLs resolve against the page
 * location, and the page's cookies go with same-origin requests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { loginOverHttp, type SignedIn } from '../support/login';
import { api, HTTPError, onSessionEnd, SessionEndedError, tokens, type SessionEnd } from '../../src/client/lib/api';
import { STORAGE_KEYS } from '../../src/shared/auth-contract';

/** vitest's jsdom environment exposes the JSDOM instance (no @types/jsdom here: only what we use). */
declare const jsdom: { reconfigure(options: { url: string }): void };

let server: RunningServer;
const nodeFetch = globalThis.fetch;
const advanceServerClock = async (ms: number): Promise<void> => {
  const res = await nodeFetch(`${server.url}/api/test-hooks/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  if (!res.ok) throw new Error(await res.text());
};
const calls: { method: string; path: string; status: number; auth: string | null; xsrf: string | null }[] = [];
const alerts: string[] = [];
const ends: SessionEnd[] = [];

beforeAll(async () => {
  server = await startServer({ HHT_SEED: 'demo', HHT_RATE_LIMITS: 'captcha=1000,login=1000,otp=1000' });
  jsdom.reconfigure({ url: `${server.url}/layout/dashboard` });
  const NodeRequest = globalThis.Request;
  class PageRequest extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
    }
  }
  globalThis.Request = PageRequest;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new PageRequest(input, init);
    if (new URL(req.url).origin === window.location.origin && document.cookie) req.headers.set('cookie', document.cookie);
    const res = await nodeFetch(req);
    calls.push({
      method: req.method, path: new URL(req.url).pathname, status: res.status,
      auth: req.headers.get('authorization'), xsrf: req.headers.get('x-xsrf-token'),
    });
    return res;
  };
  window.alert = (text?: unknown) => void alerts.push(String(text));
  onSessionEnd((end) => void ends.push(end));
});
afterAll(async () => {
  await server?.stop();
});

let s: SignedIn;
beforeEach(async () => {
  calls.length = 0;
  alerts.length = 0;
  ends.length = 0;
  s = await loginOverHttp(server.url, 'HHTSU', { fetch: nodeFetch });
  document.cookie = `XSRF-TOKEN=${s.xsrfToken}; path=/`;
  tokens.set({ accessToken: s.accessToken, refreshToken: s.refreshToken });
  // Different failures in a row must each be reported: step past the 3 s de-duplication window.
  await new Promise((r) => setTimeout(r, 3100));
});

describe('ky client against the real server', () => {
  it('sends the bearer token, and the XSRF header only on non-GET same-origin requests', async () => {
    await api.get('/api/userprofile').json();
    await api.post('/api/TrainManningData', { json: { userLevel: 'SU' } }).json();
    expect(calls.map((c) => [c.method, c.path, c.status, c.auth, c.xsrf])).toEqual([
      ['GET', '/api/userprofile', 200, `Bearer ${s.accessToken}`, null],
      ['POST', '/api/TrainManningData', 200, `Bearer ${s.accessToken}`, s.xsrfToken],
    ]);
  });

  it('concurrent calls with an expired token share one refresh, then all retry and succeed', async () => {
    await advanceServerClock(16 * 60_000);
    const results = await Promise.all([
      api.get('/api/userprofile').json<{ encryptedProfile: string }>(),
      api.post('/api/TrainManningData', { json: { userLevel: 'SU' } }).json<unknown[]>(),
      api.get('/api/userprofile').json<{ encryptedProfile: string }>(),
      api.post('/api/TrainManningData', { json: { userLevel: 'SU' } }).json<unknown[]>(),
      api.get('/api/userprofile').json<{ encryptedProfile: string }>(),
    ]);
    expect(results).toHaveLength(5);
    expect(calls.filter((c) => c.path === '/api/refreshToken').map((c) => c.status)).toEqual([200]);
    expect(calls.filter((c) => c.status === 401)).toHaveLength(5);
    const retried = calls.filter((c) => c.path !== '/api/refreshToken' && c.status === 200);
    expect(retried).toHaveLength(5);
    const newToken = tokens.access();
    expect(newToken).not.toBe(s.accessToken);
    expect(tokens.refresh()).not.toBe(s.refreshToken);
    for (const c of retried) expect(c.auth).toBe(`Bearer ${newToken}`);
    expect(ends).toEqual([]);
  });

  it('a superseded session: tokens cleared, alert, session end, error "Session invalid or superseded"', async () => {
    await loginOverHttp(server.url, 'HHTSU', { fetch: nodeFetch }); // signs in elsewhere
    const err = await api.get('/api/userprofile').json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('Session invalid or superseded');
    expect(alerts).toEqual(['Already Logged in with different session']);
    expect(ends.map((e) => e.reason)).toEqual(['superseded']);
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });

  it('403 forces logout with "Session expired, Please login again"', async () => {
    tokens.set({ accessToken: 'garbage', refreshToken: s.refreshToken });
    const err = await api.get('/api/userprofile').json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionEndedError);
    expect(ends).toEqual([{ reason: 'expired', message: 'Session expired, Please login again' }]);
    expect(tokens.access()).toBeNull();
    expect(alerts).toEqual([]);
  });

  it('a failed refresh forces logout, and every waiting call fails with it', async () => {
    tokens.set({ accessToken: s.accessToken, refreshToken: 'not-a-refresh-token' });
    await advanceServerClock(16 * 60_000);
    const errs = await Promise.all([api.get('/api/userprofile').json().catch((e: unknown) => e), api.get('/api/userprofile').json().catch((e: unknown) => e)]);
    for (const e of errs) expect(e).toBeInstanceOf(SessionEndedError);
    expect(calls.filter((c) => c.path === '/api/refreshToken').map((c) => c.status)).toEqual([403]);
    expect(ends).toEqual([{ reason: 'expired', message: 'Session expired, Please login again' }]);
    expect(tokens.access()).toBeNull();
  });

  it('other errors pass on unchanged', async () => {
    const err = await api.post('/api/TrainManningData', { json: { userLevel: 'XX' } }).json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HTTPError);
    expect((err as HTTPError).response.status).toBe(400);
    const notFound = await api.get('/api/no-such-route').json().catch((e: unknown) => e);
    expect((notFound as HTTPError).response.status).toBe(404);
    expect(ends).toEqual([]);
    expect(tokens.access()).toBe(s.accessToken);
  });
});
