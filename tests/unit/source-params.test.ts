/**
 * source.params: fixed values of named SQL parameters per call. The validator accepts names the SQL uses and
 * refuses unknown, unused and filter-colliding ones with file and pointer; buildQuery binds the fixed values
 * as $n parameters that the request cannot override.
 */
import { describe, expect, it } from 'vitest';
import { checkDefinitions, type CheckedView, type DefinitionError } from '../../src/shared/definitions/validate';
import { readDefinitionFiles } from '../../src/server/reports/definition-files';
import { buildQuery } from '../../src/server/reports/executor';

const shipped = readDefinitionFiles(process.cwd());

const SQL = `SELECT p.pnr FROM passengers p JOIN train_runs tr ON tr.run_id = p.run_id
 WHERE tr.train_no = :trainNo AND (:mark::text IS NULL OR p.mark = :mark) AND {{scope}}`;

/** A one-report check with the shipped meta-schema and field schemas. */
function check(source: Record<string, unknown>, tabSource?: Record<string, unknown>): { errors: DefinitionError[]; ok: boolean } {
  const def = {
    id: 'probe',
    title: 'Probe',
    endpoint: 'getProbe',
    filter: { schema: { type: 'object', required: ['trainNo'], properties: { trainNo: { $ref: 'fields/train-no.json' } } } },
    columns: [{ field: 'pnr', headerName: 'PNR' }],
    source: { scope: { zone: 'tr.zone_code' }, ...source },
    ...(tabSource ? { tabs: [{ id: 't', label: 'T', endpoint: 'getProbeTab', source: { scope: { zone: 'tr.zone_code' }, ...tabSource } }] } : {}),
  };
  const result = checkDefinitions({
    reportSchema: shipped.reportSchema,
    fields: shipped.fields,
    reports: [{ file: 'reports/probe.json', text: JSON.stringify(def) }],
    sqlFiles: { 'probe.sql': SQL },
  });
  return { errors: result.errors, ok: result.reports.length === 1 };
}

describe('source.params in the validator', () => {
  it('accepts a fixed value for a name the SQL uses, per call, and hands it to the view', () => {
    const r = checkDefinitions({
      ...shipped,
      reports: shipped.reports.filter((f) => f.file === 'reports/All_Passenger_Report.json'),
    });
    expect(r.errors).toEqual([]);
    expect(r.reports[0]?.views.map((v) => v.params)).toEqual([{ mark: null }, { mark: 'O' }, { mark: 'NT' }]);

    for (const value of ['NT', null, 3, true]) {
      expect(check({ sql: 'probe.sql', params: { mark: value } })).toEqual({ errors: [], ok: true });
    }
    expect(check({ sql: 'probe.sql', params: { mark: null } }, { sql: 'probe.sql', params: { mark: 'O' } })).toEqual({ errors: [], ok: true });
  });

  it('refuses a named parameter that is neither a filter field nor a fixed param', () => {
    const r = check({ sql: 'probe.sql' }, { sql: 'probe.sql', params: { mark: 'O' } });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      { file: 'reports/probe.json', pointer: '/source/sql', reason: 'named parameter :mark is not a filter field or a key of source.params' },
    ]);
  });

  it('refuses a fixed param the SQL does not use, in the main call and in a tab', () => {
    const r = check({ sql: 'probe.sql', params: { mark: null, colour: 'red' } }, { sql: 'probe.sql', params: { mark: 'O', ghost: 1 } });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      { file: 'reports/probe.json', pointer: '/source/params/colour', reason: 'the SQL does not use :colour' },
      { file: 'reports/probe.json', pointer: '/tabs/0/source/params/ghost', reason: 'the SQL does not use :ghost' },
    ]);
  });

  it('refuses a fixed param named like a filter field (the request could never set it)', () => {
    const r = check({ sql: 'probe.sql', params: { mark: null, trainNo: '12951' } });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      { file: 'reports/probe.json', pointer: '/source/params/trainNo', reason: '"trainNo" is a filter field: a fixed parameter cannot share its name' },
    ]);
  });

  it('refuses bad names and values through the meta-schema', () => {
    const r = check({ sql: 'probe.sql', params: { mark: { nested: 1 }, 'bad-name': 'x' } });
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => e.pointer)).toEqual(expect.arrayContaining(['/source/params/mark', '/source/params']));
  });
});

describe('buildQuery with fixed params', () => {
  const view = (params: CheckedView['params']): CheckedView => ({
    endpoint: 'getProbe', method: 'POST', columns: [{ field: 'pnr', headerName: 'PNR' }], sql: SQL, scope: { zone: 'tr.zone_code' }, params,
  });

  it('binds the fixed value as a numbered parameter, never in the SQL text', () => {
    const q = buildQuery(view({ mark: 'NT' }), { trainNo: '12951' }, { kind: 'zone', code: 'NR' });
    expect(q.sql).toContain('tr.train_no = $1 AND ($2::text IS NULL OR p.mark = $2) AND (tr.zone_code = $3)');
    expect(q.sql).not.toContain('NT');
    expect(q.params).toEqual(['12951', 'NT', 'NR']);
    expect(buildQuery(view({ mark: null }), { trainNo: '12951' }, { kind: 'all' }).params).toEqual(['12951', null]);
  });

  it('keeps the fixed value whatever the request values hold', () => {
    const q = buildQuery(view({ mark: 'O' }), { trainNo: '12951', mark: 'NT' }, { kind: 'all' });
    expect(q.params).toEqual(['12951', 'O']);
    const nulled = buildQuery(view({ mark: null }), { trainNo: '12951', mark: 'NT' }, { kind: 'all' });
    expect(nulled.params).toEqual(['12951', null]);
  });

  it('binds NULL for a name with no value, and never an inherited property', () => {
    const sql = 'SELECT 1 WHERE :constructor::text IS NULL AND :trainNo::text IS NULL AND {{scope}}';
    const q = buildQuery({ ...view({}), sql }, {}, { kind: 'all' });
    expect(q.params).toEqual([null, null]);
  });
});
