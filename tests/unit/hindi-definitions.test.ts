import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDefinitions, formatError, type CheckInput } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { checkPortalFiles } from '../../src/server/reports/check-portal-files';
import { checkMenuHindi } from '../../src/shared/definitions/hindi-portal';
import { createMenuStore } from '../../src/server/meta/menu-store';
import { checkDashboard } from '../../src/server/meta/dashboard';
import { localizeDashboard, localizeMenu, parseAcceptLanguage } from '../../src/shared/definitions/localize';
import type { DashboardConfig } from '../../src/shared/dashboard';
import type { MenuDocument } from '../../src/shared/menu';

const repo = readDefinitionFiles(process.cwd());

/** A small valid report with a tab of its own columns, plus whatever `hi` block a test gives it. */
function withReport(hi: unknown, extra: Record<string, unknown> = {}): CheckInput {
  const def = {
    id: 'h', title: 'H', endpoint: 'getH',
    filter: {
      schema: { type: 'object', properties: { trainNo: { $ref: 'fields/train-no.json' }, kind: { title: 'Kind', type: 'string', enum: ['A', 'B'] } } },
      uiSchema: { kind: { 'ui:enumNames': ['Aa', 'Bb'] } },
    },
    columns: [{ field: 'a', headerName: 'A', labels: { X: 'Ex' } }],
    tabs: [
      { id: 'own', label: 'Own', endpoint: 'getHOwn', columns: [{ field: 'b', headerName: 'B' }], source: { sql: 'SELECT 1 AS b WHERE {{scope}}', scope: { zone: 'z' } } },
      { id: 'same', label: 'Same', endpoint: 'getHSame', source: { sql: 'SELECT 1 AS a WHERE {{scope}}', scope: { zone: 'z' } } },
    ],
    source: { sql: 'SELECT 1 AS a WHERE {{scope}} AND (:trainNo::text IS NULL) AND (:kind::text IS NULL)', scope: { zone: 'z' } },
    ...extra,
    ...(hi === undefined ? {} : { hi }),
  };
  return { ...repo, reports: [{ file: 'reports/h.json', text: JSON.stringify(def) }], sqlFiles: {} };
}
const errorsOf = (input: CheckInput): string[] => checkDefinitions(input).errors.map(formatError);

describe('the hi block of a report definition', () => {
  it('accepts a complete, well-keyed block', () => {
    const hi = {
      title: 'ह', filter: { kind: { title: 'प्रकार', enumNames: ['अ', 'ब'] } },
      columns: { a: { headerName: 'क', labels: { X: 'एक्स' } } },
      tabs: { own: { label: 'अपना', columns: { b: { headerName: 'ख' } } }, same: { label: 'वही' } },
    };
    expect(errorsOf(withReport(hi))).toEqual([]);
  });

  it('refuses a bad shape by the meta-schema, naming the JSON pointer', () => {
    expect(errorsOf(withReport({ colums: {} }))).toContain('reports/h.json#/hi/colums: unknown key "colums"');
    expect(errorsOf(withReport({ columns: { a: { headerName: '' } } }))).toContain('reports/h.json#/hi/columns/a/headerName: must NOT have fewer than 1 characters');
    expect(errorsOf(withReport({ columns: { a: { header: 'क' } } }))).toContain('reports/h.json#/hi/columns/a/header: unknown key "header"');
    expect(errorsOf(withReport({ filter: { kind: { enumNames: 'अ' } } }))).toContain('reports/h.json#/hi/filter/kind/enumNames: must be array');
  });

  it('refuses keys that name nothing in the definition, each with its pointer', () => {
    const errors = errorsOf(withReport({
      description: 'विवरण',
      filter: { nope: { title: 'x' }, kind: { enumNames: ['अ'] }, trainNo: { description: 'x', enumNames: ['y'] } },
      columns: { zz: { headerName: 'x' }, a: { labels: { Y: 'x' } } },
      tabs: { ghost: { label: 'x' }, same: { columns: { a: { headerName: 'x' } } }, own: { columns: { a: { headerName: 'x' } } } },
    }));
    expect(errors).toEqual(expect.arrayContaining([
      'reports/h.json#/hi/description: the report has no English description to translate',
      'reports/h.json#/hi/filter/nope: names no filter field: "nope" is not a property of filter.schema',
      'reports/h.json#/hi/filter/kind/enumNames: has 1 names; ui:enumNames of "kind" has 2',
      'reports/h.json#/hi/filter/trainNo/enumNames: filter field "trainNo" has no ui:enumNames in filter.uiSchema to translate',
      'reports/h.json#/hi/columns/zz: names no column: "zz" is not a column field here',
      'reports/h.json#/hi/columns/a/labels/Y: column "a" has no English label for code "Y"',
      'reports/h.json#/hi/tabs/ghost: names no tab: "ghost" is not a tab id',
      'reports/h.json#/hi/tabs/same/columns: tab "same" shows the report\'s columns: give their Hindi under /hi/columns',
      'reports/h.json#/hi/tabs/own/columns/a: names no column: "a" is not a column field here',
    ]));
    // The shared field train-no.json has a description, so translating it is fine.
    expect(errors.some((e) => e.includes('/hi/filter/trainNo/description'))).toBe(false);
  });

  it('checks the hi block of a shared field file', () => {
    const fields = repo.fields.map((f) => (f.file === 'schemas/fields/date.json'
      ? { ...f, text: JSON.stringify({ ...JSON.parse(f.text), hi: { title: 'तिथि', description: 'x', tooltip: 'y' } }) }
      : f));
    const errors = checkDefinitions({ ...repo, fields }).errors.map(formatError);
    expect(errors).toContain('schemas/fields/date.json#/hi/description: the field has no English description to translate');
    expect(errors).toContain('schemas/fields/date.json#/hi/tooltip: unknown key "tooltip"');
  });
});

