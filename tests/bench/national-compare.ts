/**
 * `npm run bench -- --section national-compare --database-url URL --baseline-url URL2 --baseline-tree DIR
 *   [--rounds R] [--batches B] [--today YYYY-MM-DD]`
 *
 * Two national databases, each loaded by its own code: URL by this tree (`npm run seed -- --scale national`), URL2 by
 * an older checkout DIR (its own `npm run seed`). The national bench's summary and dashboard calls (national.ts) run
 * on both, each through its own tree's executor and definitions, interleaved call by call in one run, so the machine's
 * load hits both alike: p50/p95 each and the p95 ratio this / baseline. Then the write side: B batches of 200 CHECK
 * records (fresh passengers of one beat each, so every record is a new event) through each tree's validate + ingest
 * on its own database, alternating, median and p95 batch time. The batches stay in the databases (a few thousand
 * marks on a national day); run it on copies that may take them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as DbModule from '../../src/server/db';
import type * as DefinitionFilesModule from '../../src/server/reports/definition-files';
import type * as ValidateModule from '../../src/shared/definitions/validate';
import type * as FilterModule from '../../src/server/reports/filter';
import type * as ExecutorModule from '../../src/server/reports/executor';
import type * as DashboardModule from '../../src/shared/dashboard';
import type * as SampleModule from '../support/sample-filters';
import type * as IngestModule from '../../src/server/hht/ingest';
import type * as SyncValidateModule from '../../src/server/hht/validate';
import type { Db } from '../../src/server/db';
import type { CheckedReport, CheckedView } from '../../src/shared/definitions/validate';
import type { DashboardConfig } from '../../src/shared/dashboard';
import type { HhtRecord } from '../../src/shared/hht-sync';
import { istDate } from '../../src/server/clock';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The national bench's summaries (national.ts: the summary class), plus every dashboard card. */
const SUMMARIES = new Set([
  'syncDelaySummary', 'SyncDelayDateWise', 'Active_Users', 'TteManningReport', 'eftSummary', 'tteEftSummary', 'tdrSummary',
  'coachManningSummary', 'psgnCount7days',
]);
const SETTLE_CALLS = 18; // as national.ts: PostgreSQL's custom plans and a prepared-plan trial settle within these
const BATCH = 200;

/** The functions this bench uses from one tree; an older checkout exports them under the same names. */
interface Tree {
  label: string;
  root: string;
  db: typeof DbModule;
  files: typeof DefinitionFilesModule;
  validate: typeof ValidateModule;
  filter: typeof FilterModule;
  executor: typeof ExecutorModule;
  dashboard: typeof DashboardModule;
  sample: typeof SampleModule;
  ingest: typeof IngestModule;
  syncValidate: typeof SyncValidateModule;
}

/** Imports a module of a tree and checks that it exports the functions named (an older tree may lack one). */
async function load<T>(root: string, rel: string, names: string[]): Promise<T> {
  const mod = (await import(pathToFileURL(join(root, rel)).href)) as Record<string, unknown>;
  for (const n of names) if (typeof mod[n] !== 'function') throw new Error(`${join(root, rel)} exports no function ${n}`);
  return mod as T; // its exported functions were checked above; their signatures are the same in both trees
}

