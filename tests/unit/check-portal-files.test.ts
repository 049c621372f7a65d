/**
 * `npm run check:definitions` beyond single definitions: drill-down links against their target's filter,
 * dashboard.json (schema, card rules, cards against the reports) and docs/release-notes.json, on a copy of the
 * repository's files in a temp folder that each test breaks.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPortalFiles } from '../../src/server/reports/check-portal-files';
import { formatError } from '../../src/shared/definitions/validate';

let roots: string[] = [];

/** A copy of every file the check reads; `edit` changes one JSON file of it. */
function copyRoot(): { root: string; edit: (rel: string, change: (json: Record<string, unknown>) => void) => void } {
  const root = mkdtempSync(join(tmpdir(), 'hht-check-'));
  roots.push(root);
  for (const rel of ['reports', 'schemas', 'menu.json', 'dashboard.json', 'docs/release-notes.json']) {
    if (rel.includes('/')) mkdirSync(join(root, rel, '..'), { recursive: true });
    cpSync(rel, join(root, rel), { recursive: true });
  }
  const edit = (rel: string, change: (json: Record<string, unknown>) => void): void => {
    const json = JSON.parse(readFileSync(join(root, rel), 'utf8')) as Record<string, unknown>;
    change(json);
    writeFileSync(join(root, rel), JSON.stringify(json, null, 2));
  };
  return { root, edit };
}

const lines = (root: string): string[] => checkPortalFiles(root).errors.map(formatError);

afterEach(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  roots = [];
});

describe('check:definitions across files', () => {
  it('finds nothing wrong in the repository copy', () => {
    const { root } = copyRoot();
    expect(checkPortalFiles(root)).toMatchObject({ errors: [], reports: expect.any(Number) as number });
  });

  it("reports a link param that is no filter field of the target, a placeholder that is no column, a missing required field", () => {
    const { root, edit } = copyRoot();
    edit('reports/Occupancy.json', (d) => {
      const link = (d.columns as { link: { params: Record<string, string> } }[])[0]?.link;
      if (link) link.params = { trainNo: '{train_no}', startDate: '{start_date}', klass: '{class}' };
      const tabLink = (d.tabs as { columns: { link?: { params: Record<string, string> } }[] }[])[0]?.columns[1]?.link;
      if (tabLink) tabLink.params = { startDate: '{start_date}', coach: '{coach_name}' };
    });
    expect(lines(root)).toEqual([
      'reports/Occupancy.json#/columns/0/link/params/klass: "klass" is not a filter field of report "All_Passenger_Report"',
      'reports/Occupancy.json#/tabs/0/columns/1/link/params/coach: placeholder {coach_name} is not a column of this view',
      'reports/Occupancy.json#/tabs/0/columns/1/link/params: misses "trainNo", a required filter field of report "All_Passenger_Report"',
    ]);
  });

  it('reports a dashboard card linking to an unknown report, with the wrong method, or sending a non-filter param', () => {
    const { root, edit } = copyRoot();
    edit('dashboard.json', (d) => {
      const cards = d.cards as Record<string, unknown>[];
      Object.assign(cards[0] ?? {}, { link: 'no_such_report', params: { srcDate: '$today', colour: 'red' } });
      const devices = cards.findIndex((c) => c.endpoint === 'Total_Registered_Devices');
      Object.assign(cards[devices] ?? {}, { method: 'POST' });
    });
    const devices = (JSON.parse(readFileSync('dashboard.json', 'utf8')) as { cards: { endpoint: string }[] }).cards
      .findIndex((c) => c.endpoint === 'Total_Registered_Devices');
    expect(lines(root)).toEqual([
      'dashboard.json#/cards/0/link: card links to unknown report "no_such_report"',
      'dashboard.json#/cards/0/params/colour: "colour" is not a filter field of report "dash_psgn_count"',
      `dashboard.json#/cards/${devices}/method: Total_Registered_Devices of report "dash_registered_devices" is called with GET, not POST`,
    ]);
  });

  it("reports a dashboard card the schema or the server's card rules refuse", () => {
    const { root, edit } = copyRoot();
    edit('dashboard.json', (d) => {
      const cards = d.cards as Record<string, unknown>[];
      Object.assign(cards[1] ?? {}, { kind: 'gauge' });
    });
    expect(lines(root)).toEqual(['dashboard.json#/cards/1/kind: must be equal to one of the allowed values']);
    edit('dashboard.json', (d) => {
      const cards = d.cards as Record<string, unknown>[];
      Object.assign(cards[1] ?? {}, { kind: 'stat', id: (cards[0] ?? {}).id });
    });
    expect(lines(root)).toEqual([
      'dashboard.json#/cards/1/id: duplicate card id "passengers"',
      // The card's Hindi is keyed by its old id, which no card has now.
      'dashboard.json#/hi/cards/tdrs: names no card: "tdrs" is not a card id',
    ]);
  });

  it('reports release notes out of order or with a bad date', () => {
    const { root, edit } = copyRoot();
    edit('docs/release-notes.json', (d) => {
      (d.releases as unknown[]).reverse();
    });
    expect(lines(root)).toContain('docs/release-notes.json#/releases/1/version: releases must be newest first: v1.5.0 comes after v1.4.2');
    edit('docs/release-notes.json', (d) => {
      (d.releases as unknown[]).reverse();
      Object.assign((d.releases as Record<string, unknown>[])[0] ?? {}, { date: '2026-13-01' });
    });
    expect(lines(root)).toEqual(['docs/release-notes.json#/releases/0/date: must match pattern "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"']);
  });

  it('the command lists all of them at once and exits 1', () => {
    const { root, edit } = copyRoot();
    edit('reports/Occupancy.json', (d) => {
      const link = (d.columns as { link: { params: Record<string, string> } }[])[0]?.link;
      if (link) link.params = { ...link.params, klass: 'x' };
    });
    edit('dashboard.json', (d) => {
      Object.assign((d.cards as Record<string, unknown>[])[0] ?? {}, { link: 'no_such_report' });
    });
    edit('docs/release-notes.json', (d) => {
      (d.releases as unknown[]).reverse();
    });
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/reports/check-cli.ts', root], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('reports/Occupancy.json#/columns/0/link/params/klass: ');
    expect(r.stderr).toContain('dashboard.json#/cards/0/link: card links to unknown report "no_such_report"');
    expect(r.stderr).toContain('docs/release-notes.json#/releases/1/version: ');
    expect(r.stdout).toMatch(/menu, dashboard and release notes checked, [1-9]\d* errors/);
  }, 60_000);
});
