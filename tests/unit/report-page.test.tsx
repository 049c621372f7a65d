// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prepareReportPageDom, stubMatchMedia } from '../support/jsdom-media';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { servedFilterValidator } from '../support/filter-validator';
import type { RJSFSchema } from '@rjsf/utils';
import { ApiError, ReportApiContext, TrainListContext, type ExportRequest, type ReportApi, type RunRequest } from '../../src/client/features/reports/api';
import { ReportPage } from '../../src/client/features/reports/ReportPage';
import type { PublicReport } from '../../src/shared/report-definition';
import type { ConsistRequest, ConsistResponse } from '../../src/shared/consist';
import type { NearestDate, ReportPage as ResultPage } from '../../src/client/features/reports/lib/parse';
import { todayIst } from '../../src/client/features/reports/lib/dates';

beforeAll(prepareReportPageDom);
afterEach(() => {
  cleanup();
  localStorage.clear(); // the last train a test ran must not preselect (and run) the next test's report
});

const report: PublicReport = {
  id: 'demo_report',
  title: 'Demo Report',
  description: 'A report made up for the tests.',
  endpoint: 'getDemo',
  filter: {
    schema: {
      type: 'object',
      required: ['trainNo', 'start_date', 'end_date'],
      properties: {
        trainNo: { title: 'Train No', type: 'string', pattern: '^[0-9]{5}$' },
        start_date: { title: 'From', type: 'string', format: 'date' },
        end_date: { title: 'To', type: 'string', format: 'date' },
        cls: { title: 'Class', type: 'string', enum: ['SL', '3A'] },
      },
    },
    uiSchema: { trainNo: { 'ui:widget': 'train' }, start_date: { 'ui:widget': 'date' }, end_date: { 'ui:widget': 'date' } },
    defaults: { start_date: '$today-1', end_date: '$today' },
    rules: [{ rule: 'dateRange', start: 'start_date', end: 'end_date', maxDays: 31 }],
  },
  columns: [
    { field: 'coach', headerName: 'Coach' },
    { field: 'fare', headerName: 'Fare', type: 'currency' },
    { field: 'state', headerName: 'State', type: 'status' },
  ],
  export: { formats: ['csv', 'pdf'], fileName: 'demo-{trainNo}' },
  paging: { mode: 'client', pageSize: 50 },
  exportCaps: { csv: 200_000, xlsx: 100_000, pdf: 5_000 },
};

interface Fake extends ReportApi {
  runs: RunRequest[];
  exports: ExportRequest[];
  consists: ConsistRequest[];
}

function fakeApi(
  opts: {
    definition?: () => Promise<PublicReport>;
    run?: (req: RunRequest) => Promise<ResultPage>;
    consist?: (req: ConsistRequest) => Promise<ConsistResponse>;
    nearest?: (req: RunRequest) => Promise<NearestDate | null>;
  } = {},
): Fake {
  const runs: RunRequest[] = [];
  const exports: ExportRequest[] = [];
  const consists: ConsistRequest[] = [];
  return {
    runs,
    exports,
    consists,
    listReports: async () => [],
    getReport: opts.definition ?? (async (id) => (id === report.id ? report : Promise.reject(new ApiError(`No report "${id}"`, 404)))),
    runReport: async (req) => {
      runs.push(req);
      return opts.run ? opts.run(req) : { rows: [{ coach: 'S1', fare: 1234.5, state: 'Released' }, { coach: 'S2', fare: 10, state: 'Pending' }], total: 2, page: 1, rowsPerPage: 2 };
    },
    exportReport: async (req) => {
      exports.push(req);
      return { blob: new Blob(['a,b']), fileName: 'demo.csv' };
    },
    railwayCodes: async () => [],
    nearestDate: async (req) => (opts.nearest ? opts.nearest(req) : null),
    filterValidator: (r) => servedFilterValidator(r.filter.schema as RJSFSchema),
    coachConsist: async (req) => {
      consists.push(req);
      if (!opts.consist) throw new Error('no consist lookup expected');
      return opts.consist(req);
    },
  };
}

