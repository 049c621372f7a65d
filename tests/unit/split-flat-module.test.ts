import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { splitSource } from '../../scripts/vite/split-flat-module';

/** Under the repository, so that a part's `import ... from "ag-stack"` finds node_modules. */
const SCRATCH = resolve('.tmp');
mkdirSync(SCRATCH, { recursive: true });
const dir = mkdtempSync(join(SCRATCH, 'split-flat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** Writes a split as real files (facade index.mjs, parts part-<i>.mjs) and imports the facade. */
async function loadSplit(source: string, parts: number): Promise<{ module: Record<string, unknown>; sources: string[] }> {
  const folder = join(dir, `case-${written++}`);
  mkdirSync(folder);
  const split = splitSource(source, parts, (i) => `./part-${i}.mjs`);
  split.parts.forEach((text, i) => writeFileSync(join(folder, `part-${i}.mjs`), text));
  writeFileSync(join(folder, 'index.mjs'), split.facade);
  return { module: (await import(pathToFileURL(join(folder, 'index.mjs')).href)) as Record<string, unknown>, sources: split.parts };
}

/** A flat module as a bundler writes one: statements that refer ahead and back, a counter, a passed-on import. */
const FLAT = `
import { basename as pathBase } from "node:path";
import * as nodePath from "node:path";
var order = [];
order.push("start");
function later() { return Base.kind + ":" + helperName(); }
var Base = class { static kind = "base"; };
order.push("base " + typeof Base);
var counter = 0;
function next() { counter += 1; return counter; }
var padding = "x".repeat(400);
var Derived = class extends Base { name() { return "derived " + pathBase("/a/b.txt"); } };
order.push("derived " + new Derived().name());
function helperName() { return "helper"; }
var early = typeof lateValue;
var lateValue = 42;
order.push("early " + early);
var more = "y".repeat(400);
export { order, later, next as nextId, Derived, lateValue, early, pathBase as base, nodePath as paths };
`;

describe('cutting a flat module into parts', () => {
  it('runs the statements in the order of the file and keeps every export', async () => {
    const original = (await import(`data:text/javascript,${encodeURIComponent(FLAT)}`)) as Record<string, unknown>;
    for (const parts of [2, 3]) {
      const { module, sources } = await loadSplit(FLAT, parts);
      expect(sources).toHaveLength(parts);
      expect(Object.keys(module).sort()).toEqual(Object.keys(original).sort());
      expect(module.order).toEqual(['start', 'base function', 'derived derived b.txt', 'early undefined']);
      expect(module.order).toEqual(original.order);
      expect((module.later as () => string)()).toBe('base:helper');
      expect(module.early).toBe('undefined');
      expect(module.lateValue).toBe(42);
      expect(module.base).toBe(original.base);
      expect((module.paths as { sep: string }).sep).toBe('/');
    }
  });

  it('keeps a variable and every statement that assigns to it in one part', async () => {
    // Cut by size alone, the file would be cut between the counter and the function that counts.
    const counting = [
      `var before = "${'x'.repeat(500)}";`,
      'var counter = 0;',
      'function next() { counter += 1; return counter; }',
      `var after = "${'y'.repeat(450)}";`,
      'export { next as nextId, before, after };',
    ].join('\n');
    const { module, sources } = await loadSplit(counting, 2);
    const declaring = sources.findIndex((s) => s.includes('var counter = 0'));
    expect(sources[declaring]).toContain('function next()');
    const nextId = module.nextId as () => number;
    expect([nextId(), nextId()]).toEqual([1, 2]);
  });

  it('refuses what it cannot cut rather than cut it wrong', () => {
    expect(() => splitSource('var a = 1;\nexport default a;\n', 2, String)).toThrow(/not supported/);
    expect(() => splitSource('var a = 1;\nfunction f() { a = 2; }\nexport { a, f };\n', 2, String)).toThrow(/no cut point/);
    expect(() => splitSource(FLAT, 1, String)).toThrow(/at least 2/);
  });

  it("cuts AG Grid's core into parts that load and export what the one file exports", { timeout: 60_000 }, async () => {
    const file = resolve('node_modules/ag-grid-community/dist/package/main.esm.mjs');
    const original = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const { module, sources } = await loadSplit(readFileSync(file, 'utf8'), 2);
    expect(Object.keys(module).sort()).toEqual(Object.keys(original).sort());
    // Each part well under Vite's 500 kB warning before minification would be too strict; about half the file each.
    const total = sources.reduce((s, p) => s + p.length, 0);
    for (const part of sources) expect(part.length).toBeLessThan(total * 0.75);
    expect(typeof module.createGrid).toBe('function');
    expect(Object.keys(module.ClientSideRowModelModule as object)).toEqual(Object.keys(original.ClientSideRowModelModule as object));
  });
});
