import { useTranslation } from 'react-i18next';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Paginator } from 'primereact/paginator';
import { columnText } from '../../../../shared/column-types';
import type { ColumnDef, PagingDef } from '../../../../shared/report-definition';
import { drillDownHref } from '../lib/links';
import type { Row } from '../lib/parse';
import { cardColumns } from '../lib/priority';
import { sortRows, type SortState } from '../lib/sort-rows';
import { statusSeverity } from '../lib/status';
import { pagerNames } from './pager-a11y';

export interface ResultCardsProps {
  columns: readonly ColumnDef[];
  rows: Row[];
  paging: PagingDef;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
}

/** One value as the grid shows it: a status chip, a drill-down link or the formatted text. */
function CardValue({ column, row }: { column: ColumnDef; row: Row }) {
  const value = row[column.field];
  const text = columnText(column, value);
  if (!text) return <span aria-hidden="true">–</span>;
  if (column.type === 'status') return <span className={`report-badge report-badge-${statusSeverity(value)}`}>{text}</span>;
  const href = column.link ? drillDownHref(column.link, row) : null;
  if (href) {
    return (
      <Link to={href} className="report-link">
        {text}
      </Link>
    );
  }
  return <>{text}</>;
}

function Fields({ columns, row }: { columns: readonly ColumnDef[]; row: Row }) {
  return (
    <dl className="report-card-fields">
      {columns.map((c) => (
        <div key={c.field} className="report-card-field">
          <dt>{c.headerName}</dt>
          <dd data-value="">
            <CardValue column={c} row={row} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The result on a phone: one card per row with the priority-1 values, a Details button for the rest. Search, sort
 * and paging work as on the grid (client paging here; server paging by the report page's pager).
 */
export function ResultCards({ columns, rows, paging, sort, onSortChange }: ResultCardsProps) {
  const { t } = useTranslation();
  const id = useId();
  const server = paging.mode === 'server';
  const { main, details } = useMemo(() => cardColumns(columns), [columns]);
  const [quick, setQuick] = useState('');
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [pager, setPager] = useState({ first: 0, size: paging.pageSize });

  // Client paging: sorted and searched here (the server sorts a server-paged result before it arrives).
  const ordered = useMemo(() => (server ? rows : sortRows(rows, columns, sort)), [server, rows, columns, sort]);
  const needle = quick.trim().toLocaleLowerCase();
  const matching = useMemo(
    () => (needle ? ordered.filter((r) => columns.some((c) => columnText(c, r[c.field]).toLocaleLowerCase().includes(needle))) : ordered),
    [ordered, columns, needle],
  );
  const first = server ? 0 : Math.min(pager.first, Math.max(0, matching.length - 1));
  const shown = server ? matching : matching.slice(first - (first % pager.size), first - (first % pager.size) + pager.size);
  const sortable = columns.filter((c) => c.sortable !== false && c.hidden !== true);
  const pageSizes = [...new Set([paging.pageSize, 20, 50, 100])].sort((a, b) => a - b);

  const toggle = (i: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });

  return (
    <div className="report-cards-view">
      <div className="report-grid-toolbar report-cards-toolbar" role="toolbar" aria-label={t('reports.tableTools')}>
        <span className="report-quick-filter">
          <label htmlFor={`${id}-search`} className="report-sr-only">
            {server ? t('reports.searchPage') : t('reports.searchResults')}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            className="p-inputtext p-component"
            placeholder={server ? t('reports.searchPagePlaceholder') : t('reports.searchResultsPlaceholder')}
            value={quick}
            onChange={(e) => {
              setQuick(e.target.value);
              setPager((p) => ({ ...p, first: 0 }));
            }}
          />
        </span>
        <span className="report-cards-sort">
          <label htmlFor={`${id}-sort`}>{t('reports.sortBy')}</label>
          <select
            id={`${id}-sort`}
            className="p-inputtext p-component"
            value={sort.sortBy ?? ''}
            onChange={(e) => onSortChange(e.target.value ? { sortBy: e.target.value, sortDir: sort.sortDir ?? 'asc' } : {})}
          >
            <option value="">{t('reports.sortNone')}</option>
            {sortable.map((c) => (
              <option key={c.field} value={c.field}>
                {c.headerName}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="p-button p-component p-button-outlined p-button-sm"
            disabled={!sort.sortBy}
            onClick={() => sort.sortBy && onSortChange({ sortBy: sort.sortBy, sortDir: sort.sortDir === 'desc' ? 'asc' : 'desc' })}
          >
            {sort.sortDir === 'desc' ? t('reports.sortDescending') : t('reports.sortAscending')}
          </button>
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="report-hint">{t('reports.noRowsMatch')}</p>
      ) : (
        <ol className="report-cards" aria-label={t('reports.results')}>
          {shown.map((row, i) => {
            const key = first - (first % pager.size) + i;
            const expanded = open.has(key);
            return (
              <li key={key} className="report-card-row">
                <Fields columns={main} row={row} />
                {details.length > 0 && (
                  <>
                    {expanded && (
                      <div id={`${id}-d${key}`} className="report-card-details">
                        <Fields columns={details} row={row} />
                      </div>
                    )}
                    <button
                      type="button"
                      className="p-button p-component p-button-text p-button-sm report-card-toggle"
                      aria-expanded={expanded}
                      aria-controls={expanded ? `${id}-d${key}` : undefined}
                      onClick={() => toggle(key)}
                    >
                      <span className={`pi ${expanded ? 'pi-chevron-up' : 'pi-chevron-down'}`} aria-hidden="true" />
                      {expanded ? t('reports.lessDetails') : t('reports.moreDetails', { count: details.length })}
                    </button>
                  </>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {!server && matching.length > Math.min(...pageSizes) && (
        <Paginator
          first={first - (first % pager.size)}
          rows={pager.size}
          totalRecords={matching.length}
          rowsPerPageOptions={pageSizes}
          template="PrevPageLink CurrentPageReport NextPageLink RowsPerPageDropdown"
          currentPageReportTemplate="{first}–{last} / {totalRecords}"
          onPageChange={(e) => {
            setPager({ first: e.first, size: e.rows });
            setOpen(new Set());
          }}
          aria-label={t('reports.pages')}
          pt={pagerNames(t('reports.showChoices', { label: t('reports.rowsPerPage') }), t('reports.rowsPerPage'))}
        />
      )}
    </div>
  );
}
