/**
 * The whole report catalogue on the seeded data (tiny scale, SEED_TODAY): every report and tab, run with the
 * known-good filter of tests/support/sample-filters.ts, returns rows whose keys are exactly the view's column
 * fields and whose values have the column's type; every drill-down link names an existing report, its
 * params (filled from real rows) pass the target's filter validation, and the target returns rows.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSeededTestDb } from '../support/seeded';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { sampleFilter } from '../support/sample-filters';
import { MENU_PAGES, menuItems, parseMenuDocument } from '../../src/shared/menu';
import { checkColumnLinks, checkDefinitions, type CheckedReport, type CheckedView } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { parseFilter } from '../../src/server/reports/filter';
import { runView, runViewJson } from '../../src/server/reports/executor';
import { learntJsonPlan } from '../../src/server/reports/json-rows';
import type { ColumnDef } from '../../src/shared/report-definition';
import { addDays } from '../../src/server/demo/runs';

const checked = checkDefinitions(readDefinitionFiles(process.cwd()));
const byId = new Map(checked.reports.map((r) => [r.definition.id, r]));
const VIEWS = checked.reports.flatMap((r) => r.views.map((v) => [r.definition.id, v.tabId ?? 'main', v.endpoint] as const));

/**
 * Calls that legitimately return no rows for the sample filter on the tiny seed, and why (also in
 * docs/reports-catalogue.md). Keep this list short: each entry is a gap in the data, not in the report.
 */
const EMPTY_ON_SEED: Record<string, string> = {
  'audit_trail / audit-trail': 'the audit trail begins when the server does: a seeded database holds no entries',
};

/** Calls for which DLI today's sample finds nothing on the tiny seed, and the sample that does. */
const EXPECTED_FALLBACKS: string[] = [
  // No passenger of 12002 on 15/03 got down early or swapped berths (a short run swaps about every other day).
  'shiftedgotdown / psgn-beatWise: BCT 2026-03-15',
  // Every coach of 12002 on 15/03 was manned.
  'unmanned_coaches / UnmannedReport: DLI 2026-03-14',
];

/**
 * Links whose target may rightly be empty for some rows (the identifier is shown on every row, the target lists
 * only some): at least one of the rows must find rows there.
 */
const LINKS_SOMETIMES_EMPTY: Record<string, string> = {
  'TTE_TS / trainWorkingReport trip_id': 'tripidsearch lists the EFTs of a trip: a beat without EFTs has none',
};

type Row = Record<string, unknown>;
const NUMERIC = new Set(['number', 'currency', 'percent']);

/** Link params with {column} placeholders filled from a row; a null value leaves the field empty. */
function fillParams(params: Record<string, unknown>, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = typeof v === 'string' ? v.replace(/\{(\w+)\}/g, (_, c: string) => (row[c] === null || row[c] === undefined ? '' : String(row[c]))) : v;
  }
  return out;
}

function typeProblems(columns: ColumnDef[], rows: Row[]): string[] {
  const problems = new Set<string>();
  for (const row of rows) {
    for (const c of columns) {
      const v = row[c.field];
      if (v === null || v === undefined) continue;
      const type = c.type ?? 'text';
      if (type === 'date' && !(typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v))) problems.add(`${c.field}: date ${JSON.stringify(v)}`);
      if (type === 'datetime' && !(v instanceof Date ? !Number.isNaN(v.getTime()) : typeof v === 'string' && !Number.isNaN(Date.parse(v)))) {
        problems.add(`${c.field}: datetime ${JSON.stringify(v)}`);
      }
      if (NUMERIC.has(type) && !(typeof v === 'number' && Number.isFinite(v))) problems.add(`${c.field}: ${type} ${JSON.stringify(v)}`);
      if (type === 'percent' && typeof v === 'number' && (v < 0 || v > 100)) problems.add(`${c.field}: percent out of 0..100: ${v}`);
    }
  }
  return [...problems];
}

describe('the catalogue', () => {
  it('has a valid report for every menu entry, each link names an existing report and only its filter fields', () => {
    expect(checked.errors).toEqual([]);
    const menu = parseMenuDocument(JSON.parse(readFileSync('menu.json', 'utf8')));
    const wanted = menuItems(menu!).map(({ item }) => item.path).filter((p) => !MENU_PAGES.includes(p));
    expect(wanted).toHaveLength(36);
    expect(wanted.filter((id) => !checked.reports.some((r) => r.definition.id === id))).toEqual([]);
    // What the menu says is what the page says: each report item's label is its report's title.
    const mismatched = menuItems(menu!).flatMap(({ item }) => {
      const title = byId.get(item.path)?.definition.title;
      return title !== undefined && title !== item.label ? [`${item.path}: menu "${item.label}", title "${title}"`] : [];
    });
    expect(mismatched).toEqual([]);
    // The Devices page is in the menu, under UTILITIES, as What's New says.
    const utilities = menu!.entries.find((e) => e.type === 'section' && e.label === 'UTILITIES');
    expect(utilities && 'items' in utilities ? utilities.items.map((i) => ('path' in i ? i.path : '')) : []).toContain('devices');
    // The link rules live in the shared validator (npm run check:definitions runs them too).
    expect(checkColumnLinks(checked.reports, new Set(byId.keys()))).toEqual([]);
  });
});

