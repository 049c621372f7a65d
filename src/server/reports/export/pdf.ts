import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { columnText } from '../../../shared/column-types';
import type { ExportInput } from './types';
import { pdfWords, registerPdfFonts } from './pdf-language';
import { layoutPdfColumns, type MeasureText, type PdfTableLayout } from './pdf-layout';

const MARGIN = 30;
const ROW_PAD = 3;
const FONT_SIZE = 7.5;

const REGULAR = 'body';
const BOLD = 'body-bold';

/** Font sizes tried for the table, largest first: the smallest is the floor below which columns go to more pages. */
const TABLE_FONT_SIZES = [FONT_SIZE, 7, 6.5, 6] as const;
/** Column types whose values stay on one line: an amount or a number is never split at its space ("₹ 1,670.00"). */
const KEEP_WHOLE_TYPES: ReadonlySet<string> = new Set(['number', 'currency', 'percent', 'date']);
/** Column types whose values are right-aligned, as in the grid, so digits line up. */
const RIGHT_ALIGNED_TYPES: ReadonlySet<string> = new Set(['number', 'currency', 'percent']);
/** Left and right inner margin of a cell (2 pt each), plus 1 pt so rounding never makes a word wrap. */
const CELL_PAD = 5;

/**
 * PDF: landscape A4, title, applied filters, user and time on the first page, the column header repeated on
 * every page, and 'Page X of Y' on each page. The rows (at most the PDF export limit) are read first, so the columns
 * are sized from their content (pdf-layout.ts): no date, id or word is split across lines; a table too wide even at
 * the smallest size continues its columns on a following group of pages.
 */
export function pdfStream({ columns, rows, meta }: ExportInput): Readable {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, bufferPages: true, info: { Title: meta.title, Author: meta.user } });
  registerPdfFonts(doc, meta.lang ?? 'en', { regular: REGULAR, bold: BOLD });
  const words = pdfWords(meta.lang);
  const pageWidth = doc.page.width - MARGIN * 2;
  const bottom = (): number => doc.page.height - MARGIN - 14;
  const measure: MeasureText = (text, bold, size) => doc.font(bold ? BOLD : REGULAR).fontSize(size).widthOfString(text);

  /** Draws one row of the columns `cols` (indexes) at the layout's widths; a body row moving to a new page repeats the header. */
  const drawRow = (cells: readonly string[], cols: readonly number[], layout: PdfTableLayout, bold: boolean): void => {
    const widths = cols.map((c) => layout.widths[c] ?? 40);
    const tableWidth = widths.reduce((a, b) => a + b, 0);
    doc.font(bold ? BOLD : REGULAR).fontSize(layout.fontSize);
    const heights = cols.map((c, i) => doc.heightOfString(cells[c] ?? '', { width: (widths[i] ?? 40) - 4 }));
    const h = Math.max(...heights, layout.fontSize) + ROW_PAD * 2;
    if (doc.y + h > bottom()) {
      doc.addPage();
      if (!bold) drawRow(columns.map((c) => c.headerName), cols, layout, true);
      doc.font(bold ? BOLD : REGULAR).fontSize(layout.fontSize);
    }
    const y = doc.y;
    if (bold) doc.rect(MARGIN, y, tableWidth, h).fill('#e8eaf6').fillColor('#000');
    let x = MARGIN;
    cols.forEach((c, i) => {
      const align = RIGHT_ALIGNED_TYPES.has(columns[c]?.type ?? 'text') ? 'right' : 'left';
      doc.text(cells[c] ?? '', x + 2, y + ROW_PAD, { width: (widths[i] ?? 40) - 4, lineBreak: true, align });
      x += widths[i] ?? 40;
    });
    doc.moveTo(MARGIN, y + h).lineTo(MARGIN + tableWidth, y + h).lineWidth(0.3).strokeColor('#bbbbbb').stroke();
    doc.x = MARGIN;
    doc.y = y + h;
  };

  doc.font(BOLD).fontSize(14).text(meta.title);
  doc.font(REGULAR).fontSize(8.5);
  const filterText = meta.filters.map((f) => `${f.label}: ${f.value}`).join('   ');
  doc.text(words.filters(filterText || words.noFilter));
  doc.text(words.generated(meta.user, meta.generatedAt, meta.rowCount));
  doc.moveDown(0.5);

  (async () => {
    const texts: string[][] = [];
    const distinct = columns.map(() => new Set<string>());
    for await (const batch of rows) {
      for (const row of batch) {
        const cells = columns.map((c) => columnText(c, row[c.field]));
        cells.forEach((t, i) => distinct[i]?.add(t));
        texts.push(cells);
      }
    }
    const headers = columns.map((c) => c.headerName);
    const keepWhole = columns.map((c) => KEEP_WHOLE_TYPES.has(c.type ?? 'text'));
    const layout = layoutPdfColumns(headers, distinct, measure, { pageWidth, fontSizes: TABLE_FONT_SIZES, cellPadding: CELL_PAD, keepWhole });
    layout.groups.forEach((cols, g) => {
      if (g > 0) doc.addPage();
      if (layout.groups.length > 1) {
        doc.font(REGULAR).fontSize(8.5).text(words.columnGroup(g + 1, layout.groups.length, cols.map((c) => headers[c]).join(', ')));
        doc.moveDown(0.3);
      }
      drawRow(headers, cols, layout, true);
      for (const cells of texts) drawRow(cells, cols, layout, false);
    });
    if (texts.length === 0) doc.font(REGULAR).fontSize(9).text(words.noRecords, MARGIN, doc.y + 6);
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i += 1) {
      doc.switchToPage(i);
      doc.page.margins.bottom = 0; // writing in the footer must not start a new page
      doc.font(REGULAR).fontSize(7.5).text(words.page(i + 1, range.count), MARGIN, doc.page.height - MARGIN - 8, {
        width: pageWidth,
        align: 'right',
        lineBreak: false,
      });
    }
    doc.end();
  })().catch((err: unknown) => doc.destroy(err instanceof Error ? err : new Error(String(err))));
  return doc;
}
