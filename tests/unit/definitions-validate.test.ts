import { describe, expect, it } from 'vitest';
import { checkDefinitions, checkMenuReports } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';

describe('shipped definitions', () => {
  it('every definition in reports/ validates with no error', () => {
    const result = checkDefinitions(readDefinitionFiles(process.cwd()));
    expect(result.errors).toEqual([]);
    expect(result.reports.length).toBeGreaterThan(0);
  });
});

describe('an edited meta-schema (hot reload keeps its $id)', () => {
  it('is compiled again and applied', () => {
    const input = readDefinitionFiles(process.cwd());
    const schema = input.reportSchema as { $id: string; required: string[] };
    const edited = { ...schema, required: [...schema.required, 'description_is_now_required'] };
    expect(checkDefinitions(input).errors).toEqual([]);
    const errors = checkDefinitions({ ...input, reportSchema: edited }).errors;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /description_is_now_required/.test(e.reason))).toBe(true);
  });
});

describe('broken fixture set', () => {
  const result = checkDefinitions(readDefinitionFiles('tests/fixtures/broken-definitions'));
  const has = (file: string, pointer: string, reason: RegExp): boolean =>
    result.errors.some((e) => e.file === `reports/${file}` && e.pointer === pointer && reason.test(e.reason));

  it('reports every error at once, each with file, pointer and reason', () => {
    const expected: [string, string, RegExp][] = [
      ['bad_json.json', '/', /invalid JSON/],
      ['typo.json', '/filtre', /unknown key "filtre"/],
      ['typo.json', '/', /filter/],
      ['typo.json', '/columns', /fewer than 1/],
      ['wrong_name.json', '/id', /must equal the file name "wrong_name"/],
      ['wrong_name.json', '/columns/0/type', /unknown column type "rainbow"/],
      ['wrong_name.json', '/source/sql', /contain \{\{scope\}\}/],
      ['wrong_name.json', '/source/sql', /:ghost is not a filter field/],
      ['wrong_name.json', '/source/scope', /no scope rule/],
      ['wrong_name.json', '/endpoint', /getGood" is also used by reports\/good.json/],
      ['bad_ref.json', '/filter/schema/properties/d/$ref', /does not resolve/],
      ['bad_ref.json', '/filter/schema/required/0', /"nope" is not a property/],
      ['bad_ref.json', '/filter/defaults/zz', /unknown field "zz"/],
      ['bad_ref.json', '/filter/rules/0/end', /"e" is not a filter field/],
      ['bad_ref.json', '/filter/uiSchema/d/ui:widget', /unknown widget "sparkle"/],
      ['bad_ref.json', '/source/sql', /reports\/missing.sql does not exist/],
      ['bad_ref.json', '/filter/schema', /not a valid JSON schema/],
      ['bad_ref.json', '/consist/trainNo', /"train" is not a filter field/],
      ['good.json', '/columns/0/link/report', /unknown report "nowhere"/],
    ];
    const missing = expected.filter(([f, p, r]) => !has(f, p, r));
    expect(missing).toEqual([]);
  });

  it('checks every consist field name against the filter', () => {
    expect(result.errors.filter((e) => e.pointer.startsWith('/consist'))).toEqual([
      { file: 'reports/bad_ref.json', pointer: '/consist/trainNo', reason: '"train" is not a filter field' },
    ]);
  });

  it('skips broken files but keeps the good one', () => {
    expect(result.reports.map((r) => r.definition.id)).toEqual(['good']);
    expect([...result.failed.keys()].sort()).toEqual(
      ['reports/bad_json.json', 'reports/bad_ref.json', 'reports/typo.json', 'reports/wrong_name.json'],
    );
  });

  it('inlines $ref field schemas for the browser and the server', () => {
    const good = result.reports[0];
    expect(good?.filterSchema).toMatchObject({ properties: { trainNo: { type: 'string', pattern: '^[0-9]{5}$', title: 'Train No' } } });
  });

  it('flags menu items that point at unknown reports', () => {
    const errors = checkMenuReports('menu.json', [{ pointer: '/items/0', reportId: 'nope' }, { pointer: '/items/1', reportId: 'good' }], new Set(['good']));
    expect(errors).toEqual([{ file: 'menu.json', pointer: '/items/0', reason: 'menu item points at unknown report "nope"' }]);
  });
});

describe('an edited meta-schema', () => {
  it('is taken under the same $id (hot reload of schemas/report.schema.json), and the old text still works', () => {
    const input = readDefinitionFiles(process.cwd());
    const one = { ...input, reports: input.reports.filter((f) => f.file === 'reports/vacant_berths.json') };
    const schema = input.reportSchema as { properties: { title: Record<string, unknown> } };
    const stricter = { ...schema, properties: { ...schema.properties, title: { type: 'string', maxLength: 3 } } };
    expect(checkDefinitions(one).errors).toEqual([]);
    expect(checkDefinitions({ ...one, reportSchema: stricter }).errors.map((e) => e.pointer)).toEqual(['/title']);
    expect(checkDefinitions(one).errors).toEqual([]);
  });
});

describe('a count SQL (source.count)', () => {
  it('is refused on a client-paged view, as a missing file, without {{scope}} and with an unknown parameter', () => {
    const input = readDefinitionFiles(process.cwd());
    const edit = (file: string, change: (def: { source: Record<string, unknown>; tabs?: { source: Record<string, unknown> }[] }) => void): void => {
      const f = input.reports.find((r) => r.file === file);
      if (!f) throw new Error(`no ${file}`);
      const def = JSON.parse(f.text) as Parameters<typeof change>[0];
      change(def);
      f.text = JSON.stringify(def);
    };
    edit('reports/eft-summary.json', (def) => {
      def.source.count = 'eft-summary.tte.count.sql'; // EFT Summary itself is client-paged (its TTE-wise tab is not)
    });
    edit('reports/ttemanning.json', (def) => {
      const tab = def.tabs?.[0];
      if (tab) tab.source.count = 'nowhere.count.sql';
    });
    edit('reports/sync_delay_new.json', (def) => {
      def.source.count = 'SELECT 1 AS total WHERE :ghost IS NULL';
    });
    const errors = checkDefinitions(input).errors.map((e) => `${e.file} ${e.pointer}: ${e.reason}`);
    expect(errors).toEqual([
      'reports/eft-summary.json /source/count: a count SQL serves server paging only: this view is not server-paged',
      'reports/sync_delay_new.json /source/count: SQL must contain {{scope}} where the row-scope predicate goes',
      'reports/sync_delay_new.json /source/count: named parameter :ghost is not a filter field or a key of source.params',
      'reports/ttemanning.json /tabs/0/source/count: SQL file reports/nowhere.count.sql does not exist',
    ]);
  });
});

describe('column priority', () => {
  const input = readDefinitionFiles(process.cwd());
  const views = (text: string): { id: string; columns: { field: string; priority?: number; hidden?: boolean }[] }[] => {
    const def = JSON.parse(text) as { id: string; columns: { field: string }[]; tabs?: { id: string; columns?: { field: string }[] }[] };
    return [{ id: def.id, columns: def.columns }, ...(def.tabs ?? []).flatMap((t) => (t.columns ? [{ id: `${def.id}/${t.id}`, columns: t.columns }] : []))];
  };

  it('is set on every column of the catalogue, and every view has a shown priority-1 column', () => {
    const all = input.reports.flatMap((f) => views(f.text));
    expect(all.length).toBeGreaterThan(40);
    expect(all.flatMap((v) => v.columns.filter((c) => c.priority === undefined).map((c) => `${v.id}.${c.field}`))).toEqual([]);
    expect(all.filter((v) => !v.columns.some((c) => c.priority === 1 && c.hidden !== true)).map((v) => v.id)).toEqual([]);
  });

  it('refuses a value outside 1-3 and a hidden column of priority 1, naming the column', () => {
    const errorsWith = (column: Record<string, unknown>): string[] => {
      const edited = input.reports.map((f) => {
        if (f.file !== 'reports/vacant_berths.json') return f;
        const def = JSON.parse(f.text) as { columns: Record<string, unknown>[] };
        def.columns[2] = { ...def.columns[2], ...column };
        return { ...f, text: JSON.stringify(def) };
      });
      return checkDefinitions({ ...input, reports: edited }).errors.map((e) => `${e.file} ${e.pointer}`);
    };
    expect(errorsWith({ priority: 4 })).toContain('reports/vacant_berths.json /columns/2/priority');
    expect(errorsWith({ priority: 1, hidden: true })).toEqual(['reports/vacant_berths.json /columns/2/priority']);
    expect(errorsWith({ priority: 3, hidden: true })).toEqual([]);
  });
});
