import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join } from 'node:path';
import pg from 'pg';
import { loginOverHttp } from './tests/support/login';
import { freePort } from './tests/support/server';
const port = await freePort(); const base = `http://127.0.0.1:${port}`;
const url = 'postgresql://postgres@127.0.0.1:55432/hht_bench_load';
const server = spawn(process.execPath, [...(process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'dist/server/main.js'], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: url, HHT_WORKERS: '1', HHT_SEED: 'demo', HHT_SEED_SCALE: 'small', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn', HHT_REPORT_CACHE_MS: '0', HHT_FEED: 'off', HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'x-')) }, stdio: ['ignore', 'pipe', 'pipe'] });
let out = ''; server.stdout.on('data', (d) => (out += d)); server.stderr.on('data', (d) => (out += d));
await new Promise<void>((r) => { const i = setInterval(() => { if (out.includes('ready')) { clearInterval(i); r(); } }, 100); });
const auth = (await loginOverHttp(base, 'HHTSU')).headers();
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<number> => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const req = httpRequest(`${base}${path}`, { method, agent, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => { res.resume(); res.on('end', () => resolve(performance.now() - t0)); });
  req.on('error', reject); req.end(body);
});
const body = JSON.stringify({ trainNo: '12002', start_date: new Date().toISOString().slice(0, 10) });
const med = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1]!.toFixed(3);
const pool = new pg.Pool({ connectionString: url, max: 2 });
const N = Number(process.env.N ?? 400);
const r: Record<string, number[]> = { health: [], profile: [], report: [], sqlTrivial: [] };
for (let i = 0; i < N; i++) {
  r.health!.push(await call('GET', '/api/health'));
  r.profile!.push(await call('GET', '/api/userprofile', undefined, auth));
  r.report!.push(await call('POST', '/api/chart-load-new', body, auth));
  const t0 = performance.now(); await pool.query('SELECT 1'); r.sqlTrivial!.push(performance.now() - t0);
}
console.log(Object.entries(r).map(([k, v]) => `${k} ${med(v.slice(20))}`).join(' | '));
await pool.end(); agent.destroy(); server.kill('SIGTERM'); await new Promise((r) => setTimeout(r, 1500));