function renderAt(url: string, api: ReportApi, trains: string[] = ['12301', '12951']) {
  const router = createMemoryRouter(
    [
      { path: '/layout/uikit/:reportId', element: <ReportPage /> },
      { path: '/layout/dashboard', element: <p>Dashboard</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <ReportApiContext.Provider value={api}>
      <TrainListContext.Provider value={trains}>
        <RouterProvider router={router} />
      </TrainListContext.Provider>
    </ReportApiContext.Provider>,
  );
  return router;
}

const input = (label: string): HTMLInputElement => {
  const el = screen.getByLabelText(label, { exact: false });
  if (!(el instanceof HTMLInputElement)) throw new Error(`${label} is not an input`);
  return el;
};

describe('report page', { timeout: 40_000 }, () => {
  it('shows a not-found message with a link to the dashboard for an unknown report', async () => {
    renderAt('/layout/uikit/no_such_report', fakeApi());
    expect(await screen.findByRole('heading', { name: 'Report not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /dashboard/i }).getAttribute('href')).toBe('/layout/dashboard');
  });

  it('a run answered "no such call" loads the definition again and shows why the report is unavailable', async () => {
    let broken = false;
    const api = fakeApi({
      definition: async () => {
        if (broken) throw new ApiError('This report is unavailable: reports/demo_report.json#/columns: must NOT have fewer than 1 items', 503);
        return report;
      },
      run: async () => {
        broken = true; // the file broke after the page loaded it
        throw new ApiError('No route POST /api/getDemo', 404);
      },
    });
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    expect(await screen.findByRole('heading', { name: 'Report unavailable' })).toBeTruthy();
    expect(screen.getByText(/must NOT have fewer than 1 items/)).toBeTruthy();
    expect(screen.queryByText(/No route/)).toBeNull();
  });

  it('shows the reason when the definition is unavailable', async () => {
    renderAt('/layout/uikit/demo_report', fakeApi({ definition: () => Promise.reject(new ApiError('This report is unavailable: demo_report.json#/columns/0: bad', 503)) }));
    expect(await screen.findByRole('heading', { name: 'Report unavailable' })).toBeTruthy();
    expect(screen.getByText(/demo_report.json#\/columns\/0: bad/)).toBeTruthy();
  });

  it('fills the defaults ($today) and does not run until asked', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report', api);
    await screen.findByRole('heading', { name: 'Demo Report' });
    const [y, m, d] = todayIst().split('-');
    // The calendar writes its input's text in an effect.
    await waitFor(() => expect(input('To').value).toBe(`${d}/${m}/${y}`));
    expect(screen.getByText('Choose the filter and press Run.')).toBeTruthy();
    expect(api.runs).toHaveLength(0);
  });

  it('runs a shared URL with its filter, and Run pushes a new filter into the URL; back restores the old one', async () => {
    const api = fakeApi();
    const router = renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    await screen.findByText('2 records');
    expect(api.runs[0]?.filter).toEqual({ trainNo: '12301', start_date: '2025-08-01', end_date: '2025-08-02' });
    expect(api.runs[0]?.endpoint).toBe('getDemo');
    expect(input('Train No').value).toBe('12301');

    fireEvent.change(input('Train No'), { target: { value: ' 12951 ' } });
    fireEvent.click(screen.getByRole('button', { name: /^Run/ }));
    await waitFor(() => expect(api.runs).toHaveLength(2));
    expect(api.runs[1]?.filter.trainNo).toBe('12951');
    expect(new URLSearchParams(router.state.location.search).get('trainNo')).toBe('12951');

    await act(() => router.navigate(-1));
    await waitFor(() => expect(input('Train No').value).toBe('12301'));
    await waitFor(() => expect(api.runs.at(-1)?.filter.trainNo).toBe('12301'));
  });

  it('refuses a date range the definition forbids, without calling the server', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-10&end_date=2025-08-01', api);
    await screen.findByRole('heading', { name: 'Demo Report' });
    await screen.findByRole('button', { name: /^Run/ }); // the form shows once its validator module is loaded
    fireEvent.click(screen.getByRole('button', { name: /^Run/ }));
    expect(await screen.findByText('End date must not be before the start date')).toBeTruthy();
    expect(api.runs).toHaveLength(0);
  });

  it('shows friendly schema errors on the fields', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report', api);
    await screen.findByRole('heading', { name: 'Demo Report' });
    await screen.findByRole('button', { name: /^Run/ }); // the form shows once its validator module is loaded
    fireEvent.change(input('Train No'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: /^Run/ }));
    expect(await screen.findByText('Train No is not valid')).toBeTruthy();
    expect(api.runs).toHaveLength(0);
  });

  it('trims the spaces around an id as it is typed or pasted, so the form accepts what the server will', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report?start_date=2025-08-01&end_date=2025-08-02', api);
    await screen.findByRole('heading', { name: 'Demo Report' });
    await screen.findByRole('button', { name: /^Run/ }); // the form shows once its validator module is loaded
    fireEvent.change(input('Train No'), { target: { value: '  12301 ' } });
    await waitFor(() => expect(input('Train No').value).toBe('12301'));
    fireEvent.click(screen.getByRole('button', { name: /^Run/ }));
    await waitFor(() => expect(api.runs.at(-1)?.filter.trainNo).toBe('12301'));
    expect(screen.queryByText('Train No is not valid')).toBeNull();
  });

  it("loads the zone/division lists again for another user signed in in the same tab, never showing the previous user's", async () => {
    const cascade: PublicReport = {
      ...report,
      id: 'cascade_report',
      filter: {
        schema: { type: 'object', properties: { zone: { title: 'Zone', type: 'string' }, division: { title: 'Division', type: 'string' } } },
        uiSchema: { zone: { 'ui:widget': 'zone' }, division: { 'ui:widget': 'division' } },
      },
    };
    const owners: (string | null)[] = [];
    const api: ReportApi = {
      ...fakeApi({ definition: async () => cascade }),
      railwayCodes: async () => {
        owners.push(sessionStorage.getItem('ACCESS_TOKEN'));
        return [];
      },
    };
    const tokenOf = (sub: string): string => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.s`;
    const open = async (): Promise<void> => {
      renderAt('/layout/uikit/cascade_report', api);
      await screen.findByRole('heading', { name: 'Demo Report' });
      cleanup();
    };
    try {
      sessionStorage.setItem('ACCESS_TOKEN', tokenOf('HHTDIV'));
      await open();
      await waitFor(() => expect(owners).toHaveLength(1));
      await open(); // the same user: the lists are kept
      sessionStorage.setItem('ACCESS_TOKEN', tokenOf('HHTZONE'));
      await open();
      await waitFor(() => expect(owners).toEqual([tokenOf('HHTDIV'), tokenOf('HHTZONE')]));
    } finally {
      sessionStorage.removeItem('ACCESS_TOKEN');
    }
  });

  it("presets a division user's own zone and division, locked, and runs with them", async () => {
    const cascade: PublicReport = {
      ...report,
      id: 'cascade_report',
      filter: {
        schema: { type: 'object', properties: { zone: { title: 'Zone', type: 'string' }, division: { title: 'Division', type: 'string' }, lobby: { title: 'Lobby', type: 'string' } } },
        uiSchema: { zone: { 'ui:widget': 'zone' }, division: { 'ui:widget': 'division' }, lobby: { 'ui:widget': 'lobby' } },
      },
    };
    const api: Fake = {
      ...fakeApi({ definition: async () => cascade }),
      railwayCodes: async () => [
        { zone: 'NR', division: 'DLI', lobby: 'NDLS' },
        { zone: 'NR', division: 'DLI', lobby: 'NZM' },
      ],
    };
    renderAt('/layout/uikit/cascade_report', api);
    await screen.findByRole('heading', { name: 'Demo Report' });
    const dropdownOf = (id: string): Element | null => document.getElementById(id)?.closest('.p-dropdown') ?? null;
    // Generous waits: the codes load and the preset lands in the form after a render or two, slower on a busy CI.
    await waitFor(() => expect(dropdownOf('root_zone')?.textContent).toContain('NR'), { timeout: 5000 });
    expect(dropdownOf('root_division')?.textContent).toContain('DLI');
    expect(dropdownOf('root_zone')?.classList.contains('p-disabled')).toBe(true);
    expect(dropdownOf('root_division')?.classList.contains('p-disabled')).toBe(true);
    expect(dropdownOf('root_lobby')?.classList.contains('p-disabled')).toBe(false);
    // The page opened already run (no field is required); while that run is under way the Run button is disabled and
    // a click would be lost, so wait for it to be ready (on a busy machine the first run can outlast the presets).
    const runButton = screen.getByRole('button', { name: /^Run/ });
    await waitFor(() => expect(runButton.hasAttribute('disabled')).toBe(false), { timeout: 5000 });
    fireEvent.click(runButton);
    await waitFor(() => expect(api.runs.at(-1)?.filter).toMatchObject({ zone: 'NR', division: 'DLI' }), { timeout: 5000 });
  });

  it("says a train outside the user's train list is not in their area, instead of 'No records found'", async () => {
    renderAt('/layout/uikit/demo_report?trainNo=22439&start_date=2025-08-01&end_date=2025-08-02&_run=1', fakeApi({ run: async () => ({ rows: [], total: 0, page: 1, rowsPerPage: 0 }) }));
    expect(await screen.findByText('Train 22439 is not in your area')).toBeTruthy();
    expect(screen.queryByText('No records found')).toBeNull();
  });

  it('opens already run when the defaults and the remembered train make a valid filter, without a click', async () => {
    localStorage.setItem('hht.reports.lastTrain', '12951');
    const api = fakeApi();
    const router = renderAt('/layout/uikit/demo_report', api);
    await waitFor(() => expect(api.runs.at(-1)?.filter).toMatchObject({ trainNo: '12951', end_date: todayIst() }));
    expect(router.state.location.search).toContain('_run=1');
    expect(await screen.findByText('S1')).toBeTruthy();
  });

  it("preselects the user's only train and runs; a train that is not the user's is not preselected", async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report', api, ['12301']);
    await waitFor(() => expect(api.runs.at(-1)?.filter.trainNo).toBe('12301'));
    cleanup();
    localStorage.setItem('hht.reports.lastTrain', '99999');
    const other = fakeApi();
    renderAt('/layout/uikit/demo_report', other);
    await screen.findByRole('heading', { name: 'Demo Report' });
    expect(screen.getByText('Choose the filter and press Run.')).toBeTruthy();
    expect(other.runs).toHaveLength(0);
  });

  it("opens with the running strip's train when no report train is remembered yet", async () => {
    localStorage.setItem('hht.trainStrip.trainNo', '12301');
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report', api);
    await waitFor(() => expect(api.runs.at(-1)?.filter.trainNo).toBe('12301'));
  });

  it('remembers the train of a run for the next train report', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    await waitFor(() => expect(api.runs).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem('hht.reports.lastTrain')).toBe('12301'));
  });

  it("shows a labelled column's words, never the stored code", async () => {
    const labelled: PublicReport = { ...report, columns: [{ field: 'coach', headerName: 'Coach' }, { field: 'state', headerName: 'State', type: 'status', labels: { NOT_SUBMITTED: 'Not submitted' } }] };
    renderAt(
      '/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1',
      fakeApi({ definition: async () => labelled, run: async () => ({ rows: [{ coach: 'S1', state: 'NOT_SUBMITTED' }], total: 1, page: 1, rowsPerPage: 1 }) }),
    );
    expect(await screen.findByText('Not submitted')).toBeTruthy();
    expect(screen.queryByText('NOT_SUBMITTED')).toBeNull();
  });

  it("shows 'No records found' with the applied filters", async () => {
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', fakeApi({ run: async () => ({ rows: [], total: 0, page: 1, rowsPerPage: 0 }) }));
    const empty = await screen.findByText('No records found');
    const box = empty.parentElement;
    if (!box) throw new Error('no empty box');
    expect(within(box).getByText('12301')).toBeTruthy();
    expect(within(box).getByText('01/08/2025')).toBeTruthy();
  });

  it("puts the server's 400 field errors on the fields and keeps the form values", async () => {
    const api = fakeApi({ run: () => Promise.reject(new ApiError('Train No is not run on this date', 400, [{ field: 'trainNo', reason: 'Train 12301 does not run on 01/08/2025' }])) });
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    expect(await screen.findByText('Train 12301 does not run on 01/08/2025')).toBeTruthy();
    expect(screen.getByText(/Please check the filter/)).toBeTruthy();
    expect(input('Train No').value).toBe('12301');
  });

  it("shows the server's message when the report times out, with a retry", async () => {
    let fail = true;
    const api = fakeApi({ run: async () => (fail ? Promise.reject(new ApiError('The report took longer than 15 s; narrow the filter', 503)) : { rows: [{ coach: 'S9' }], total: 1, page: 1, rowsPerPage: 1 }) });
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    expect(await screen.findByText(/took longer than 15 s/)).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 record')).toBeTruthy();
  });

  it('Reset restores the defaults and clears the result', async () => {
    const router = renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-07-01&end_date=2025-07-02&_run=1', fakeApi());
    await screen.findByText('2 records');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    const [y, m, d] = todayIst().split('-');
    await waitFor(() => expect(input('To').value).toBe(`${d}/${m}/${y}`));
    expect(input('Train No').value).toBe('');
    expect(router.state.location.search).toBe('');
  });

  it('says when the client-paged result is cut short and shows the export caps', async () => {
    renderAt(
      '/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1',
      fakeApi({ run: async () => ({ rows: [{ coach: 'S1' }], total: 45_000, page: 1, rowsPerPage: 1 }) }),
    );
    expect(await screen.findByText('Showing the first 1 of 45,000 rows; export for all.')).toBeTruthy();
    expect(screen.getByText(/up to 2,00,000 \(CSV\), 5,000 \(PDF\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Excel/ })).toBeNull();
  });

  it('exports with the run filter and the visible columns', async () => {
    const api = fakeApi();
    renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', api);
    await screen.findByText('2 records');
    // jsdom has no object URLs; the download itself is the browser's job.
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => undefined;
    fireEvent.click(screen.getByRole('button', { name: /CSV/ }));
    expect(await screen.findByText('Downloaded demo.csv')).toBeTruthy();
    expect(api.exports[0]).toMatchObject({ reportId: 'demo_report', format: 'csv', filter: { trainNo: '12301', start_date: '2025-08-01', end_date: '2025-08-02' }, columns: ['coach', 'fare', 'state'] });
  });

  // Row order itself is checked in a real browser (tests/e2e/report-catalogue): jsdom lays out no grid rows.
  it("a shared URL's sort is the grid's, a header click puts a new one in the URL, the export follows it, the server is not asked again", async () => {
    const api = fakeApi();
    const router = renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1&_sort=fare&_dir=asc', api);
    await screen.findByText('2 records');
    const fareHeader = (): Element | null => document.querySelector('.ag-header-cell[col-id="fare"]');
    await waitFor(() => expect(fareHeader()?.getAttribute('aria-sort')).toBe('ascending'));

    const label = fareHeader()?.querySelector('.ag-header-cell-label');
    if (!label) throw new Error('no fare header');
    fireEvent.click(label);
    await waitFor(() => expect(router.state.location.search).toContain('_sort=fare&_dir=desc'));
    await waitFor(() => expect(fareHeader()?.getAttribute('aria-sort')).toBe('descending'));
    await act(async () => undefined); // the router renders a new location in a transition: let it commit
    expect(api.runs).toHaveLength(1);
    expect(api.runs[0]?.sortBy).toBeUndefined();

    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => undefined;
    fireEvent.click(screen.getByRole('button', { name: /CSV/ }));
    expect(await screen.findByText('Downloaded demo.csv')).toBeTruthy();
    expect(api.exports[0]).toMatchObject({ sortBy: 'fare', sortDir: 'desc' });

    // The print view lists the rows in the same order (fare 1,234.50 before 10).
    window.print = () => undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    const printed = await screen.findByTestId('report-print');
    expect([...printed.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('td')?.textContent)).toEqual(['S1', 'S2']);
  });

  describe('coach composition (definition key consist)', () => {
    const withConsist: PublicReport = {
      ...report,
      id: 'consist_report',
      filter: {
        ...report.filter,
        schema: {
          type: 'object',
          required: ['trainNo', 'start_date', 'end_date'],
          properties: { ...(report.filter.schema.properties as object), coach: { title: 'Coach', type: 'string' } },
        },
      },
      consist: { trainNo: 'trainNo', startDate: 'start_date', coach: 'coach' },
    };
    const definition = async () => withConsist;
    const coaches = (req: ConsistRequest): Promise<ConsistResponse> =>
      Promise.resolve({
        trainNo: req.trainNo,
        startDate: req.startDate,
        trainEvent: req.trainEvent ?? 'C',
        coaches: [
          { seq: 1, coachId: 'H1', class: '1A', capacity: 24 },
          { seq: 2, coachId: 'A1', class: '2A', capacity: 54 },
          { seq: 3, coachId: 'S1', class: 'SL', capacity: 72 },
        ],
      });
    const url = '/layout/uikit/consist_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1';

    it("shows the run's coaches in order for the filter's train and date", async () => {
      const api = fakeApi({ definition, consist: coaches });
      renderAt(url, api);
      const section = await screen.findByRole('region', { name: /Coach composition/ });
      await within(section).findByRole('button', { name: 'H1 1A, 24 berths' });
      expect(within(section).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
        'H1 1A, 24 berths',
        'A1 2A, 54 berths',
        'S1 SL, 72 berths',
      ]);
      expect(within(section).getByText(/train 12301, 01\/08\/2025 · 3 coaches · 150 berths/)).toBeTruthy();
      expect(api.consists).toEqual([{ trainNo: '12301', startDate: '2025-08-01', trainEvent: 'C' }]);
    });

    it('a click on a coach runs the report for that coach; a second click shows all coaches again', async () => {
      const api = fakeApi({ definition, consist: coaches });
      const router = renderAt(url, api);
      await screen.findByText('2 records');
      fireEvent.click(await screen.findByRole('button', { name: 'A1 2A, 54 berths' }));
      await waitFor(() => expect(api.runs.at(-1)?.filter.coach).toBe('A1'));
      expect(new URLSearchParams(router.state.location.search).get('coach')).toBe('A1');
      const pressed = await screen.findByRole('button', { name: 'A1 2A, 54 berths', pressed: true });
      fireEvent.click(pressed);
      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('coach')).toBeNull());
      await waitFor(() => expect(api.runs.at(-1)?.filter).toEqual({ trainNo: '12301', start_date: '2025-08-01', end_date: '2025-08-02' }));
      // The composition belongs to the run, not the coach: it is not looked up again.
      expect(api.consists).toHaveLength(1);
    });

    it('a failed lookup says so and leaves the report working; Try again asks again', async () => {
      let fail = true;
      const api = fakeApi({ definition, consist: (req) => (fail ? Promise.reject(new ApiError('Train 12301 is not in your train list', 404)) : coaches(req)) });
      renderAt(url, api);
      expect(await screen.findByText(/Coach composition unavailable: Train 12301 is not in your train list/)).toBeTruthy();
      expect(await screen.findByText('2 records')).toBeTruthy();
      fail = false;
      fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('button', { name: 'S1 SL, 72 berths' })).toBeTruthy();
    });

    it('is not looked up before the report runs, nor for a report without the key', async () => {
      const api = fakeApi({ definition, consist: coaches });
      renderAt('/layout/uikit/consist_report?trainNo=12301', api);
      await screen.findByText('Choose the filter and press Run.');
      expect(screen.queryByRole('region', { name: /Coach composition/ })).toBeNull();
      cleanup();
      const plain = fakeApi();
      renderAt('/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1', plain);
      await screen.findByText('2 records');
      expect(screen.queryByRole('region', { name: /Coach composition/ })).toBeNull();
      expect(api.consists).toHaveLength(0);
      expect(plain.consists).toHaveLength(0);
    });
  });
});

describe('report page on a phone (600 px and narrower)', { timeout: 40_000 }, () => {
  let original: typeof window.matchMedia;
  beforeAll(() => {
    stubMatchMedia();
    original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: query.includes('max-width: 600px') })) as typeof window.matchMedia;
  });
  afterAll(() => {
    window.matchMedia = original;
  });

  const prioritised: PublicReport = {
    ...report,
    columns: [
      { field: 'coach', headerName: 'Coach', priority: 1 },
      { field: 'fare', headerName: 'Fare', type: 'currency', priority: 2 },
      { field: 'state', headerName: 'State', type: 'status', priority: 1 },
    ],
  };
  const url = '/layout/uikit/demo_report?trainNo=12301&start_date=2025-08-01&end_date=2025-08-02&_run=1';

  it('shows one card per row with the priority-1 values, the rest under Details, and the filter folded into one line', async () => {
    const router = renderAt(url, fakeApi({ definition: async () => prioritised }));
    const cards = await screen.findAllByRole('listitem');
    const rows = cards.filter((li) => li.classList.contains('report-card-row'));
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    expect([...first.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Coach', 'State']);
    expect(within(first).getByText('S1')).toBeTruthy();
    expect(within(first).queryByText('₹ 1,234.50')).toBeNull();
    fireEvent.click(within(first).getByRole('button', { name: /Details/ }));
    expect(within(first).getByText('₹ 1,234.50')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
    // No grid on a phone.
    expect(document.querySelector('.ag-root-wrapper')).toBeNull();
    // The filter: one line of its values, named filter by filter under the count; Edit opens the form.
    expect(screen.getByText('12301 - 01/08/2025 - 02/08/2025')).toBeTruthy();
    expect([...document.querySelectorAll('[data-filter-field]')].map((e) => e.getAttribute('data-filter-field'))).toEqual(['trainNo', 'start_date', 'end_date']);
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(await screen.findByRole('button', { name: /Run/ })).toBeTruthy();
    // Sorting from the card list goes into the URL, as a header click on the grid does.
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'fare' } });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('_sort')).toBe('fare'));
  });
});
