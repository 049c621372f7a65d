import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Paginator } from 'primereact/paginator';
import { TabMenu } from 'primereact/tabmenu';
import { formatCell, formatDate } from '../../../shared/column-types';
import { filterEnumName } from '../../../shared/filter-labels';
import { CLIENT_PAGING_MAX_ROWS, type ColumnDef, type JsonObject, type PublicReport } from '../../../shared/report-definition';
import { resolveDefaults } from '../../../shared/definitions/filter-widgets';
import { ApiError, useReportApi, useReportQuery, useTrainList, type RunRequest } from './api';
import { trainsOutOfArea } from './lib/area';
import { isRunnable, preselectTrain, trainToRemember } from './lib/open-run';
import { rememberedTrain, rememberReportTrain } from '../../lib/train-memory';
import { cleanFilter, describeFilter, filterKey, filterToParams, paramsToFilter, paramsToView, VIEW_KEYS, type Filter } from './lib/filter-url';
import { todayIst } from './lib/dates';
import { reportViews } from './lib/views';
import type { Row } from './lib/parse';
import { FilterForm } from './components/FilterForm';
import { sortRows, type SortState } from './lib/sort-rows';
import type { PrintData } from './components/PrintView';
import { ReportHeader } from './components/ReportHeader';
import { ResultToolbar } from './components/ResultToolbar';
import { ErrorState, LoadingRows } from './components/States';
import { CoachConsist } from './components/CoachConsist';
import { pagerNames } from './components/pager-a11y';
import { ResultCards } from './components/ResultCards';
import { NearestDate } from './components/NearestDate';
import { useNarrowScreen } from './lib/narrow';
import { orderByPriority, shownByDefault } from './lib/priority';
import { singleDateField } from '../../../shared/definitions/date-field';
import { Button } from 'primereact/button';
import { FreshnessNote } from '../../lib/freshness/FreshnessNote';
import type { ReportPageState } from './report-actions';
import { columnStateKey, readColumnState } from './lib/column-state';

/**
 * AG Grid is most of a report's code and only shows results: it loads when the page has a request to run (Run, or a
 * shared link that runs), in parallel with the request, so the filter form does not wait for it.
 */
const loadGrid = () => import('./components/ResultGrid');
const ResultGrid = lazy(async () => ({ default: (await loadGrid()).ResultGrid }));

const n = (x: number): string => formatNumber(x);

const PRINT_PAGE = 1000;

/** How far back the empty state's nearest earlier date looks (the server's limit). */
const NEAREST_DAYS_BACK = 31;

/** A filter value for people: the enum's words from the uiSchema, dates dd/mm/yyyy, lists joined, booleans Yes/No. */
function showValue(uiSchema: JsonObject | undefined, key: string, prop: JsonObject, v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => showValue(uiSchema, key, prop, x)).join(', ');
  const name = filterEnumName(prop, uiSchema, key, v);
  if (name !== undefined) return name;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return formatDate(v);
  return formatCell(undefined, v);
}

/**
 * One report: filter form, tabs, result grid, paging, export and print, all driven by the definition and the URL; the
 * buttons the app adds come through ReportActionsContext (report-actions.ts).
 */
