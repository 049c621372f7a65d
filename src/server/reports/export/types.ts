import type { ColumnDef } from '../../../shared/report-definition';
import type { Lang } from '../../../shared/definitions/hindi';

export interface ExportMeta {
  title: string;
  /** Applied filter as label/value pairs, shown in the PDF heading. */
  filters: { label: string; value: string }[];
  user: string;
  generatedAt: Date;
  /** Rows in the file, when known before writing (shown in the PDF heading). */
  rowCount?: number;
  /** Language of the file's own words (PDF heading, page numbers) and of its font; the columns come localized. */
  lang?: Lang;
}

export interface ExportInput {
  columns: ColumnDef[];
  rows: AsyncIterable<Record<string, unknown>[]>;
  meta: ExportMeta;
}
