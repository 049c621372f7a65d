import type { CheckedReport } from '../../src/shared/definitions/validate';
import { describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { resolveDefaults } from '../../src/shared/definitions/filter-widgets';
import { cleanFilter, filterToParams, paramsToFilter, paramsToView, trimIdFields } from '../../src/client/features/reports/lib/filter-url';
import { todayIst } from '../../src/client/features/reports/lib/dates';
import { friendlyMessage, ruleProblems } from '../../src/client/features/reports/lib/rules';
import { normaliseRows, parseErrorBody, parsePublicReport, parseRailwayCodes, parseReportResult } from '../../src/client/features/reports/lib/parse';
import { columnStateKey, parseColumnState, toStoredColumns } from '../../src/client/features/reports/lib/column-state';
import { drillDownHref, fillLinkParams } from '../../src/client/features/reports/lib/links';
import { isRunnable } from '../../src/client/features/reports/lib/open-run';
import { cascadeFields, lockedCode, normaliseCascade, optionsFor, presetLockedCodes } from '../../src/client/features/reports/lib/cascade';
import { exportFileName } from '../../src/client/features/reports/components/ExportButtons';
import { fileNameFromDisposition } from '../../src/client/features/reports/api';
import { statusSeverity } from '../../src/client/features/reports/lib/status';
import { reportViews } from '../../src/client/features/reports/lib/views';

const schema = {
  type: 'object',
  required: ['trainNo'],
  properties: {
    trainNo: { title: 'Train No', type: 'string', pattern: '^[0-9]{5}$', description: '5-digit train number; spaces around it are trimmed.' },
    startDate: { title: 'Run Date', type: 'string', format: 'date' },
    coachCount: { title: 'Coaches', type: 'integer' },
    onlyVacant: { title: 'Only vacant', type: 'boolean' },
    classes: { title: 'Classes', type: 'array', items: { type: 'string', enum: ['SL', '3A'] } },
  },
};

describe('URL <-> filter', () => {
  it('round-trips every field type and drops blanks, trimming text', () => {
    const filter = { trainNo: ' 12301 ', startDate: '2025-08-01', coachCount: 12, onlyVacant: false, classes: ['SL', '3A'], junk: 'x' };
    const params = filterToParams(filter, schema, { tab: 'coach', page: 3, rowsPerPage: 100, sortBy: 'coach', sortDir: 'desc' });
    const back = paramsToFilter(new URLSearchParams(params.toString()), schema);
    expect(back).toEqual({ trainNo: '12301', startDate: '2025-08-01', coachCount: 12, onlyVacant: false, classes: ['SL', '3A'] });
    expect(params.get('_run')).toBe('1');
    const view = paramsToView(params, ['coach'], ['coach']);
    expect(view).toEqual({ run: true, tab: 'coach', page: 3, rowsPerPage: 100, sortBy: 'coach', sortDir: 'desc' });
  });

  it('ignores unknown keys and rejects bad view values from a hand-edited URL', () => {
    const p = new URLSearchParams('trainNo=12301&evil=1&_tab=nope&_page=-2&_rows=99999&_sort=password&_dir=sideways');
    expect(paramsToFilter(p, schema)).toEqual({ trainNo: '12301' });
    expect(paramsToView(p, ['coach'], ['coach'])).toEqual({ run: false });
  });

  it('keeps a non-numeric number as text so the form shows it as invalid instead of silently dropping it', () => {
    expect(paramsToFilter(new URLSearchParams('coachCount=abc'), schema)).toEqual({ coachCount: 'abc' });
  });

  it('trimIdFields trims fields with a pattern (ids) and leaves the others and the object alone when nothing changes', () => {
    expect(trimIdFields({ trainNo: ' 12301 ', startDate: '2025-08-01' }, schema)).toEqual({ trainNo: '12301', startDate: '2025-08-01' });
    const same = { trainNo: '12301' };
    expect(trimIdFields(same, schema)).toBe(same);
  });
  it('cleanFilter drops empty strings, nulls and empty lists', () => {
    expect(cleanFilter({ trainNo: '  ', startDate: null, classes: [], coachCount: 0 }, schema)).toEqual({ coachCount: 0 });
  });
});

describe('defaults', () => {
  it("resolves '$today' to the IST date, also just after midnight IST", () => {
    // 19:00 UTC on 31 July is 00:30 IST on 1 August.
    const today = todayIst(new Date('2025-07-31T19:00:00Z'));
    expect(today).toBe('2025-08-01');
    expect(resolveDefaults({ startDate: '$today', from: '$today-7', cls: 'SL' }, today)).toEqual({ startDate: '2025-08-01', from: '2025-07-25', cls: 'SL' });
  });
});

describe('dateRange rule', () => {
  const rules = [{ rule: 'dateRange' as const, start: 'start_date', end: 'end_date', maxDays: 31 }];
  it('accepts a span of exactly maxDays days and a one-day range', () => {
    expect(ruleProblems({ start_date: '2025-01-01', end_date: '2025-01-31' }, rules)).toEqual([]);
    expect(ruleProblems({ start_date: '2025-01-01', end_date: '2025-01-01' }, rules)).toEqual([]);
  });
  it('refuses an end before the start and a span over maxDays, on the end field', () => {
    expect(ruleProblems({ start_date: '2025-02-01', end_date: '2025-01-31' }, rules)).toEqual([{ field: 'end_date', reason: 'End date must not be before the start date' }]);
    expect(ruleProblems({ start_date: '2025-01-01', end_date: '2025-02-01' }, rules)).toEqual([{ field: 'end_date', reason: 'The date range may span at most 31 days' }]);
  });
  it('leaves missing dates to the required check', () => {
    expect(ruleProblems({ start_date: '2025-01-01' }, rules)).toEqual([]);
  });
});

describe('friendly errors', () => {
  it('words Ajv errors for people', () => {
    expect(friendlyMessage({ name: 'pattern', property: '.trainNo', stack: '' }, schema)).toBe('Train No is not valid (5-digit train number; spaces around it are trimmed)');
    expect(friendlyMessage({ name: 'required', property: '.trainNo', params: { missingProperty: 'trainNo' }, stack: '' }, schema)).toBe('Train No is required');
    expect(friendlyMessage({ name: 'format', property: '.startDate', params: { format: 'date' }, stack: '' }, schema)).toBe('Run Date must be a valid date');
  });
});

describe('rows and rowsPath', () => {
  it('reads rows from rowsPath; a single object there is a one-row list', () => {
    expect(parseReportResult({ eftList: [{ a: 1 }, { a: 2 }], total: 2 }, 'eftList').rows).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseReportResult({ data: { item: { a: 1 } } }, 'data.item')).toEqual({ rows: [{ a: 1 }], total: 1, page: 1, rowsPerPage: 1 });
    expect(normaliseRows(null)).toEqual([]);
  });
  it('falls back to rows and refuses an answer without rows', () => {
    expect(parseReportResult({ rows: [{ a: 1 }], total: 5, page: 2, rowsPerPage: 1 })).toEqual({ rows: [{ a: 1 }], total: 5, page: 2, rowsPerPage: 1 });
    expect(() => parseReportResult({ message: 'hi' })).toThrow(/malformed/);
    expect(() => parseReportResult({ eftList: 'nope' }, 'eftList')).toThrow(/eftList/);
  });
  it('never reports fewer total rows than it returned', () => {
    expect(parseReportResult({ rows: [{ a: 1 }, { a: 2 }], total: 1 }).total).toBe(2);
  });
});

