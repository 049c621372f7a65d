import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

describe('the built server (npm start runs dist/server/main.js)', () => {
  it('holds every file the server reads next to its code: migrations, rollup functions, reference queries', () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'pipe' });
    const data = ['src/server', 'src/shared'].flatMap((d) => [...filesUnder(join(root, d))]).filter((f) => !/\.tsx?$/.test(f));
    expect(data.some((f) => f.includes(join('db', 'functions')))).toBe(true);
    const missing = data.filter((f) => !existsSync(join(root, 'dist', relative(join(root, 'src'), f))));
    expect(missing.map((f) => relative(root, f))).toEqual([]);
  }, 120_000);
});
