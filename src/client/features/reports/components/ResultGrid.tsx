import { useTranslation } from 'react-i18next';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AgGridReact } from 'ag-grid-react';
import { Paginator } from 'primereact/paginator';
import {
  ClientSideRowModelModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  RowAutoHeightModule,
  CellStyleModule,
  PaginationModule,
  QuickFilterModule,
  TooltipModule,
  LocaleModule,
  ValidationModule,
  themeQuartz,
  type ColDef,
  type ColumnState,
  type GridApi,
  type Module,
  type PaginationChangedEvent,
  type SortChangedEvent,
} from 'ag-grid-community';
import type { ColumnDef, PagingDef } from '../../../../shared/report-definition';
import { columnText } from '../../../../shared/column-types';
import type { Row } from '../lib/parse';
import type { SortState } from '../lib/sort-rows';
import { clearColumnState, columnStateKey, readColumnState, toStoredColumns, writeColumnState } from '../lib/column-state';
import { headerMinWidth, toColDefs, WRAP_MAX_WIDTH, wrapsText } from './grid-columns';
import { fitWidths } from '../lib/priority';
import { columnPriority } from '../../../../shared/report-definition';
import { ColumnChooser, type ChooserColumn } from './ColumnChooser';
import { pagerNames } from './pager-a11y';

/** Only the modules this grid uses (sorting, moving, resizing and pinning are in the core). */
const MODULES: Module[] = [
  ClientSideRowModelModule,
  ColumnApiModule,
  ColumnAutoSizeModule,
  // Wrapped text: a row is as tall as its cells' two lines.
  RowAutoHeightModule,
  CellStyleModule,
  QuickFilterModule,
  PaginationModule,
  TooltipModule,
  // The grid's own words (its loading overlay) in the interface language.
  LocaleModule,
  ...(import.meta.env.DEV ? [ValidationModule] : []),
];

/**
 * One object for every render: a new defaultColDef makes the grid rebuild its columns from the definitions, which
 * undid the widths fitted to the values.
 */
const DEFAULT_COL_DEF: ColDef<Row> = { resizable: true, minWidth: 60, filter: false, suppressHeaderMenuButton: true, wrapHeaderText: true, autoHeaderHeight: true };

/** Up to this many rows on a page the grid is as tall as its rows; beyond, it scrolls inside a fixed height. */
const AUTO_HEIGHT_ROWS = 25;

/** Quartz coloured from the PrimeReact theme's variables, so the grid follows the light/dark theme in use. */
export const gridTheme = themeQuartz.withParams({
  backgroundColor: 'var(--surface-card, #ffffff)',
  foregroundColor: 'var(--text-color, #1f2937)',
  textColor: 'var(--text-color, #1f2937)',
  headerBackgroundColor: 'var(--surface-section, var(--surface-card, #f8f9fa))',
  headerTextColor: 'var(--text-color, #1f2937)',
  borderColor: 'var(--surface-border, #dee2e6)',
  accentColor: 'var(--primary-color, #4f46e5)',
  rowHoverColor: 'var(--surface-hover, #f1f5f9)',
  oddRowBackgroundColor: 'var(--surface-ground, #f8f9fa)',
  fontFamily: 'inherit',
  fontSize: '1rem',
});

export interface ResultGridProps {
  /** Where the column layout is remembered (report id + tab id). */
  storageKey: { reportId: string; tabId?: string };
  columns: readonly ColumnDef[];
  rows: Row[];
  paging: PagingDef;
  loading: boolean;
  /**
   * The sort in the URL, so a shared link opens sorted alike: the server sorts a server-paged result, the grid a
   * client-paged one. The grid reports the user's changes through onSortChange.
   */
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  onVisibleColumnsChange?: (fields: string[]) => void;
  storage?: Storage;
}

const browserStorage = (): Storage | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
};