export function ReportView({
  report,
  onCallGone,
}: {
  report: PublicReport;
  /** The server has no such call (404): the definition changed. */
  onCallGone?: () => void;
}) {
  const { t } = useTranslation();
  const reportApi = useReportApi();
  const trains = useTrainList();
  const [searchParams, setSearchParams] = useSearchParams();
  const schema = report.filter.schema;
  const views = useMemo(() => reportViews(report), [report]);
  const tabIds = useMemo(() => views.flatMap((v) => (v.tabId ? [v.tabId] : [])), [views]);
  const tabParam = paramsToView(searchParams, tabIds, []).tab;
  const active = views.find((v) => v.tabId === tabParam) ?? views[0];
  if (!active) throw new Error('A report always has its main view');
  // Priority 1 first, then 2, then 3: the grid, the cards, print and exports all take this order.
  const columns = useMemo(() => orderByPriority(active.columns), [active]);
  const narrowScreen = useNarrowScreen();
  const sortable = active.columns.filter((c) => c.sortable !== false).map((c) => c.field);
  const view = paramsToView(searchParams, tabIds, sortable);
  // A card list on a phone, a table otherwise, unless the user (or a saved view) chose one.
  const narrow = view.layout ? view.layout === 'cards' : narrowScreen;
  const server = active.paging.mode === 'server';

  const defaults = useMemo(() => resolveDefaults(report.filter.defaults, todayIst()), [report]);
  // The URL's filter over the defaults (the server fills blanks with the same defaults). It runs only with '_run=1';
  // without it a link just pre-fills the form.
  const urlFields = useMemo(() => cleanFilter({ ...defaults, ...paramsToFilter(searchParams, schema) }, schema), [defaults, searchParams, schema]);
  const urlKey = filterKey(urlFields, schema);
  const urlFilter = view.run ? urlFields : null;

  // When the URL's filter changes (Run, back/forward, a shared link) the form follows it.
  const [form, setForm] = useState<Filter>(urlFields);
  const [formFor, setFormFor] = useState(urlKey);
  if (formFor !== urlKey) {
    setFormFor(urlKey);
    setForm(urlFields);
  }

  const sort: SortState = view.sortBy ? { sortBy: view.sortBy, sortDir: view.sortDir ?? 'asc' } : {};
  const page = server ? (view.page ?? 1) : 1;
  const rowsPerPage = server ? (view.rowsPerPage ?? active.paging.pageSize) : undefined;
  const request: RunRequest | null = urlFilter
    ? {
        endpoint: active.endpoint,
        method: active.method,
        filter: urlFilter,
        ...(active.rowsPath ? { rowsPath: active.rowsPath } : {}),
        ...(server ? { page, rowsPerPage, ...sort } : {}),
      }
    : null;
  const queryKey = request ? JSON.stringify(request) : null;
  const keepKey = request ? `${active.endpoint}?${urlKey ?? ''}` : null;
  const query = useReportQuery(request, queryKey, keepKey);
  const wantsGrid = request !== null && !narrow;
  useEffect(() => {
    if (wantsGrid) void loadGrid().catch(() => undefined); // a failed load shows when the grid renders
  }, [wantsGrid]);

  const callGone = query.error?.status === 404;
  useEffect(() => {
    if (callGone) onCallGone?.();
  }, [callGone, onCallGone]);

  // Field errors of a 400 stay on the fields until the user edits the form.
  const [dismissed, setDismissed] = useState<ApiError | null>(null);
  const serverErrors = query.error && query.error.status === 400 && query.error !== dismissed ? query.error.fields : [];

  const [visible, setVisible] = useState<string[] | null>(null);
  const visibleFields = visible ?? columns.filter(shownByDefault).map((c) => c.field);
  const byField = new Map(columns.map((c) => [c.field, c]));
  const visibleColumns = visibleFields.map((f) => byField.get(f)).filter((c): c is ColumnDef => c !== undefined);

  /** Changes the page's own URL keys, keeping the filter. */
  const updateView = useCallback(
    (patch: Partial<Record<keyof typeof VIEW_KEYS, string | null>>) => {
      const next = new URLSearchParams(searchParams);
      for (const [k, v] of Object.entries(patch) as [keyof typeof VIEW_KEYS, string | null][]) {
        if (v === null) next.delete(VIEW_KEYS[k]);
        else next.set(VIEW_KEYS[k], v);
      }
      setSearchParams(next);
    },
    [searchParams, setSearchParams],
  );

  // On a phone the filter folds into one line after a run; Edit opens it again.
  const [editing, setEditing] = useState(false);

  const run = (filter: Filter) => {
    setDismissed(null);
    setEditing(false);
    scrollPending.current = true;
    const next = filterToParams(filter, schema, {
      ...(view.tab ? { tab: view.tab } : {}),
      ...(view.rowsPerPage ? { rowsPerPage: view.rowsPerPage } : {}),
      ...(view.layout ? { layout: view.layout } : {}),
      ...sort,
    });
    // Running the same filter again (a refresh) reloads; a new filter goes into the history.
    if (next.toString() === searchParams.toString()) query.reload();
    else setSearchParams(next);
  };

  // Opening the page: run at once when the defaults (and the user's last or only train) make a valid filter, so the
  // officer sees figures without a click; otherwise pre-fill what can be and wait for Run. Once per page open.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    if (view.run) return;
    const filter = preselectTrain(urlFields, schema, report.filter.uiSchema, trains, rememberedTrain());
    if (isRunnable(filter, schema, report.filter.rules)) {
      const order = view.sortBy ? { sortBy: view.sortBy, sortDir: view.sortDir ?? 'asc' } : {};
      setSearchParams(filterToParams(filter, schema, { ...(view.tab ? { tab: view.tab } : {}), ...order }), { replace: true });
    } else if (filter !== urlFields) {
      setForm(filter);
    }
    // Runs once (the ref); the values are those of the first render.
  }, [view.run, view.tab, view.sortBy, view.sortDir, urlFields, report.filter.uiSchema, report.filter.rules, trains, schema, setSearchParams]);

  // The train of the last run is the one the next train report opens with.
  const remember = trainToRemember(urlFilter, report.filter.uiSchema, trains);
  useEffect(() => {
    if (remember) rememberReportTrain(remember);
  }, [remember]);

  // After Run, the results (or the error) come into view: on a small screen they are below the form.
  const resultsRef = useRef<HTMLElement>(null);
  const scrollPending = useRef(false);
  useEffect(() => {
    if (!scrollPending.current || query.loading || (!query.data && !query.error)) return;
    scrollPending.current = false;
    resultsRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [query.loading, query.data, query.error]);

  const reset = () => {
    setDismissed(query.error);
    setForm(defaults);
    setFormFor(filterKey(defaults, schema));
    if (view.run) setSearchParams(view.tab ? new URLSearchParams({ [VIEW_KEYS.tab]: view.tab }) : new URLSearchParams());
  };

  /** A click on a coach of the composition: that coach only, or all coaches again. */
  const pickCoach = (field: string, coach: string | null) => {
    const next: Filter = { ...(urlFilter ?? form) };
    if (coach === null) delete next[field];
    else next[field] = coach;
    run(next);
  };

  const onSortChange = (s: SortState) => updateView({ sort: s.sortBy ?? null, dir: s.sortBy ? (s.sortDir ?? 'asc') : null, page: null });

  const fetchAll = async (onProgress: (loaded: number, total: number) => void): Promise<PrintData> => {
    const data = query.data;
    if (!request || !data) return { rows: [], total: 0 };
    if (!server) return { rows: sortRows(data.rows, columns, sort), total: data.total };
    const rows: Row[] = [];
    for (let p = 1; rows.length < CLIENT_PAGING_MAX_ROWS; p++) {
      const r = await reportApi.runReport({ ...request, page: p, rowsPerPage: PRINT_PAGE });
      rows.push(...r.rows);
      onProgress(rows.length, r.total);
      if (r.rows.length < PRINT_PAGE || rows.length >= r.total) return { rows, total: r.total };
    }
    return { rows: rows.slice(0, CLIENT_PAGING_MAX_ROWS), total: data.total };
  };

  const data = query.data;
  const applied = urlFilter ? describeFilter(urlFilter, schema, (k, prop, v) => showValue(report.filter.uiSchema, k, prop, v)) : [];
  const activeIndex = Math.max(0, views.indexOf(active));
  const outOfArea = trainsOutOfArea(urlFilter, report.filter.uiSchema, trains);
  const dateField = singleDateField(schema, report.filter.rules);
  const folded = narrow && urlFilter !== null && !editing && serverErrors.length === 0;
  const appliedLine = applied.length > 0 ? t('reports.appliedFilters', { list: applied.map((f) => `${f.label}: ${f.value}`).join(' · ') }) : t('reports.appliedNone');
  // Every filter that made the result, each named: nothing narrows a result unseen.
  const appliedList = (
    <p className="report-applied-line">
      {applied.length === 0
        ? t('reports.appliedNone')
        : applied.map((f, i) => (
            <span key={f.key} data-filter-field={f.key}>
              {i === 0 ? t('reports.appliedLabel') : ' · '}
              {f.label}: <span data-value="">{f.value}</span>
            </span>
          ))}
    </p>
  );

  // The run on screen, as export, print and the app's buttons see it (nothing before a run).
  const pageState: ReportPageState | null = urlFilter
    ? {
        report,
        tab: active.tabId ?? null,
        filter: urlFilter,
        sortBy: sort.sortBy ?? null,
        sortDir: sort.sortBy ? (sort.sortDir ?? 'asc') : null,
        visibleColumns: visibleFields,
        columnLayout: () => readColumnState(typeof localStorage === 'undefined' ? undefined : localStorage, columnStateKey(report.id, active.tabId), active.columns.map((c) => c.field)),
        layout: view.layout ?? null,
      }
    : null;

  return (
    <div className="report-page">
      <ReportHeader report={report} page={pageState} />

      {folded ? (
        <section className="report-card report-filter-folded" aria-label={t('reports.filterSummary')}>
          <p title={appliedLine} data-value="">
            {applied.length > 0 ? applied.map((f) => f.value).join(' - ') : t('reports.noFilter')}
          </p>
          <Button type="button" label={t('reports.editFilter')} icon="pi pi-pencil" text size="small" aria-expanded={false} onClick={() => setEditing(true)} />
        </section>
      ) : (
        <section className="report-card" aria-label={t('reports.filter')}>
          <FilterForm
            report={report}
            value={form}
            onChange={(v) => {
              setForm(v);
              if (query.error) setDismissed(query.error);
            }}
            onRun={run}
            onReset={reset}
            running={query.loading}
            serverErrors={serverErrors}
          />
        </section>
      )}

      {report.consist && urlFilter && outOfArea.length === 0 && (
        <CoachConsist
          def={report.consist}
          filter={urlFilter}
          onPickCoach={(coach) => {
            const field = report.consist?.coach;
            if (field) pickCoach(field, coach);
          }}
        />
      )}

      {views.length > 1 && (
        <TabMenu
          className="report-tabs"
          model={views.map((v) => ({ label: v.label }))}
          activeIndex={activeIndex}
          onTabChange={(e) => {
            const v = views[e.index];
            setVisible(null);
            updateView({ tab: v?.tabId ?? null, page: null, sort: null, dir: null });
          }}
        />
      )}

      <section ref={resultsRef} className="report-card report-results" aria-labelledby="report-results-heading" aria-busy={query.loading}>
        <h2 id="report-results-heading" className="report-sr-only">
          {t('reports.results')}
        </h2>
        {!request && <p className="report-hint">{t('reports.hint')}</p>}
        {request && query.loading && !data && <LoadingRows label={t('reports.runningReport')} />}
        {request && query.error && (
          <ErrorState
            title={query.error.status === 400 ? t('reports.checkFilter') : t('reports.runFailed')}
            message={query.error.message}
            {...(query.error.status === 400 ? {} : { onRetry: query.reload })}
          />
        )}
        {request && data && !query.error && data.rows.length === 0 && !query.loading && outOfArea.length > 0 && (
          <div className="report-empty" role="status">
            <p className="report-empty-title">{t('reports.outOfAreaTitle', { trains: outOfArea.join(', ') })}</p>
            <p>{t('reports.outOfAreaText')}</p>
          </div>
        )}
        {request && data && !query.error && data.rows.length === 0 && !query.loading && outOfArea.length === 0 && (
          <div className="report-empty" role="status">
            <p className="report-empty-title">{t('reports.noRecords')}</p>
            <FreshnessNote freshness={data.freshness} cacheAgeSeconds={data.cacheAgeSeconds} />
            {applied.length > 0 ? (
              <>
                <p>{t('reports.forFilter')}</p>
                <dl className="report-applied">
                  {applied.map((f) => (
                    <div key={f.label}>
                      <dt>{f.label}</dt>
                      <dd>{f.value}</dd>
                    </div>
                  ))}
                </dl>
              </>
            ) : (
              <p>{t('reports.forEmptyFilter')}</p>
            )}
            {dateField && request && queryKey && (
              <NearestDate request={request} requestKey={queryKey} daysBack={NEAREST_DAYS_BACK} onPick={(field, date) => run({ ...(urlFilter ?? form), [field]: date })} />
            )}
          </div>
        )}
        {pageState && data && !query.error && data.rows.length > 0 && (
          <>
            <ResultToolbar
              summary={
                <div className="report-count-block">
                  <p className="report-count" role="status" aria-live="polite">
                    {server
                      ? t('reports.recordsShowing', { count: data.total, formatted: n(data.total), from: n((page - 1) * (rowsPerPage ?? 0) + 1), to: n((page - 1) * (rowsPerPage ?? 0) + data.rows.length) })
                      : data.total > data.rows.length
                        ? t('reports.firstOf', { shown: n(data.rows.length), total: n(data.total) })
                        : t('reports.records', { count: data.total, formatted: n(data.total) })}
                  </p>
                  {appliedList}
                  <FreshnessNote freshness={data.freshness} cacheAgeSeconds={data.cacheAgeSeconds} />
                </div>
              }
              page={pageState}
              cards={narrow}
              onLayoutChange={(layout) => updateView({ layout })}
              sort={sort}
              total={data.total}
              printTitle={views.length > 1 ? `${report.title}: ${active.label}` : report.title}
              printColumns={visibleColumns}
              printFilters={applied}
              fetchAll={fetchAll}
            />
            {narrow ? (
              <ResultCards key={active.tabId ?? ''} columns={columns} rows={data.rows} paging={active.paging} sort={sort} onSortChange={onSortChange} />
            ) : (
              <Suspense fallback={<LoadingRows label={t('reports.loadingGrid')} />}>
                <ResultGrid
                  key={active.tabId ?? ''}
                  storageKey={{ reportId: report.id, ...(active.tabId ? { tabId: active.tabId } : {}) }}
                  columns={columns}
                  rows={data.rows}
                  paging={active.paging}
                  loading={query.loading}
                  sort={sort}
                  onSortChange={onSortChange}
                  onVisibleColumnsChange={setVisible}
                />
              </Suspense>
            )}
            {server && (
              <Paginator
                first={(page - 1) * (rowsPerPage ?? active.paging.pageSize)}
                rows={rowsPerPage ?? active.paging.pageSize}
                totalRecords={data.total}
                rowsPerPageOptions={[...new Set([active.paging.pageSize, 50, 100, 200, 500])].sort((a, b) => a - b)}
                onPageChange={(e) => updateView({ page: e.page > 0 ? String(e.page + 1) : null, rows: e.rows === active.paging.pageSize ? null : String(e.rows) })}
                aria-label={t('reports.pages')}
                pt={pagerNames(t('reports.showChoices', { label: t('reports.rowsPerPage') }), t('reports.rowsPerPage'))}
              />
            )}
          </>
        )}
      </section>
    </div>
  );
}