describe('boundary parsers', () => {
  const ok = {
    id: 'r1',
    title: 'R',
    endpoint: 'getR',
    filter: { schema },
    columns: [{ field: 'a', headerName: 'A', type: 'currency' }],
    exportCaps: { csv: 1, xlsx: 1, pdf: 1 },
  };
  it('accepts a definition and rejects a malformed one with its path', () => {
    expect(parsePublicReport(ok).columns[0]?.type).toBe('currency');
    expect(() => parsePublicReport({ ...ok, columns: [{ field: 'a', headerName: 'A', type: 'rainbow' }] })).toThrow('/columns/0/type');
    expect(() => parsePublicReport({ ...ok, endpoint: '../x' })).toThrow('/endpoint');
  });
  it("keeps a column's labels, so the grid shows words, and rejects labels that are not text", () => {
    const labelled = { ...ok, columns: [{ field: 'a', headerName: 'A', labels: { NOT_SUBMITTED: 'Not submitted' } }] };
    expect(parsePublicReport(labelled).columns[0]?.labels).toEqual({ NOT_SUBMITTED: 'Not submitted' });
    expect(() => parsePublicReport({ ...ok, columns: [{ field: 'a', headerName: 'A', labels: { X: 1 } }] })).toThrow('/columns/0/labels/X');
  });
  it('reads 400 bodies and falls back on anything else', () => {
    expect(parseErrorBody({ message: 'bad', fields: [{ field: 'trainNo', reason: 'Train No is required' }, { x: 1 }] }, 'f')).toEqual({ message: 'bad', fields: [{ field: 'trainNo', reason: 'Train No is required' }] });
    expect(parseErrorBody('<html>', 'f').message).toBe('<html>');
    expect(parseErrorBody(42, 'fallback').message).toBe('fallback');
  });
  it('builds railway codes from nested or flat items, upper-cased and de-duplicated', () => {
    const codes = parseRailwayCodes([{ id: { rly_Code: 'cr', div_Code: 'BB', off_Code: 'CSMT' } }, { id: { rly_Code: 'CR', div_Code: 'BB', off_Code: 'CSMT' } }, { rly_Code: 'WR', div_Code: 'BCT', off_Code: 'BCT1' }, 'junk']);
    expect(codes).toEqual([{ zone: 'CR', division: 'BB', lobby: 'CSMT' }, { zone: 'WR', division: 'BCT', lobby: 'BCT1' }]);
  });
});

