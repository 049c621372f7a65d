import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const CRUISER = join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const FORMATTER = join(REPO, 'node_modules/dependency-cruiser/bin/depcruise-fmt.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

/**
 * dependency-cruiser as `npm run lint` runs it, on a folder of `cwd`: its violations (JSON report), and the exit
 * status and text of the error report the lint prints, formatted from the same result.
 */
function cruise(cwd: string, folder: string): { violations: Violation[]; status: number | null; text: string } {
  const out = join(mkdtempSync(join(tmpdir(), 'hht-cruise-')), 'cruise.json');
  try {
    const run = spawnSync(process.execPath, [CRUISER, folder, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--output-to', out], { cwd, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`dependency-cruiser did not run: ${run.stderr}`);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { summary: { violations: Violation[] } };
    const err = spawnSync(process.execPath, [FORMATTER, out, '--output-type', 'err', '--exit-code'], { cwd, encoding: 'utf8' });
    return { violations: report.summary.violations, status: err.status, text: err.stdout };
  } finally {
    rmSync(dirname(out), { recursive: true, force: true });
  }
}

/** Imports planted in a copy of src/, each against one rule of .dependency-cruiser.cjs. */
const PLANTED: Record<string, string> = {
  // Two files of the database layer importing each other (db/index.ts already imports db/types.ts).
  'src/server/db/types.ts+': "\nexport * from './index';\n",
  'src/server/db/probe-up.ts': "import { IngestError } from '../hht/ingest';\nexport const probe = IngestError;\n",
  'src/server/hht/probe-demo.ts': "import type { Feed } from '../demo/feed';\nexport type Probe = Feed;\n",
  'src/server/routes/probe-app.ts': "import { buildApp } from '../app';\nexport const probe = buildApp;\n",
  'src/shared/probe-client.ts': "import { tokens } from '../client/lib/api';\nexport const probe = tokens;\n",
  'src/client/probe-server.ts': "import { MIN_RETENTION_DAYS } from '../server/config';\nexport const probe = MIN_RETENTION_DAYS;\n",
  // One client feature importing another (the app joins features).
  'src/client/features/saved-views/probe-reports.ts': "import type { ReportPageState } from '../reports/report-actions';\nexport type Probe = ReportPageState;\n",
  // A circle of three closed by a type-only import and an import().
  'src/shared/ring-one.ts': "export { two } from './ring-two';\nexport const one = 1;\n",
  'src/shared/ring-two.ts': "import type { Three } from './ring-three';\nexport const two: Three | 2 = 2;\n",
  'src/shared/ring-three.ts': "export type Three = 3;\nexport const lazy = () => import('./ring-one');\n",
};

// Each cruise reads the whole source tree: seconds on a loaded 2-core machine.
describe('the import check (dependency-cruiser)', { timeout: 180_000 }, () => {
  let copy: string;
  let planted: ReturnType<typeof cruise>;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'hht-import-check-'));
    cpSync(join(REPO, 'src'), join(copy, 'src'), { recursive: true });
    for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json']) cpSync(join(REPO, file), join(copy, file));
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    for (const [path, text] of Object.entries(PLANTED)) {
      if (path.endsWith('+')) appendFileSync(join(copy, path.slice(0, -1)), text);
      else writeFileSync(join(copy, path), text);
    }
    planted = cruise(copy, 'src');
  }, 180_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("passes on the project's own source", () => {
    const own = cruise(REPO, 'src');
    expect(own.violations).toEqual([]);
    expect(own.status, own.text).toBe(0);
  });

  it('fails on the planted imports, each under its rule', () => {
    expect(planted.status).not.toBe(0);
    for (const rule of ['no-circular', 'db-below-domain', 'hht-below-demo', 'routes-below-app', 'shared-is-pure', 'client-never-imports-server', 'features-apart']) {
      expect(planted.text).toContain(rule);
    }
    const found = (rule: string): string[] => planted.violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} -> ${v.to}`);
    expect(found('db-below-domain')).toEqual(['src/server/db/probe-up.ts -> src/server/hht/ingest.ts']);
    expect(found('hht-below-demo')).toEqual(['src/server/hht/probe-demo.ts -> src/server/demo/feed.ts']);
    expect(found('routes-below-app')).toEqual(['src/server/routes/probe-app.ts -> src/server/app.ts']);
    expect(found('shared-is-pure')).toEqual(['src/shared/probe-client.ts -> src/client/lib/api.ts']);
    expect(found('client-never-imports-server')).toEqual(['src/client/probe-server.ts -> src/server/config.ts']);
    expect(found('features-apart')).toEqual(['src/client/features/saved-views/probe-reports.ts -> src/client/features/reports/report-actions.ts']);
  });

  it('fails on a two-file cycle and on a longer one closed by a type-only import and an import()', () => {
    // Each cycle as the files it passes through, starting from the file reported.
    const cycles = planted.violations.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)]);
    const ring = ['src/shared/ring-one.ts', 'src/shared/ring-two.ts', 'src/shared/ring-three.ts'];
    expect(cycles.some((c) => c.includes('src/server/db/types.ts') && c.includes('src/server/db/index.ts'))).toBe(true);
    expect(cycles.some((c) => ring.every((f) => c.includes(f)))).toBe(true);
    // Nothing but circles through the planted imports.
    for (const c of cycles) expect(c.includes('src/server/db/types.ts') || ring.some((f) => c.includes(f)), c.join(' -> ')).toBe(true);
  });
});