async function loadTree(label: string, root: string): Promise<Tree> {
  return {
    label,
    root,
    db: await load(root, 'src/server/db/index.ts', ['openDb']),
    files: await load(root, 'src/server/reports/definition-files.ts', ['readDefinitionFiles']),
    validate: await load(root, 'src/shared/definitions/validate.ts', ['checkDefinitions']),
    filter: await load(root, 'src/server/reports/filter.ts', ['parseFilter']),
    executor: await load(root, 'src/server/reports/executor.ts', ['runView', 'aggregateView', 'parseAggregate']),
    dashboard: await load(root, 'src/shared/dashboard.ts', ['cardAggregate']),
    sample: await load(root, 'tests/support/sample-filters.ts', ['sampleFilter']),
    ingest: await load(root, 'src/server/hht/ingest.ts', ['ingestBatch']),
    syncValidate: await load(root, 'src/server/hht/validate.ts', ['validateSyncRequest']),
  };
}

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? NaN;
};
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const f1 = (x: number): string => (Number.isNaN(x) ? '' : x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** One call of one tree: the summary or card as its page makes it (a stat card's `?aggregate=`, else the rows). */
type Call = (() => Promise<number>) & { asked?: string };

async function callsOf(tree: Tree, db: Db, today: string): Promise<Map<string, Call>> {
  const reports: CheckedReport[] = tree.validate.checkDefinitions(tree.files.readDefinitionFiles(tree.root)).reports;
  const cards = new Map((JSON.parse(readFileSync(join(tree.root, 'dashboard.json'), 'utf8')) as DashboardConfig).cards.map((c) => [c.endpoint, c] as const));
  const calls = new Map<string, Call>();
  for (const report of reports) {
    for (const view of report.views as CheckedView[]) {
      const card = cards.get(view.endpoint);
      if (!card && !SUMMARIES.has(view.endpoint)) continue;
      const values = tree.filter.parseFilter(report, await tree.sample.sampleFilter(db, report, today), today);
      const agg = card ? tree.dashboard.cardAggregate(card) : undefined;
      // Keyed by the view, not the figure asked: a card whose figure changed (a sum of another column) is still compared.
      const name = `${card ? 'dashboard' : 'summary'} | ${report.definition.id} / ${view.endpoint}`;
      const call: Call = agg
        ? async () => (await tree.executor.aggregateView(db, view, values, { kind: 'all' }, tree.executor.parseAggregate(agg), 120_000)).count
        : async () => (await tree.executor.runView(db, view, values, { kind: 'all' }, { timeoutMs: 120_000 })).total;
      calls.set(name, Object.assign(call, { asked: agg ? `?aggregate=${agg}` : 'rows' }));
    }
  }
  return calls;
}

interface Beat {
  beat_id: number;
  device_id: string;
  psgns: number[];
}

/** Beats of the day with a device and at least BATCH passengers not yet marked (among the first n * 400): one beat per batch. */
async function beatsFor(db: Db, today: string, n: number): Promise<Beat[]> {
  const lo = `(($1::date - DATE '2000-01-01')::bigint * 100000)`;
  const { rows } = await db.query<{ beat_id: number; device_id: string; psgns: number[] }>(
    `SELECT b.beat_id, b.device_id, (
            SELECT array_agg(p.psgn_id ORDER BY p.psgn_id) FROM passengers p
             WHERE p.run_id = b.run_id AND p.coach_id = ANY (b.coaches) AND p.marked_at IS NULL AND p.current_status <> 'CAN'
               AND p.run_id >= ${lo} AND p.run_id < ${lo} + 100000) AS psgns
       FROM beats b
      WHERE b.device_id IS NOT NULL AND b.run_id >= ${lo} AND b.run_id < ${lo} + 100000
      ORDER BY b.beat_id LIMIT $2`,
    [today, n * 400],
  );
  return rows.filter((r) => (r.psgns?.length ?? 0) >= BATCH).slice(0, n).map((r) => ({ ...r, psgns: r.psgns.map(Number) }));
}

function checkBatch(beat: Beat, tag: string, now: Date): HhtRecord[] {
  return beat.psgns.slice(0, BATCH).map((psgnId, i) => ({
    id: `${tag}-${beat.beat_id}-${i}`, type: 'CHECK' as const, beatId: beat.beat_id, eventType: i % 13 === 0 ? 'NT' as const : 'O' as const,
    psgnId, deviceTime: new Date(now.getTime() - (BATCH - i) * 1000).toISOString(),
  }));
}

async function syncOnce(tree: Tree, db: Db, beat: Beat, tag: string, now: Date): Promise<number> {
  const body = { batchId: `${tag}-${beat.beat_id}`, records: checkBatch(beat, tag, now) };
  const t0 = performance.now();
  const checked = tree.syncValidate.validateSyncRequest(JSON.parse(JSON.stringify(body)));
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors.slice(0, 3)));
  const answer = await tree.ingest.ingestBatch(db, { deviceId: beat.device_id, ...checked.request, receivedAt: now });
  const ms = performance.now() - t0;
  if (answer.stored !== BATCH) throw new Error(`${tree.label}: ${answer.stored} of ${BATCH} records stored`);
  return ms;
}

