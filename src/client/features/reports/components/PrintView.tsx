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
      setState({ phase: 'error', message: e instanceof Error ? e.message : 'Could not load the rows to print.' });
    }
  };

  return (
    <>
      <Button type="button" size="small" outlined icon="pi pi-print" label="Print" loading={state.phase === 'loading'} disabled={state.phase === 'loading'} onClick={() => void start()} />
      {state.phase === 'loading' && (
        <span role="status" className="report-print-status">
          Preparing the print view{state.total > 0 ? `: ${state.loaded.toLocaleString('en-IN')} of ${state.total.toLocaleString('en-IN')} rows` : '…'}
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
            Print view ready ({state.data.rows.length.toLocaleString('en-IN')} rows).{' '}
            <Button type="button" text size="small" label="Close print view" onClick={() => setState({ phase: 'idle' })} />
          </span>
          {createPortal(<PrintLayout title={title} columns={columns} filters={filters} data={state.data} />, document.body)}
        </>
      )}
    </>
  );
}

export function PrintLayout({ title, columns, filters, data }: { title: string; columns: readonly ColumnDef[]; filters: { label: string; value: string }[]; data: PrintData }) {
  const printedAt = new Date().toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' });
  return (
    <div className="report-print-root" data-testid="report-print">
      <h1>{title}</h1>
      <p>
        {filters.map((f) => `${f.label}: ${f.value}`).join(' · ') || 'No filter'} · Printed {printedAt} IST · {data.rows.length.toLocaleString('en-IN')} rows
        {data.total > data.rows.length ? ` (of ${data.total.toLocaleString('en-IN')}; export for all)` : ''}
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