export function ResultGrid(props: ResultGridProps) {
  const { t } = useTranslation();
  const { columns, rows, paging, loading, sort, onSortChange, onVisibleColumnsChange } = props;
  const server = paging.mode === 'server';
  const storage = props.storage ?? browserStorage();
  const key = columnStateKey(props.storageKey.reportId, props.storageKey.tabId);
  const fields = useMemo(() => columns.map((c) => c.field), [columns]);
  const colDefs = useMemo(() => toColDefs(columns, { serverSort: server }), [columns, server]);
  const apiRef = useRef<GridApi<Row> | null>(null);
  const [quick, setQuick] = useState('');
  const [chooser, setChooser] = useState<ChooserColumn[]>([]);
  const headers = useMemo(() => new Map(columns.map((c) => [c.field, c.headerName])), [columns]);

  const publish = useCallback(
    (gridApi: GridApi<Row>) => {
      const state = gridApi.getColumnState();
      setChooser(state.map((s) => ({ field: s.colId, header: headers.get(s.colId) ?? s.colId, visible: !s.hide, pinned: s.pinned === 'left' || s.pinned === 'right' ? s.pinned : null })));
      onVisibleColumnsChange?.(gridApi.getAllDisplayedColumns().map((c) => c.getColId()));
    },
    [headers, onVisibleColumnsChange],
  );

  const save = useCallback(
    (gridApi: GridApi<Row>) => {
      writeColumnState(storage, key, toStoredColumns(gridApi.getColumnState()));
      publish(gridApi);
    },
    [storage, key, publish],
  );

  const applySort = useCallback(
    (gridApi: GridApi<Row>) => {
      const state: ColumnState[] = sort?.sortBy ? [{ colId: sort.sortBy, sort: sort.sortDir ?? 'asc' }] : [];
      gridApi.applyColumnState({ state, defaultState: { sort: null } });
    },
    [sort?.sortBy, sort?.sortDir],
  );

  useEffect(() => {
    if (apiRef.current) applySort(apiRef.current);
  }, [applySort]);

  const onSortChanged = (e: SortChangedEvent<Row>) => {
    if (!onSortChange || e.source === 'api') return;
    const sorted = e.api.getColumnState().find((s) => s.sort);
    const next: SortState = sorted ? { sortBy: sorted.colId, sortDir: sorted.sort === 'desc' ? 'desc' : 'asc' } : {};
    if (next.sortBy !== sort?.sortBy || next.sortDir !== sort?.sortDir) onSortChange(next);
  };

  const applyChooser = (next: ChooserColumn[]) => {
    const gridApi = apiRef.current;
    if (!gridApi) return;
    gridApi.applyColumnState({ state: next.map((c) => ({ colId: c.field, hide: !c.visible, pinned: c.pinned })), applyOrder: true });
    save(gridApi);
  };

  const resetLayout = () => {
    const gridApi = apiRef.current;
    if (!gridApi) return;
    clearColumnState(storage, key);
    gridApi.resetColumnState();
    applySort(gridApi);
    publish(gridApi);
  };

  // Client paging: the grid pages, our Paginator (the same as server paging's) drives it, so every report has one
  // count/search/pager style. The grid's height follows its rows up to AUTO_HEIGHT_ROWS, then scrolls inside.
  const [pager, setPager] = useState({ page: 0, size: paging.pageSize, total: rows.length });
  const onPaginationChanged = (e: PaginationChangedEvent<Row>) => {
    const next = { page: e.api.paginationGetCurrentPage(), size: e.api.paginationGetPageSize(), total: e.api.paginationGetRowCount() };
    setPager((p) => (p.page === next.page && p.size === next.size && p.total === next.total ? p : next));
  };
  const shown = server ? rows.length : Math.max(0, Math.min(pager.size, pager.total - pager.page * pager.size));
  const autoHeight = shown <= AUTO_HEIGHT_ROWS;
  // Stored widths are the user's; otherwise columns fit their contents, so identifiers are never cut.
  const storedWidths = useMemo(() => (readColumnState(storage, key, fields) ?? []).some((s) => s.width), [storage, key, fields]);

  // Columns as wide as their values (headers wrap instead), text at most WRAP_MAX_WIDTH (it wraps), then the
  // priority-1 columns (and any before them) narrowed to the grid's width: the columns an officer reads the report
  // for are seen without a sideways scroll. Not when the user set widths of their own. Measured after the frame in
  // which React has put the cells on the page (at the grid's event they are not there yet).
  const bodyRef = useRef<HTMLDivElement>(null);
  const byField = useMemo(() => new Map(columns.map((c) => [c.field, c])), [columns]);
  const fitColumns = useCallback(
    (gridApi: GridApi<Row>) => {
      if (storedWidths) return;
      requestAnimationFrame(() => {
        if (gridApi.isDestroyed()) return;
        gridApi.autoSizeAllColumns(true);
        const displayed = gridApi.getAllDisplayedColumns();
        const capped = displayed.flatMap((col) => {
          const def = byField.get(col.getColId());
          return def && wrapsText(def) && col.getActualWidth() > WRAP_MAX_WIDTH ? [{ key: col.getColId(), newWidth: WRAP_MAX_WIDTH }] : [];
        });
        if (capped.length > 0) gridApi.setColumnWidths(capped, true, 'api');
        const lastFirst = displayed.findLastIndex((col) => columnPriority(byField.get(col.getColId()) ?? {}) === 1);
        // The room inside the grid's border and a vertical scrollbar.
        const room = (bodyRef.current?.clientWidth ?? 0) - 20;
        if (lastFirst < 0 || room <= 0) return;
        const fitted = fitWidths(
          displayed.slice(0, lastFirst + 1).map((col) => {
            const def = byField.get(col.getColId());
            // Only text that can wrap between words gives up width: an id (PNR, EFT No) is never split.
            const shrinkable = def !== undefined && wrapsText(def) && rows.some((r) => /\s/.test(columnText(def, r[def.field]).trim()));
            return { id: col.getColId(), width: col.getActualWidth(), min: headerMinWidth(def?.headerName ?? ''), shrinkable };
          }),
          room,
        );
        if (fitted.size > 0) gridApi.setColumnWidths([...fitted].map(([key, newWidth]) => ({ key, newWidth })), true, 'api');
      });
    },
    [storedWidths, byField, rows],
  );

  const pageSizes = useMemo(() => [...new Set([paging.pageSize, 20, 50, 100, 500])].sort((a, b) => a - b), [paging.pageSize]);

  return (
    <div className="report-grid">
      <div className="report-grid-toolbar" role="toolbar" aria-label={t('reports.tableTools')}>
        <span className="p-input-icon-left report-quick-filter">
          <label htmlFor="report-quick-filter" className="report-sr-only">
            {server ? t('reports.searchPage') : t('reports.searchResults')}
          </label>
          <input
            id="report-quick-filter"
            type="search"
            className="p-inputtext p-component"
            placeholder={server ? t('reports.searchPagePlaceholder') : t('reports.searchResultsPlaceholder')}
            value={quick}
            onChange={(e) => setQuick(e.target.value)}
          />
        </span>
        <ColumnChooser columns={chooser} onChange={applyChooser} onReset={resetLayout} />
      </div>
      <div ref={bodyRef} className={autoHeight ? 'report-grid-body report-grid-auto' : 'report-grid-body'}>
        <AgGridReact<Row>
          modules={MODULES}
          theme={gridTheme}
          rowData={rows}
          columnDefs={colDefs}
          defaultColDef={DEFAULT_COL_DEF}
          domLayout={autoHeight ? 'autoHeight' : 'normal'}
          suppressColumnVirtualisation
          tooltipShowMode="whenTruncated"
          loading={loading}
          quickFilterText={quick}
          pagination={!server}
          paginationPageSize={paging.pageSize}
          suppressPaginationPanel
          onPaginationChanged={onPaginationChanged}
          enableCellTextSelection
          ensureDomOrder
          suppressDragLeaveHidesColumns
          overlayNoRowsTemplate={`<span>${t('reports.noRowsMatch')}</span>`}
          localeText={{ loadingOoo: t('reports.gridLoading'), noRowsToShow: t('reports.noRowsMatch') }}
          onGridReady={(e) => {
            apiRef.current = e.api;
            const stored = readColumnState(storage, key, fields);
            if (stored) e.api.applyColumnState({ state: stored.map((s) => ({ colId: s.colId, hide: s.hide, pinned: s.pinned, ...(s.width ? { width: s.width } : {}) })), applyOrder: true });
            applySort(e.api);
            publish(e.api);
          }}
          onFirstDataRendered={(e) => fitColumns(e.api)}
          onRowDataUpdated={(e) => fitColumns(e.api)}
          onSortChanged={onSortChanged}
          onColumnMoved={(e) => e.finished && save(e.api)}
          onColumnResized={(e) => e.finished && e.source !== 'api' && e.source !== 'flex' && save(e.api)}
          onColumnVisible={(e) => e.source !== 'api' && save(e.api)}
          onColumnPinned={(e) => e.source !== 'api' && save(e.api)}
        />
      </div>
      {!server && pager.total > Math.min(...pageSizes) && (
        <Paginator
          first={pager.page * pager.size}
          rows={pager.size}
          totalRecords={pager.total}
          rowsPerPageOptions={pageSizes}
          onPageChange={(e) => {
            const gridApi = apiRef.current;
            if (!gridApi) return;
            if (e.rows !== pager.size) gridApi.setGridOption('paginationPageSize', e.rows);
            gridApi.paginationGoToPage(e.page);
          }}
          aria-label={t('reports.pages')}
          pt={pagerNames(t('reports.showChoices', { label: t('reports.rowsPerPage') }), t('reports.rowsPerPage'))}
        />
      )}
    </div>
  );
}