describe('column state persistence', () => {
  const known = ['coach', 'berth', 'fare'];
  it('keeps valid entries and drops unknown, duplicate and malformed ones', () => {
    const raw = JSON.stringify([
      { colId: 'fare', hide: false, width: 5000, pinned: 'left' },
      { colId: 'dropped_column', hide: false },
      { colId: 'coach', hide: true, width: 10, pinned: 'middle' },
      { colId: 'coach', hide: false },
      'garbage',
    ]);
    expect(parseColumnState(raw, known)).toEqual([
      { colId: 'fare', hide: false, width: 2000, pinned: 'left' },
      { colId: 'coach', hide: true, width: 40, pinned: null },
    ]);
  });
  it('ignores corrupt JSON, non-arrays and a layout hiding every column', () => {
    expect(parseColumnState('{not json', known)).toBeNull();
    expect(parseColumnState('{"colId":"coach"}', known)).toBeNull();
    expect(parseColumnState(JSON.stringify([{ colId: 'coach', hide: true }]), known)).toBeNull();
  });
  it('stores per report and tab', () => {
    expect(columnStateKey('Occupancy', 'coachwise')).not.toBe(columnStateKey('Occupancy'));
    expect(toStoredColumns([{ colId: 'a', hide: null, width: 101.6, pinned: true }])).toEqual([{ colId: 'a', hide: false, width: 102, pinned: 'left' }]);
  });
});

describe('drill-down links', () => {
  const link = { report: 'unmanned_coaches', params: { division: '{div_code}', startDate: '{run_date}', mode: 'unmanned', label: '{zone}-{div_code}' } };
  it('fills placeholders from the row and keeps literals', () => {
    expect(fillLinkParams(link.params, { div_code: 'BB', run_date: '2025-08-01', zone: 'CR' })).toEqual({ division: 'BB', startDate: '2025-08-01', mode: 'unmanned', label: 'CR-BB' });
    expect(drillDownHref(link, { div_code: 'BB', run_date: '2025-08-01', zone: 'CR' })).toBe('/layout/uikit/unmanned_coaches?division=BB&startDate=2025-08-01&mode=unmanned&label=CR-BB&_run=1');
  });
  it('gives no link when a placeholder has no value', () => {
    expect(fillLinkParams(link.params, { div_code: null, run_date: '2025-08-01', zone: 'CR' })).toBeNull();
    expect(drillDownHref(link, { run_date: '2025-08-01' })).toBeNull();
  });
  it('encodes values safely', () => {
    expect(drillDownHref({ report: 'x', params: { q: '{v}' } }, { v: 'a&b=c' })).toBe('/layout/uikit/x?q=a%26b%3Dc&_run=1');
  });
});

describe('opening a report already run', () => {
  const rules = [{ rule: 'dateRange' as const, start: 'startDate', end: 'endDate', maxDays: 7 }];
  it('runs only a filter with every required field, valid ids and enum values, and the date rules kept', () => {
    expect(isRunnable({ trainNo: '12301', startDate: '2025-08-01' }, schema, undefined)).toBe(true);
    expect(isRunnable({ startDate: '2025-08-01' }, schema, undefined)).toBe(false);
    expect(isRunnable({ trainNo: '123' }, schema, undefined)).toBe(false);
    expect(isRunnable({ trainNo: '12301', classes: ['SL'] }, schema, undefined)).toBe(true);
    expect(isRunnable({ trainNo: '12301', startDate: '2025-08-01', endDate: '2025-09-01' }, schema, rules)).toBe(false);
  });
});