describe('the hi blocks of menu.json and dashboard.json', () => {
  it('serves a menu whose Hindi names a section or item it no longer has, and lists the stale keys', () => {
    const root = mkdtempSync(join(tmpdir(), 'hht-hindi-menu-'));
    try {
      cpSync('schemas', join(root, 'schemas'), { recursive: true });
      const menu = JSON.parse(readFileSync('menu.json', 'utf8')) as Record<string, unknown>;
      writeFileSync(join(root, 'menu.json'), JSON.stringify({ ...menu, hi: { sections: { Nowhere: 'x' }, items: { nope: 'x', vacant_berths: 'रिक्त बर्थ' }, commands: { logout: 'लॉग आउट' } } }));
      const store = createMenuStore({ rootDir: root, log: { info: () => undefined, error: () => undefined }, watch: false });
      // An admin renaming a section must not have the menu refused for its old Hindi key.
      expect(store.lastProblems()).toEqual([]);
      expect(checkMenuHindi('menu.json', store.getMenu(), store.hindi()).map((p) => `${p.pointer}: ${p.reason}`)).toEqual([
        '/hi/sections/Nowhere: names no section label of the menu: "Nowhere"',
        '/hi/items/nope: names no item path of the menu: "nope"',
      ]);
      store.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses dashboard Hindi for a card, caption or series that does not exist', () => {
    const config = JSON.parse(readFileSync('dashboard.json', 'utf8')) as DashboardConfig;
    const problems = checkDashboard({ ...config, hi: { cards: { ghost: { title: 'x' }, devices: { title: 'उपकरण' }, passengers: { series: { nope: 'x' } } } } });
    expect(problems.map((p) => `${p.pointer}: ${p.reason}`)).toEqual([
      '/hi/cards/ghost: names no card: "ghost" is not a card id',
      '/hi/cards/passengers/series/nope: card "passengers" has no chart series "nope"',
    ]);
  });
});

describe('localizing', () => {
  it('reads the language from Accept-Language: hi or en by preference, anything else English', () => {
    expect(parseAcceptLanguage('hi')).toBe('hi');
    expect(parseAcceptLanguage('hi-IN,hi;q=0.9,en;q=0.8')).toBe('hi');
    expect(parseAcceptLanguage('en-IN, hi;q=0.5')).toBe('en');
    expect(parseAcceptLanguage('fr, hi;q=0.2')).toBe('hi');
    expect(parseAcceptLanguage('ta-IN')).toBe('en');
    expect(parseAcceptLanguage('hi;q=0')).toBe('en');
    expect(parseAcceptLanguage(undefined)).toBe('en');
  });

  it('falls back to English for menu and dashboard texts without Hindi', () => {
    const doc: MenuDocument = { entries: [
      { type: 'section', label: 'REPORTS', items: [{ type: 'item', path: 'a', label: 'A' }, { type: 'item', path: 'b', label: 'B' }] },
      { type: 'command', command: 'logout', label: 'Logout' },
    ] };
    const hi = localizeMenu(doc, { items: { a: 'ए' } }, 'hi');
    expect(JSON.stringify(hi)).toBe(JSON.stringify({ entries: [
      { type: 'section', label: 'REPORTS', items: [{ type: 'item', path: 'a', label: 'ए' }, { type: 'item', path: 'b', label: 'B' }] },
      { type: 'command', command: 'logout', label: 'Logout' },
    ] }));
    expect(localizeMenu(doc, { items: { a: 'ए' } }, 'en')).toEqual(doc);
    const cards = localizeDashboard(
      [{ id: 'c', title: 'C', endpoint: 'e', kind: 'chart', caption: 'cap', chart: { type: 'line', labelField: 'd', series: [{ field: 'x', label: 'X' }, { field: 'y', label: 'Y' }] } }],
      { cards: { c: { title: 'सी', series: { y: 'वाई' } } } },
      'hi',
    );
    expect(cards[0]).toMatchObject({ title: 'सी', caption: 'cap', chart: { series: [{ field: 'x', label: 'X' }, { field: 'y', label: 'वाई' }] } });
  });
});

describe('the shipped catalogue in Hindi', () => {
  it('has Hindi for every text of every report, shared field, the menu and the dashboard', () => {
    const check = checkPortalFiles(process.cwd());
    expect(check.errors.map(formatError)).toEqual([]);
    expect(check.missingHindi.map(formatError)).toEqual([]);
  });
});

describe('npm run check:definitions and missing Hindi', () => {
  it('lists each missing Hindi text with file and pointer as a warning, and still exits 0', () => {
    const root = mkdtempSync(join(tmpdir(), 'hht-check-hindi-'));
    try {
      cpSync('schemas', join(root, 'schemas'), { recursive: true });
      writeFileSync(join(root, 'dashboard.json'), JSON.stringify({
        cards: [{ id: 'd', title: 'Devices', endpoint: 'Total_Registered_Devices', method: 'GET', kind: 'stat', aggregate: 'count', link: '/layout/uikit/devices' }],
        hi: { cards: { d: { title: 'उपकरण' } } },
      }));
      mkdirSync(join(root, 'docs'));
      cpSync('docs/release-notes.json', join(root, 'docs/release-notes.json'));
      writeFileSync(join(root, 'menu.json'), JSON.stringify({ entries: [{ type: 'item', path: 'whatsnew', label: 'Whats New' }], hi: { items: { whatsnew: 'नया क्या है' } } }));
      mkdirSync(join(root, 'reports'));
      writeFileSync(join(root, 'reports', 'half.json'), JSON.stringify({
        id: 'half', title: 'Half', endpoint: 'getHalf',
        filter: { schema: { type: 'object', properties: { trainNo: { $ref: 'fields/train-no.json' } } } },
        columns: [{ field: 'train_no', headerName: 'Train No' }, { field: 'zone_code', headerName: 'Zone', labels: { NR: 'Northern' } }],
        source: { sql: 'SELECT train_no, zone_code FROM trains WHERE {{scope}} AND (:trainNo::text IS NULL OR train_no = :trainNo)', scope: { zone: 'zone_code' } },
        hi: { title: 'आधा', columns: { train_no: { headerName: 'गाड़ी संख्या' }, zone_code: { headerName: 'क्षेत्र' } } },
      }));
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/reports/check-cli.ts', root], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('warning: reports/half.json#/columns/1/labels/NR: no Hindi for "Northern" (/hi/columns/zone_code/labels/NR)');
      expect(r.stdout).toContain('check:definitions: 1 Hindi texts missing');
      expect(r.stdout).toContain('0 errors');
      expect(r.status).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
