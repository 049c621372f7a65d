import type { ColumnDef } from '../../../shared/report-definition';

export interface ExportMeta {
  title: string;
  /** Applied filter as label/value pairs, shown in the PDF heading. */
  filters: { label: string; value: string }[];
  user: string;
  generatedAt: Date;
  /** Rows in the file, when known before writing (shown in the PDF heading). */
  rowCount?: number;
}

export interface ExportInput {
  columns: ColumnDef[];
  rows: AsyncIterable<Record<string, unknown>[]>;
  meta: ExportMeta;
}
