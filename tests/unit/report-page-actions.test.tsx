// @vitest-environment jsdom
/**
 * The buttons the app adds to the report page: Save view beside the title and "E-mail me this" on the result toolbar,
 * in English and Hindi, both given one description of the run on screen.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { RJSFSchema } from '@rjsf/utils';
import { prepareReportPageDom } from '../support/jsdom-media';
import { servedFilterValidator } from '../support/filter-validator';
import { ApiError, ReportApiContext, TrainListContext, type ReportApi } from '../../src/client/features/reports/api';
import { ReportPage } from '../../src/client/features/reports/ReportPage';
import { ReportActionsContext, type ReportActions, type ReportPageState } from '../../src/client/features/reports/report-actions';
import { columnStateKey } from '../../src/client/features/reports/lib/column-state';
import { reportPageActions, savedViewState } from '../../src/client/app/report-page-actions';
import { setLanguage } from '../../src/client/i18n';
import type { PublicReport } from '../../src/shared/report-definition';

beforeAll(prepareReportPageDom);
afterEach(async () => {
  cleanup();
  localStorage.clear();
  await setLanguage('en');
});

const report: PublicReport = {
  id: 'demo_report',
  title: 'Demo Report',
  endpoint: 'getDemo',
  filter: {
    schema: {
      type: 'object',
      required: ['trainNo', 'start_date'],
      properties: {
        trainNo: { title: 'Train No', type: 'string', pattern: '^[0-9]{5}$' },
        start_date: { title: 'Date', type: 'string', format: 'date' },
      },
    },
    uiSchema: { trainNo: { 'ui:widget': 'train' }, start_date: { 'ui:widget': 'date' } },
  },
  columns: [
    { field: 'coach', headerName: 'Coach' },
    { field: 'fare', headerName: 'Fare', type: 'currency' },
    { field: 'note', headerName: 'Note', priority: 3 },
  ],
  export: { formats: ['csv', 'pdf'], fileName: 'demo-{trainNo}' },
  paging: { mode: 'client', pageSize: 50 },
  exportCaps: { csv: 200_000, xlsx: 100_000, pdf: 5_000 },
};

function api(def: PublicReport, rows: Record<string, unknown>[]): ReportApi {
  return {
    listReports: async () => [],
    getReport: async (id) => (id === def.id ? def : Promise.reject(new ApiError(`No report "${id}"`, 404))),
    runReport: async () => ({ rows, total: rows.length, page: 1, rowsPerPage: rows.length }),
    exportReport: async () => ({ blob: new Blob(['a']), fileName: 'demo.csv' }),
    railwayCodes: async () => [],
    nearestDate: async () => null,
    filterValidator: (r) => servedFilterValidator(r.filter.schema as RJSFSchema),
    coachConsist: async () => {
      throw new Error('no consist lookup expected');
    },
  };
}

const ROWS = [{ coach: 'S1', fare: 10, note: 'x' }];
const RUN_URL = `/layout/uikit/${report.id}?trainNo=12301&start_date=2026-01-05&_run=1&_sort=fare&_dir=desc&_layout=cards`;

function renderPage(url: string, actions: ReportActions, def: PublicReport = report, rows = ROWS) {
  const router = createMemoryRouter([{ path: '/layout/uikit/:reportId', element: <ReportPage /> }], { initialEntries: [url] });
  render(
    <ReportApiContext.Provider value={api(def, rows)}>
      <TrainListContext.Provider value={['12301']}>
        <ReportActionsContext.Provider value={actions}>
          <RouterProvider router={router} />
        </ReportActionsContext.Provider>
      </TrainListContext.Provider>
    </ReportApiContext.Provider>,
  );
}

const header = (): HTMLElement => {
  const el = document.querySelector<HTMLElement>('.report-header-actions');
  if (!el) throw new Error('no header actions');
  return el;
};
const toolbar = (): HTMLElement => {
  const el = document.querySelector<HTMLElement>('.report-result-actions');
  if (!el) throw new Error('no result toolbar');
  return el;
};

describe("the app's buttons on the report page", { timeout: 40_000 }, () => {
  it('puts Save view beside the title and "E-mail me this" at the end of the result toolbar, after a run', async () => {
    renderPage(RUN_URL, reportPageActions);
    await screen.findByText('S1');
    expect(within(header()).getByRole('button', { name: 'Save view' })).toBeTruthy();
    const buttons = within(toolbar()).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(buttons.at(-1)).toBe('E-mail me this');
    expect(buttons).toContain('Print');
    // Each in its own place only.
    expect(within(header()).queryByRole('button', { name: 'E-mail me this' })).toBeNull();
    expect(within(toolbar()).queryByRole('button', { name: 'Save view' })).toBeNull();
  });

  it('shows the same buttons with their Hindi labels', async () => {
    await setLanguage('hi');
    renderPage(RUN_URL, reportPageActions);
    await screen.findByText('S1');
    expect(within(header()).getByRole('button', { name: 'दृश्य सहेजें' })).toBeTruthy();
    expect(within(toolbar()).getByRole('button', { name: 'मुझे ई-मेल करें' })).toBeTruthy();
  });

  it('shows neither before a run, and "E-mail me this" not for a report mail cannot send', async () => {
    renderPage(`/layout/uikit/${report.id}`, reportPageActions);
    await screen.findByRole('button', { name: 'Run' });
    expect(document.querySelector('.report-header-actions')).toBeNull();
    expect(screen.queryByRole('button', { name: 'E-mail me this' })).toBeNull();
    cleanup();

    const noMail: PublicReport = { ...report, export: { formats: [], fileName: 'demo' } };
    renderPage(RUN_URL, reportPageActions, noMail);
    await screen.findByText('S1');
    expect(within(header()).getByRole('button', { name: 'Save view' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'E-mail me this' })).toBeNull();
  });

  it('gives both places one description of the run on screen: report, tab, applied filter, sort, columns, layout', async () => {
    const seen: Record<'header' | 'toolbar', ReportPageState | null> = { header: null, toolbar: null };
    renderPage(RUN_URL, {
      header: (page) => {
        seen.header = page;
        return <button type="button">in header</button>;
      },
      resultToolbar: (page) => {
        seen.toolbar = page;
        return <button type="button">in toolbar</button>;
      },
    });
    await screen.findByText('S1');
    expect(within(header()).getByRole('button', { name: 'in header' })).toBeTruthy();
    expect(within(toolbar()).getByRole('button', { name: 'in toolbar' })).toBeTruthy();
    const expected = {
      report,
      tab: null,
      filter: { trainNo: '12301', start_date: '2026-01-05' },
      sortBy: 'fare',
      sortDir: 'desc',
      visibleColumns: ['coach', 'fare'], // 'note' is priority 3: hidden until chosen
      layout: 'cards',
    };
    for (const page of [seen.header, seen.toolbar]) {
      expect(page).toMatchObject(expected);
      expect(page?.columnLayout()).toBeNull(); // nothing remembered yet
    }

    // The column layout is read when asked: what the grid stored after the render is what a saved view keeps.
    const stored = [
      { colId: 'fare', hide: false, pinned: 'left' },
      { colId: 'coach', hide: true, pinned: null },
    ];
    localStorage.setItem(columnStateKey(report.id), JSON.stringify(stored));
    if (!seen.header) throw new Error('the header was not given the page');
    expect(savedViewState(seen.header)).toEqual({
      filter: expected.filter,
      tab: null,
      sortBy: 'fare',
      sortDir: 'desc',
      columns: stored,
      layout: 'cards',
    });
  });
});
