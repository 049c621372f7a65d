/**
 * `npm run bench -- --profile --database-url URL [--db-name NAME] [--seconds N] [--date YYYY-MM-DD]
 * [--uncached]`: where the built server spends
 * its CPU under load. Starts dist/server with ONE process (HHT_WORKERS=1) under `node --cpu-prof`, signs in,
 * runs wrk (50 connections) on getVacantBerths, stops the server (SIGTERM: the profile is written at exit) and
 * prints self time by package/file and the top functions. The database must be seeded (run `--load` once).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loginOverHttp } from '../support/login';
import { freePort } from '../support/server';
import { sampleFilter } from '../support/sample-filters';
import { openDb } from '../../src/server/db';
import { istDate } from '../../src/server/clock';
import { checkDefinitions } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { serverReady } from '../support/server-ready';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Where a frame's code lives: an npm package, our own file, Node itself, or the engine (GC, idle, program). */
export function frameArea(url: string, functionName: string): string {
  if (!url) return `(${functionName.replace(/[()]/g, '') || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').split('/').slice(0, 2).join('/');
  const own = /\/(dist|src)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

/** Self time (ms) by area and by function, from the samples. */
export function summarise(profile: CpuProfile): { totalMs: number; areas: [string, number][]; functions: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    totalMs += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = frameArea(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${area}:${lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + ms);
  });
  const sorted = (m: Map<string, number>): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs, areas: sorted(areas), functions: sorted(fns) };
}

const adminUrl = arg('database-url') ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('--profile needs PostgreSQL: pass --database-url or set TEST_DATABASE_URL');
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${arg('db-name') ?? 'hht_bench_load'}`;
const seconds = Number(arg('seconds') ?? '10');
const profDir = mkdtempSync(join(tmpdir(), 'hht-prof-'));

execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, 'dist/server/main.js'], {
  env: {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), HHT_WORKERS: '1',
    HHT_SEED: 'none', HHT_FEED: 'off', HHT_TEST_HOOKS: '1', LOG_LEVEL: 'warn', HHT_DATA_DIR: mkdtempSync(join(tmpdir(), 'hht-unused-')),
    // --uncached: the report result cache off, so every call runs its SQL (the server's own cost per report call).
    ...(process.argv.includes('--uncached') ? { HHT_REPORT_CACHE_MS: '0' } : {}),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const output = await serverReady(server);
const headers = { 'Content-Type': 'application/json', ...(await loginOverHttp(base, 'HHTSU')).headers(), ...(arg('encoding') ? { 'Accept-Encoding': arg('encoding') } : {}) };
const db = await openDb({ databaseUrl: dbUrl.toString(), dataDir: null });
const report = checkDefinitions(readDefinitionFiles(process.cwd())).reports.find((r) => r.views.some((v) => v.endpoint === 'getVacantBerths'));
if (!report) throw new Error('no getVacantBerths report');
// --date YYYY-MM-DD: the day of the sample filter (default today in IST; just after midnight IST it has no rows yet).
const body = JSON.stringify(await sampleFilter(db, report, arg('date') ?? istDate(new Date())));
await db.close();
const lua = join(profDir, 'post.lua');
writeFileSync(lua, ['wrk.method = "POST"', `wrk.body = ${JSON.stringify(body)}`, ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)].join('\n'));
const probe = await fetch(`${base}/api/getVacantBerths`, { method: 'POST', headers, body });
console.log(`probe: ${probe.status}, ${(await probe.text()).length} bytes`);
const text = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '--latency', '-s', lua, `${base}/api/getVacantBerths`], { encoding: 'utf8' });
console.log(text.split('\n').filter((l) => /Requests\/sec|99%|50%|Non-2xx|Socket/.test(l)).join('\n'));
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));

const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written:\n${output()}`);
const s = summarise(JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile);
const top = Number(arg('top') ?? '40');
console.log(`\nprofile ${join(profDir, file)}: ${(s.totalMs / 1000).toFixed(1)} s sampled\n\n| area | self ms | % |\n|---|---:|---:|`);
for (const [a, ms] of s.areas.slice(0, 25)) console.log(`| ${a} | ${ms.toFixed(0)} | ${((100 * ms) / s.totalMs).toFixed(1)} |`);
console.log('\n| function | self ms | % |\n|---|---:|---:|');
for (const [f, ms] of s.functions.slice(0, top)) console.log(`| ${f} | ${ms.toFixed(0)} | ${((100 * ms) / s.totalMs).toFixed(1)} |`);
