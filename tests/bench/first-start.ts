/**
 * The whole first start, `npm start` on an empty data folder, of this tree and of another (an older checkout with
 * its own node_modules), interleaved: `tsx tests/bench/first-start.ts --baseline-tree DIR [--rounds 3] [--port 9451]
 * [--database-url URL]`. Each start runs `npm run build` and then the server with a fresh HHT_DATA_DIR (or, with
 * --database-url, a fresh database on that server), and stops the server once it says it is ready. Prints, per start,
 * the build's wall and CPU time, when the port was listening, the seed's own figure, when it was ready, the CPU time
 * of the server (every thread, from /proc/self/stat's children times), and the load average; then the medians.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const baseline = arg('baseline-tree');
if (!baseline) throw new Error('--baseline-tree DIR is needed (a checkout to compare with, built or not)');
const rounds = Number(arg('rounds') ?? 3);
const port = Number(arg('port') ?? 9451);
const databaseUrl = arg('database-url');
const trees: [string, string][] = [['old', resolve(baseline)], ['new', process.cwd()]];

/** CPU seconds of this process's finished children (user + system), from /proc/self/stat. */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
  // After the command name: field 16 cutime and 17 cstime are the 14th and 15th here (state is field 3).
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

interface Start { tree: string; buildS: number; buildCpu: number; listenS: number; seedS: number; readyS: number; cpuS: number; load: string }

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

async function firstStart(tree: string, dir: string): Promise<Omit<Start, 'tree' | 'load'>> {
  const c0 = childrenCpu();
  const b0 = performance.now();
  const build = spawnSync('npm', ['run', 'build'], { cwd: dir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build of ${dir} failed: ${build.stderr}`);
  const buildS = (performance.now() - b0) / 1000;
  const c1 = childrenCpu();
  const dataDir = `/tmp/seed-first-start-${tree}`;
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HHT_DATA_DIR: dataDir };
  if (databaseUrl) env.DATABASE_URL = await freshDatabase(`seed_first_start_${tree}`);
  else delete env.DATABASE_URL;
  const t0 = performance.now();
  const server = spawn(process.execPath, ['dist/server/main.js'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let listenS = NaN;
  let seedS = NaN;
  let out = '';
  const readyS = await new Promise<number>((done, fail) => {
    const onLine = (chunk: Buffer): void => {
      out += chunk.toString();
      if (Number.isNaN(listenS) && out.includes(' listening on ')) listenS = (performance.now() - t0) / 1000;
      const seed = /seed: done in ([\d.]+) s/.exec(out);
      if (seed) seedS = Number(seed[1]);
      if (out.includes(' ready on ')) done((performance.now() - t0) / 1000);
    };
    server.stdout.on('data', onLine);
    server.stderr.on('data', onLine);
    server.once('exit', (code) => fail(new Error(`server of ${dir} ended with ${code}:\n${out.slice(-2000)}`)));
  });
  server.removeAllListeners('exit');
  const exited = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await exited;
  return { buildS, buildCpu: c1 - c0, listenS, seedS, readyS, cpuS: childrenCpu() - c1 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const starts: Start[] = [];
console.log(`first start, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${rounds} rounds, ${new Date().toISOString()}`);
console.log('| start | build s (CPU) | listening s | seed s | ready s | server CPU s | load average |\n|---|---:|---:|---:|---:|---:|---|');
for (let r = 0; r < rounds; r++) {
  // Alternate which tree goes first, so neither always follows the other's leftovers.
  for (const [tree, dir] of r % 2 === 0 ? trees : [...trees].reverse()) {
    const before = load();
    const s = await firstStart(tree, dir);
    const row: Start = { tree, ...s, load: `${before} -> ${load()}` };
    starts.push(row);
    console.log(`| ${tree} ${r + 1} | ${s.buildS.toFixed(1)} (${s.buildCpu.toFixed(1)}) | ${s.listenS.toFixed(2)} | ${s.seedS.toFixed(1)} | ${s.readyS.toFixed(1)} | ${s.cpuS.toFixed(1)} | ${row.load} |`);
  }
}
console.log('\n| tree | median build s | median seed s | median ready s | median build + ready s | median server CPU s |\n|---|---:|---:|---:|---:|---:|');
for (const [tree] of trees) {
  const mine = starts.filter((s) => s.tree === tree);
  const m = (f: (s: Start) => number): string => median(mine.map(f)).toFixed(1);
  console.log(`| ${tree} | ${m((s) => s.buildS)} | ${m((s) => s.seedS)} | ${m((s) => s.readyS)} | ${m((s) => s.buildS + s.readyS)} | ${m((s) => s.cpuS)} |`);
}
