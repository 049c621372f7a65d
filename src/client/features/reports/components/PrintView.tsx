import { useTranslation } from 'react-i18next';
import { formatNumber, formatTimestamp } from '../../../i18n/format';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from 'primereact/button';
import { columnText } from '../../../../shared/column-types';
import type { ColumnDef } from '../../../../shared/report-definition';
import type { Row } from '../lib/parse';

export interface PrintData {
  rows: Row[];
  total: number;
}

export interface PrintViewProps {
  title: string;
  columns: readonly ColumnDef[];
  filters: { label: string; value: string }[];
  /** Fetches every row of the current filter (reports progress as rows arrive). */
  fetchAll: (onProgress: (loaded: number, total: number) => void) => Promise<PrintData>;
  print?: () => void;
}

/** A print-only table of all rows: fetched on demand, then the browser's print dialog. */
export function PrintButton({ title, columns, filters, fetchAll, print = () => window.print() }: PrintViewProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ phase: 'idle' } | { phase: 'loading'; loaded: number; total: number } | { phase: 'ready'; data: PrintData } | { phase: 'error'; message: string }>({ phase: 'idle' });

  useEffect(() => {
    if (state.phase !== 'ready') return;
    const done = () => setState({ phase: 'idle' });
    window.addEventListener('afterprint', done);
    // Let the browser lay out the table before the dialog opens.
    const t = setTimeout(() => {
      print();
    }, 50);
    return () => {
      clearTimeout(t);
      window.removeEventListener('afterprint', done);
    };
  }, [state.phase, print]);

  const start = async () => {
    setState({ phase: 'loading', loaded: 0, total: 0 });
    try {
      const data = await fetchAll((loaded, total) => setState({ phase: 'loading', loaded, total }));
      setState({ phase: 'ready', data });
    } catch (e) {
      setState({ phase: 'error', message: e instanceof Error ? e.message : t('reports.printFailed') });
    }
  };

  return (
    <>
      <Button type="button" size="small" outlined icon="pi pi-print" label={t('reports.print')} loading={state.phase === 'loading'} disabled={state.phase === 'loading'} onClick={() => void start()} />
      {state.phase === 'loading' && (
        <span role="status" className="report-print-status">
          {t('reports.printPreparing')}
          {state.total > 0 ? t('reports.printProgress', { loaded: formatNumber(state.loaded), total: formatNumber(state.total) }) : '…'}
        </span>
      )}
      {state.phase === 'error' && (
        <span role="alert" className="report-text-error">
          {state.message}
        </span>
      )}
      {state.phase === 'ready' && (
        <>
          <span role="status" className="report-print-status">
            {t('reports.printReady', { rows: formatNumber(state.data.rows.length) })}{' '}
            <Button type="button" text size="small" label={t('reports.closePrint')} onClick={() => setState({ phase: 'idle' })} />
          </span>
          {createPortal(<PrintLayout title={title} columns={columns} filters={filters} data={state.data} />, document.body)}
        </>
      )}
    </>
  );
}

export function PrintLayout({ title, columns, filters, data }: { title: string; columns: readonly ColumnDef[]; filters: { label: string; value: string }[]; data: PrintData }) {
  const { t } = useTranslation();
  const printedAt = formatTimestamp(new Date());
  return (
    <div className="report-print-root" data-testid="report-print">
      <h1>{title}</h1>
      <p>
        {filters.map((f) => `${f.label}: ${f.value}`).join(' · ') || t('reports.noFilter')} · {t('reports.printed', { at: printedAt })} ·{' '}
        {t('reports.printRows', { rows: formatNumber(data.rows.length) })}
        {data.total > data.rows.length ? t('reports.printOfTotal', { total: formatNumber(data.total) }) : ''}
      </p>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.field} scope="col">
                {c.headerName}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.field} className={c.type === 'number' || c.type === 'currency' || c.type === 'percent' ? 'report-cell-numeric' : undefined}>
                  {columnText(c, r[c.field])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