describe('zone -> division -> lobby cascade', () => {
  const codes = [
    { zone: 'CR', division: 'BB', lobby: 'CSMT' },
    { zone: 'CR', division: 'PUNE', lobby: 'PUNE1' },
    { zone: 'WR', division: 'BCT', lobby: 'BCT1' },
  ];
  const fields = cascadeFields({ z: { 'ui:widget': 'zone' }, d: { 'ui:widget': 'division' }, l: { 'ui:widget': 'lobby' }, t: { 'ui:widget': 'train' } });
  it('narrows divisions and lobbies by the choices above', () => {
    expect(fields).toEqual({ zone: 'z', division: 'd', lobby: 'l' });
    expect(optionsFor('division', codes, fields, { z: 'CR' })).toEqual(['BB', 'PUNE']);
    expect(optionsFor('lobby', codes, fields, { z: 'CR', d: 'PUNE' })).toEqual(['PUNE1']);
    expect(optionsFor('division', codes, fields, {})).toEqual(['BB', 'BCT', 'PUNE']);
  });
  it('clears a division and lobby that are not in the newly chosen zone', () => {
    expect(normaliseCascade({ z: 'WR', d: 'BB', l: 'CSMT', t: '12301' }, fields, codes)).toEqual({ z: 'WR', t: '12301' });
    expect(normaliseCascade({ z: 'CR', d: 'BB', l: 'CSMT' }, fields, codes)).toEqual({ z: 'CR', d: 'BB', l: 'CSMT' });
  });
  it('clears nothing when the codes could not be loaded', () => {
    expect(normaliseCascade({ z: 'WR', d: 'BB' }, fields, [])).toEqual({ z: 'WR', d: 'BB' });
  });
  it("presets and locks a scoped user's own zone and division (their lists hold one), never an all-India user's choice", () => {
    const division = [
      { zone: 'CR', division: 'PUNE', lobby: 'PUNE1' },
      { zone: 'CR', division: 'PUNE', lobby: 'PUNE2' },
    ];
    expect(lockedCode('zone', division)).toBe('CR');
    expect(lockedCode('division', division)).toBe('PUNE');
    expect(lockedCode('lobby', division)).toBeUndefined();
    expect(presetLockedCodes({ t: '12301' }, fields, division)).toEqual({ t: '12301', z: 'CR', d: 'PUNE' });
    const same = { z: 'CR', d: 'PUNE' };
    expect(presetLockedCodes(same, fields, division)).toBe(same);
    // All India: PUNE has one lobby, but choosing PUNE does not narrow the report to it.
    expect(presetLockedCodes({ z: 'CR', d: 'PUNE' }, fields, codes)).toEqual({ z: 'CR', d: 'PUNE' });
    expect(presetLockedCodes({}, fields, [])).toEqual({});
  });
});

describe('export and views', () => {
  it('names the file from the template and the filter when the server names none', () => {
    expect(exportFileName('vacant-berths-{trainNo}-{startDate}', 'x', { trainNo: '12301', startDate: '2025-08-01' }, 'csv')).toBe('vacant-berths-12301-2025-08-01.csv');
    expect(exportFileName(undefined, 'Report_1', {}, 'xlsx')).toBe('Report_1.xlsx');
    expect(fileNameFromDisposition('attachment; filename="a b.pdf"; filename*=UTF-8\'\'a%20b.pdf')).toBe('a b.pdf');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
  });
  it('maps status words to badge colours', () => {
    expect(statusSeverity('Not Turned Up')).toBe('danger');
    expect(statusSeverity('RELEASED')).toBe('success');
    expect(statusSeverity('something else')).toBe('info');
  });
  it('gives each tab its own call, inheriting what it does not override', () => {
    const views = reportViews(
      parsePublicReport({
        id: 'r',
        title: 'Occ',
        endpoint: 'a',
        filter: { schema },
        columns: [{ field: 'x', headerName: 'X' }],
        paging: { mode: 'server', pageSize: 25 },
        tabs: [{ id: 'coach', label: 'Coach-wise', endpoint: 'b', columns: [{ field: 'y', headerName: 'Y' }] }],
        exportCaps: { csv: 1, xlsx: 1, pdf: 1 },
      }),
    );
    expect(views.map((v) => [v.tabId, v.endpoint, v.columns[0]?.field, v.paging.mode])).toEqual([
      [undefined, 'a', 'x', 'server'],
      ['coach', 'b', 'y', 'server'],
    ]);
  });
});

