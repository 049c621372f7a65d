import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
// A path held in a variable: the rules are plain JavaScript (ESLint loads them with its config), not typed modules.
const RULES_FILE = join(REPO, 'scripts/lint/import-rules.mjs');

let dir: string;
let eslint: ESLint;

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** rule id and message of every problem in one file of the fixture tree. */
async function problems(path: string): Promise<Array<{ rule: string | null; message: string; line: number }>> {
  const [result] = await eslint.lintFiles([join(dir, path)]);
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message, line: m.line }));
}

describe('the import rules on a tree of their own', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hht-import-rules-'));
    write({
      'src/pair/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/pair/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'src/ring/one.ts': "export { two } from './two';\nexport const one = 1;\n",
      'src/ring/two.ts': "import type { Three } from './three';\nexport const two: Three | 2 = 2;\n",
      'src/ring/three.ts': "export type Three = 3;\nexport const lazy = () => import('./one');\n",
      'src/self.ts': "import * as me from './self';\nexport const self = me;\n",
      'src/chain/top.ts': "import { mid } from './mid';\nexport const top = mid;\n",
      'src/chain/mid.ts': "import { low } from './low/index';\nexport const mid = low;\n",
      'src/chain/low/index.ts': 'export const low = 1;\n',
      'src/shared/k.ts': 'export const k = 1;\n',
      'src/server/hht/ingest.ts': "import { query } from '../db/driver';\nexport const ingest = query;\n",
      'src/server/db/driver.ts': "import { k } from '../../shared/k';\nexport const query = k;\n",
      'src/server/db/upkeep.ts': "import { query } from './driver';\nimport { ingest } from '../hht/ingest';\nexport const upkeep = [query, ingest];\n",
      'src/server/hht/plan.ts': "import { day } from '../demo/day';\nexport const plan = day;\n",
      'src/server/demo/day.ts': "import { ingest } from '../hht/ingest';\nexport const day = ingest;\n",
    });
    const imports = ((await import(RULES_FILE)) as { default: ESLint.Plugin }).default;
    const config: Linter.Config[] = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { imports },
        rules: {
          'imports/no-cycle': ['error', { folders: ['src'] }],
          'imports/layers': [
            'error',
            [
              { from: 'src/server', allow: ['src/shared'] },
              { from: 'src/server/db', allow: ['src/shared'], why: 'the database layer sits below the domain' },
              { from: 'src/server/hht', allow: ['src/server', 'src/shared'], deny: ['src/server/demo'], why: 'the demo world sits above terminal sync' },
            ],
          ],
        },
      },
    ];
    eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: config });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports a two-file cycle on both files, naming the circle', async () => {
    expect(await problems('src/pair/a.ts')).toEqual([
      { rule: 'imports/no-cycle', message: expect.stringContaining('src/pair/a.ts -> src/pair/b.ts -> src/pair/a.ts'), line: 1 },
    ]);
    expect(await problems('src/pair/b.ts')).toEqual([
      { rule: 'imports/no-cycle', message: expect.stringContaining('src/pair/b.ts -> src/pair/a.ts -> src/pair/b.ts'), line: 1 },
    ]);
  });

  it('counts re-exports, type-only imports and import() in a longer circle', async () => {
    expect(await problems('src/ring/one.ts')).toEqual([
      { rule: 'imports/no-cycle', message: expect.stringContaining('src/ring/one.ts -> src/ring/two.ts -> src/ring/three.ts -> src/ring/one.ts'), line: 1 },
    ]);
    expect((await problems('src/ring/three.ts')).map((p) => p.line)).toEqual([2]);
  });

  it('reports a file that imports itself', async () => {
    expect((await problems('src/self.ts')).map((p) => p.rule)).toEqual(['imports/no-cycle']);
  });

  it('leaves a chain without a way back alone', async () => {
    expect(await problems('src/chain/top.ts')).toEqual([]);
    expect(await problems('src/chain/mid.ts')).toEqual([]);
  });

  it('refuses an import from the database layer into a domain folder, and only that one', async () => {
    expect(await problems('src/server/db/upkeep.ts')).toEqual([
      {
        rule: 'imports/layers',
        message: 'src/server/db may import only from itself and src/shared, not src/server/hht/ingest.ts: the database layer sits below the domain',
        line: 2,
      },
    ]);
    expect(await problems('src/server/db/driver.ts')).toEqual([]);
    expect(await problems('src/server/hht/ingest.ts')).toEqual([]);
  });

  it('refuses a denied folder', async () => {
    const found = await problems('src/server/hht/plan.ts');
    expect(found.map((p) => p.rule)).toEqual(['imports/layers']);
    expect(found[0]?.message).toBe('src/server/hht may not import from src/server/demo (src/server/demo/day.ts): the demo world sits above terminal sync');
  });
});

// The first lint builds the whole tree's import graph: seconds on a loaded 2-core machine.
describe("the project's lint configuration", { timeout: 60_000 }, () => {
  const project = new ESLint({ cwd: REPO });
  const rulesOf = async (text: string, filePath: string): Promise<Array<string | null>> =>
    (await project.lintText(text, { filePath: join(REPO, filePath) }))[0]?.messages.map((m) => m.ruleId) ?? [];

  it('fails on a cycle added to a real file', async () => {
    const path = 'src/server/db/types.ts';
    const text = readFileSync(join(REPO, path), 'utf8');
    expect(await rulesOf(text, path)).toEqual([]);
    // db/index.ts imports db/types.ts: importing it back closes a circle.
    expect(await rulesOf(`${text}\nexport * from './index';\n`, path)).toEqual(['imports/no-cycle']);
  });

  it('fails on an import from src/server/db into a domain folder', async () => {
    expect(await rulesOf("import { ingestBatch } from '../hht/ingest';\nexport const probe = ingestBatch;\n", 'src/server/db/probe.ts')).toContain(
      'imports/layers',
    );
    expect(await rulesOf("import { buildApp } from '../app';\nexport const probe = buildApp;\n", 'src/server/db/probe.ts')).toContain('imports/layers');
    expect(await rulesOf("import { ensureSeeded } from '../demo';\nexport const probe = ensureSeeded;\n", 'src/server/db/probe.ts')).toContain('imports/layers');
  });

  it('keeps terminal sync below the demo world', async () => {
    expect(await rulesOf("import { startFeed } from '../demo/feed';\nexport const probe = startFeed;\n", 'src/server/hht/probe.ts')).toEqual(['imports/layers']);
    expect(await rulesOf("import { ingestBatch } from '../hht/ingest';\nexport const probe = ingestBatch;\n", 'src/server/demo/probe.ts')).toEqual([]);
  });
});