describe.each(TEST_DRIVERS)('the catalogue on the seeded data (%s)', (driver) => {
  let t: TestDb & { today: string };
  const results = new Map<string, { report: CheckedReport; view: CheckedView; rows: Row[]; filter: Row; today: string }>();
  const fallbacks: string[] = [];
  const key = (id: string, endpoint: string): string => `${id} / ${endpoint}`;
  const run = async (report: CheckedReport, view: CheckedView, filter: Row): Promise<Row[]> =>
    (await runView(t.db, view, filter, { kind: 'all' }, { timeoutMs: 30_000, rowsPerPage: 1000 })).rows as Row[];

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    // The sample of DLI today first; a call that finds nothing there (an event the tiny seed did not produce on
    // that run) tries BCT today, then both divisions on the days before. Which one it took is in SAMPLES.
    const tries = [0, -1, -2, -3, -4, -5, -6].flatMap((d) => ['DLI', 'BCT'].map((div) => ({ day: addDays(t.today, d), div })));
    for (const report of checked.reports) {
      for (const view of report.views) {
        for (const [i, at] of tries.entries()) {
          const filter = parseFilter(report, await sampleFilter(t.db, report, at.day, at.div), at.day);
          const rows = await run(report, view, filter);
          // A call known to be empty on the seed is run once, with the first sample.
          if (rows.length > 0 || i === tries.length - 1 || EMPTY_ON_SEED[key(report.definition.id, view.endpoint)]) {
            results.set(key(report.definition.id, view.endpoint), { report, view, filter, rows, today: at.day });
            if (i > 0) fallbacks.push(`${key(report.definition.id, view.endpoint)}: ${at.div} ${at.day}`);
            break;
          }
        }
      }
    }
  }, 600_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('finds rows for most calls with the sample of DLI today; the others fall back as expected', () => {
    expect(fallbacks.sort()).toEqual([...EXPECTED_FALLBACKS].sort());
  });

  it.each(VIEWS)('%s (%s, %s) returns rows with exactly its columns, typed', (id, _tab, endpoint) => {
    const r = results.get(key(id, endpoint));
    if (!r) throw new Error('not run');
    if (EMPTY_ON_SEED[key(id, endpoint)]) {
      expect(r.rows, 'listed as empty on the seed: remove it from EMPTY_ON_SEED').toEqual([]);
      return;
    }
    expect(r.rows.length, `rows for ${JSON.stringify(r.filter)}`).toBeGreaterThan(0);
    const fields = r.view.columns.map((c) => c.field).sort();
    for (const row of r.rows) expect(Object.keys(row).sort()).toEqual(fields);
    expect(typeProblems(r.view.columns, r.rows)).toEqual([]);
  });

  it('answers every call the same through the database\'s JSON as through rows, in the same order', async () => {
    const differ: string[] = [];
    const rowPath: string[] = [];
    for (const [k, r] of results) {
      const o = { timeoutMs: 30_000, rowsPerPage: 1000 };
      const json = await runViewJson(t.db, r.view, r.filter, { kind: 'all' }, o);
      const rows = await runView(t.db, r.view, r.filter, { kind: 'all' }, o);
      const parsed = { rows: JSON.parse(json.rowsJson) as unknown, total: json.total, page: json.page, rowsPerPage: json.rowsPerPage };
      // Same values, same key order in every row, same row order.
      if (JSON.stringify(parsed) !== JSON.stringify(rows)) differ.push(k);
      if (learntJsonPlan(r.view) === null) rowPath.push(k);
    }
    expect(differ).toEqual([]);
    expect(rowPath).toEqual([]); // every view of the catalogue has column types with an exact JSON form
  }, 120_000);

  it.each(VIEWS)('%s (%s, %s): each link, filled from real rows, is a valid filter of its target and finds rows', async (id, _tab, endpoint) => {
    const r = results.get(key(id, endpoint));
    if (!r) throw new Error('not run');
    const problems: string[] = [];
    for (const c of r.view.columns) {
      if (!c.link) continue;
      const target = byId.get(c.link.report);
      if (!target) {
        problems.push(`${c.field}: unknown report ${c.link.report}`);
        continue;
      }
      // A few distinct rows that carry a value in the link column (first, middle, last); a count of 0 opens an
      // empty list by design, so only non-zero counts are followed.
      const linked = r.rows.filter((row) => row[c.field] !== null && row[c.field] !== undefined && row[c.field] !== '' && row[c.field] !== 0);
      const sometimes = LINKS_SOMETIMES_EMPTY[`${key(id, endpoint)} ${c.field}`] !== undefined;
      const picks = sometimes ? linked.slice(0, 20) : [linked[0], linked[Math.floor(linked.length / 2)], linked[linked.length - 1]];
      const sample = [...new Set(picks)].filter((x): x is Row => !!x);
      let found = 0;
      for (const row of sample) {
        const params = fillParams(c.link.params ?? {}, row);
        let filter: Row;
        try {
          filter = parseFilter(target, params, r.today);
        } catch (err) {
          problems.push(`${c.field} -> ${c.link.report} ${JSON.stringify(params)}: ${(err as Error).message}`);
          continue;
        }
        const main = target.views[0] as CheckedView;
        const rows = await run(target, main, filter);
        if (rows.length > 0) found += 1;
        else if (!sometimes) problems.push(`${c.field} -> ${c.link.report} ${JSON.stringify(params)}: no rows`);
      }
      if (sometimes && sample.length > 0 && found === 0) problems.push(`${c.field} -> ${c.link.report}: no row finds anything`);
    }
    expect(problems).toEqual([]);
  });
});