describe('filter validator: Ajv precompiled by the server, run in the browser without eval', async () => {
  const { servedFilterValidator } = await import('../support/filter-validator');
  const { customValidateFor, transformErrorsFor } = await import('../../src/client/features/reports/lib/rules');
  const s: RJSFSchema = {
    type: 'object',
    required: ['trainNo', 'from', 'to'],
    properties: {
      trainNo: { title: 'Train No', type: 'string', pattern: '^[0-9]{5}$' },
      from: { title: 'From', type: 'string', format: 'date' },
      to: { title: 'To', type: 'string', format: 'date' },
      n: { title: 'Count', type: 'integer', minimum: 1 },
      cls: { title: 'Class', type: 'string', enum: ['SL', '3A'] },
    },
  };
  const js = s as Record<string, unknown>;
  const rules = [{ rule: 'dateRange' as const, start: 'from', end: 'to', maxDays: 7 }];
  const filterValidator = await servedFilterValidator(s);
  it('reports schema errors per field, with friendly text', () => {
    const { errors, errorSchema } = filterValidator.validateFormData({ trainNo: '12', from: '2025-02-30', n: 0, cls: 'XX' }, s, undefined, transformErrorsFor(js));
    expect(errors.map((e) => e.message).sort()).toEqual(['Choose Class from the list', 'Count must be at least 1', 'From must be a valid date', 'To is required', 'Train No is not valid'].sort());
    expect(errorSchema.trainNo?.__errors).toEqual(['Train No is not valid']);
    expect(errorSchema.to?.__errors).toEqual(['To is required']);
  });
  it('adds the dateRange rule through customValidate', () => {
    const { errorSchema } = filterValidator.validateFormData({ trainNo: '12301', from: '2025-01-01', to: '2025-01-09' }, s, customValidateFor(rules), transformErrorsFor(js));
    expect(errorSchema.to?.__errors).toEqual(['The date range may span at most 7 days']);
    expect(filterValidator.validateFormData({ trainNo: '12301', from: '2025-01-01', to: '2025-01-07' }, s, customValidateFor(rules)).errors).toEqual([]);
  });
  it('answers isValid for anyOf/oneOf resolution, following local $refs', async () => {
    const root: RJSFSchema = { definitions: { five: { type: 'string', pattern: '^[0-9]{5}$' } }, $ref: '#/definitions/five' };
    const v = await servedFilterValidator(root);
    expect(v.isValid(root, '12301' as unknown as Record<string, unknown>, root)).toBe(true);
    expect(v.isValid(root, '1' as unknown as Record<string, unknown>, root)).toBe(false);
  });
  it('applies every draft-07 keyword, as Ajv does (allOf and if/then were ignored by the old hand-written interpreter)', async () => {
    const cond: RJSFSchema = {
      type: 'object',
      properties: { cls: { title: 'Class', type: 'string' }, coach: { title: 'Coach', type: 'string' } },
      allOf: [{ if: { properties: { cls: { const: 'SL' } }, required: ['cls'] }, then: { required: ['coach'] } }],
    };
    const v = await servedFilterValidator(cond);
    const { errorSchema } = v.validateFormData({ cls: 'SL' }, cond, undefined, transformErrorsFor(cond as Record<string, unknown>));
    expect(errorSchema.coach?.__errors).toEqual(['Coach is required']);
    expect(v.validateFormData({ cls: '3A' }, cond).errors).toEqual([]);
    expect(v.validateFormData({ cls: 'SL', coach: 'S1' }, cond).errors).toEqual([]);
  });
  it('words every problem as the server does (same Ajv options, same messages)', async () => {
    const { parseFilter } = await import('../../src/server/reports/filter');
    const bad = { trainNo: '12', from: '2025-02-30', n: 0, cls: 'XX' };
    const browser = filterValidator.validateFormData(bad, s, undefined, transformErrorsFor(js)).errors.map((e) => e.message).sort();
    // parseFilter needs only the checked filter schema and the definition's filter of a report.
    const report = { file: 'reports/x.json', definition: { filter: { schema: js } }, filterSchema: js, views: [] } as unknown as CheckedReport;
    let server: string[] = [];
    try {
      parseFilter(report, bad, '2025-01-15');
    } catch (e) {
      server = ((e as { fields?: { reason: string }[] }).fields ?? []).map((f) => f.reason).sort();
    }
    expect(server).toEqual(browser);
    expect(server).toHaveLength(5);
  });
});
