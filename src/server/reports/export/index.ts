import type { Readable } from 'node:stream';
import { csvStream } from './csv';
import { writeInWorker } from './worker-export';
import type { ExportInput } from './types';

export type ExportFormat = 'csv' | 'xlsx' | 'pdf';

/**
 * CSV is cheap text, written on the main thread batch by batch; xlsx (zip compression) and PDF (layout) are written
 * in a worker thread, and their libraries are loaded there only when an export runs.
 */
export const EXPORT_FORMATS: Record<ExportFormat, { contentType: string; write: (input: ExportInput) => Readable }> = {
  csv: { contentType: 'text/csv; charset=utf-8', write: csvStream },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', write: (input) => writeInWorker('xlsx', input) },
  pdf: { contentType: 'application/pdf', write: (input) => writeInWorker('pdf', input) },
};

export function isExportFormat(v: unknown): v is ExportFormat {
  return v === 'csv' || v === 'xlsx' || v === 'pdf';
}

/** Yields rows already fetched in batches, so writers can stream output as they go. */
export async function* inBatches<T>(rows: T[], size = 1000): AsyncGenerator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** 'vacant-berths-{trainNo}-{startDate}' -> 'vacant-berths-12951-2026-11-22.csv' (only safe characters). */
export function exportFileName(template: string, values: Record<string, unknown>, format: ExportFormat): string {
  const filled = template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, k: string) => {
    const v = values[k];
    return v === undefined || v === null ? 'all' : String(v);
  });
  return `${filled.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 120)}.${format}`;
}
