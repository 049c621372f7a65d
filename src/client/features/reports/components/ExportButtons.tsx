import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format';
import { localizeMessage } from '../../../i18n/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { ProgressBar } from 'primereact/progressbar';
import type { PublicReport } from '../../../../shared/report-definition';
import { ApiError, useReportApi, type DownloadProgress, type ExportFormat } from '../api';
import type { Filter } from '../lib/filter-url';
import type { SortState } from '../lib/sort-rows';

const ICON: Record<ExportFormat, string> = { csv: 'pi pi-file', xlsx: 'pi pi-file-excel', pdf: 'pi pi-file-pdf' };
const n = (x: number): string => formatNumber(x);

const bytes = (b: number): string => (b < 1024 ? `${b} B` : b < 1024 * 1024 ? `${(b / 1024).toFixed(0)} KB` : `${(b / 1024 / 1024).toFixed(1)} MB`);

/** 'vacant-berths-{trainNo}-{startDate}' + filter -> 'vacant-berths-12301-2025-08-01.csv' (when the server names none). */
export function exportFileName(template: string | undefined, fallback: string, filter: Filter, format: ExportFormat): string {
  const base = (template ?? fallback).replace(/\{([A-Za-z0-9_]+)\}/g, (_m, key: string) => {
    const v = filter[key];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : 'all';
  });
  return `${base.replace(/[^A-Za-z0-9_.-]+/g, '_')}.${format}`;
}

/** Saves a blob as a file through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface ExportButtonsProps {
  report: PublicReport;
  tabId?: string;
  /** The filter of the result on screen (what was run, not unsaved edits). */
  filter: Filter;
  columns: string[];
  /** The order of the result on screen: the file rows follow it. */
  sort?: SortState;
  total: number;
  save?: (blob: Blob, fileName: string) => void;
}

/** One button per format of the definition, the row cap shown before export, progress while downloading. */
export function ExportButtons({ report, tabId, filter, columns, sort, total, save = saveBlob }: ExportButtonsProps) {
  const { t } = useTranslation();
  // CSV and PDF are names in every language; Excel is written in the interface language.
  const LABEL: Record<ExportFormat, string> = { csv: 'CSV', xlsx: t('reports.excel'), pdf: 'PDF' };
  const reportApi = useReportApi();
  const capsId = useId();
  const [running, setRunning] = useState<{ format: ExportFormat; progress: DownloadProgress } | null>(null);
  const [message, setMessage] = useState<{ severity: 'error' | 'success'; text: string } | null>(null);
  const ctrl = useRef<AbortController | null>(null);
  useEffect(() => () => ctrl.current?.abort(), []);
  const formats = report.export?.formats ?? [];
  if (formats.length === 0) return null;

  const run = async (format: ExportFormat) => {
    ctrl.current?.abort();
    const c = new AbortController();
    ctrl.current = c;
    setMessage(null);
    setRunning({ format, progress: { transferredBytes: 0, totalBytes: 0 } });
    try {
      const { blob, fileName } = await reportApi.exportReport({
        reportId: report.id,
        format,
        ...(tabId ? { tab: tabId } : {}),
        columns,
        filter,
        ...(sort?.sortBy ? { sortBy: sort.sortBy, sortDir: sort.sortDir ?? 'asc' } : {}),
        signal: c.signal,
        onProgress: (progress) => setRunning({ format, progress }),
      });
      const name = fileName ?? exportFileName(report.export?.fileName, report.id, filter, format);
      save(blob, name);
      setMessage({ severity: 'success', text: t('reports.downloaded', { name }) });
    } catch (e) {
      if (c.signal.aborted) setMessage({ severity: 'error', text: t('reports.exportCancelled') });
      else setMessage({ severity: 'error', text: e instanceof ApiError || e instanceof Error ? t('reports.exportFailedWith', { message: localizeMessage(e.message) }) : t('reports.exportFailed') });
    } finally {
      if (ctrl.current === c) ctrl.current = null;
      setRunning(null);
    }
  };

  const p = running?.progress;
  const percent = p && p.totalBytes > 0 ? Math.min(100, Math.round((p.transferredBytes / p.totalBytes) * 100)) : null;
  return (
    <div className="report-export" role="group" aria-label={t('reports.export')}>
      <div className="report-export-buttons">
        {formats.map((f) => {
          const cap = report.exportCaps[f];
          const over = total > cap;
          return (
            <Button
              key={f}
              type="button"
              size="small"
              outlined
              icon={ICON[f]}
              label={LABEL[f]}
              loading={running?.format === f}
              disabled={running !== null}
              aria-describedby={capsId}
              tooltip={over ? t('reports.exportOver', { format: LABEL[f], cap: n(cap), total: n(total) }) : t('reports.exportAll', { format: LABEL[f], cap: n(cap), total: n(total) })}
              tooltipOptions={{ position: 'top', showOnDisabled: true }}
              onClick={() => void run(f)}
            />
          );
        })}
      </div>
      <small id={capsId} className="report-export-caps">
        {t('reports.exportCaps', { caps: formats.map((f) => `${n(report.exportCaps[f])} (${LABEL[f]})`).join(', ') })}
      </small>
      {running && (
        <div className="report-export-progress" role="status" aria-live="polite">
          <ProgressBar mode={percent === null ? 'indeterminate' : 'determinate'} value={percent ?? 0} style={{ height: '0.5rem' }} aria-label={t('reports.exporting', { format: LABEL[running.format] })} />
          <span>
            {t('reports.preparing', { format: LABEL[running.format] })} {p && p.transferredBytes > 0 ? t('reports.received', { size: bytes(p.transferredBytes) }) : t('reports.waitingServer')}
          </span>
          <Button type="button" label={t('reports.cancel')} text size="small" onClick={() => ctrl.current?.abort()} />
        </div>
      )}
      {message && (
        <div className={`report-export-message report-text-${message.severity}`} role={message.severity === 'error' ? 'alert' : 'status'}>
          {message.text}
        </div>
      )}
    </div>
  );
}