export async function benchNationalCompare(): Promise<void> {
  const url = arg('database-url');
  const baseUrl = arg('baseline-url');
  const baseRoot = arg('baseline-tree');
  if (!url || !baseUrl || !baseRoot) throw new Error('--section national-compare needs --database-url, --baseline-url and --baseline-tree');
  const rounds = Number(arg('rounds') ?? '40');
  const batches = Number(arg('batches') ?? '10');
  const today = arg('today') ?? istDate(new Date());
  const trees = [await loadTree('this tree', process.cwd()), await loadTree('baseline', baseRoot)] as const;
  const dbs = [await trees[0].db.openDb({ databaseUrl: url, dataDir: null }), await trees[1].db.openDb({ databaseUrl: baseUrl, dataDir: null })] as const;
  console.log(`# National summaries and dashboard, this tree on its load vs ${baseRoot} on its load (${today}, ${rounds} rounds, interleaved)`);
  console.log(`load average at start: ${loadavg()}\n`);
  try {
    const [mine, theirs] = [await callsOf(trees[0], dbs[0], today), await callsOf(trees[1], dbs[1], today)];
    console.log('| class | call | asked this / baseline | rows this / baseline | p50 ms this / baseline | p95 ms this / baseline | p95 ratio |\n|---|---|---|---|---|---|---:|');
    const ratios: number[] = [];
    for (const [name, a] of mine) {
      const b = theirs.get(name);
      if (!b) {
        console.log(`| ${name} | (not in the baseline) | | | |`);
        continue;
      }
      for (let i = 0; i < SETTLE_CALLS; i++) {
        await a();
        await b();
      }
      const ta: number[] = [];
      const tb: number[] = [];
      let ra = 0;
      let rb = 0;
      for (let i = 0; i < rounds; i++) {
        // Alternate which goes first, so neither always runs right after the other's cache warm-up.
        const order: [Call, number[], (n: number) => void][] = [[a, ta, (n) => { ra = n; }], [b, tb, (n) => { rb = n; }]];
        if (i % 2 === 1) order.reverse();
        for (const [call, times, rows] of order) {
          const t0 = performance.now();
          rows(await call());
          times.push(performance.now() - t0);
        }
      }
      const ratio = q(ta, 0.95) / q(tb, 0.95);
      ratios.push(ratio);
      console.log(`| ${name} | ${a.asked ?? ''} / ${b.asked ?? ''} | ${ra} / ${rb} | ${f1(q(ta, 0.5))} / ${f1(q(tb, 0.5))} | ${f1(q(ta, 0.95))} / ${f1(q(tb, 0.95))} | ${ratio.toFixed(2)} |`);
    }
    for (const name of theirs.keys()) if (!mine.has(name)) console.log(`| ${name} | (only in the baseline) | | | |`);
    console.log(`\np95 ratio this / baseline over ${ratios.length} calls: median ${q(ratios, 0.5).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; load average ${loadavg()}\n`);

    const now = new Date();
    const beatSets: [Beat[], Beat[]] = [await beatsFor(dbs[0], today, batches), await beatsFor(dbs[1], today, batches)];
    const n = Math.min(batches, beatSets[0].length, beatSets[1].length);
    const times: [number[], number[]] = [[], []];
    const tag = `cmp${Date.now().toString(36)}`;
    for (let i = 0; i < n; i++) {
      for (const k of i % 2 === 0 ? [0, 1] as const : [1, 0] as const) {
        const beat = beatSets[k][i];
        if (beat) times[k].push(await syncOnce(trees[k], dbs[k], beat, tag, now));
      }
    }
    console.log(`CHECK batches of ${BATCH} new marks (validate + ingest, rollups kept by each tree's own way), ${n} each, alternating:\n`);
    console.log('| tree | median ms/batch | p95 ms/batch | records/s (median) |\n|---|---:|---:|---:|');
    for (const k of [0, 1] as const) {
      const m = q(times[k], 0.5);
      console.log(`| ${trees[k].label} | ${f1(m)} | ${f1(q(times[k], 0.95))} | ${(BATCH / (m / 1000)).toFixed(0)} |`);
    }
    console.log(`\nmedian ratio this / baseline: ${(q(times[0], 0.5) / q(times[1], 0.5)).toFixed(2)}; load average at end: ${loadavg()}`);
  } finally {
    await dbs[0].close();
    await dbs[1].close();
  }
}
