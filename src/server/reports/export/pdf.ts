import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { columnText } from '../../../shared/column-types';
import type { ExportInput } from './types';
import { pdfWords, registerPdfFonts } from './pdf-language';

const MARGIN = 30;
const ROW_PAD = 3;
const FONT_SIZE = 7.5;

const REGULAR = 'body';
const BOLD = 'body-bold';

/**
 * PDF: landscape A4, title, applied filters, user and time on the first page, the column header repeated on
 * every page, and 'Page X of Y' on each page.
 */
export function pdfStream({ columns, rows, meta }: ExportInput): Readable {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, bufferPages: true, info: { Title: meta.title, Author: meta.user } });
  registerPdfFonts(doc, meta.lang ?? 'en', { regular: REGULAR, bold: BOLD });
  const words = pdfWords(meta.lang);
  const pageWidth = doc.page.width - MARGIN * 2;
  const weights = columns.map((c) => c.width ?? 120);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const widths = weights.map((w) => (w / totalWeight) * pageWidth);
  const bottom = (): number => doc.page.height - MARGIN - 14;

  const drawRow = (cells: string[], bold: boolean): void => {
    doc.font(bold ? BOLD : REGULAR).fontSize(FONT_SIZE);
    const heights = cells.map((t, i) => doc.heightOfString(t, { width: (widths[i] ?? 40) - 4 }));
    const h = Math.max(...heights, FONT_SIZE) + ROW_PAD * 2;
    if (doc.y + h > bottom()) {
      doc.addPage();
      if (!bold) drawHeader();
    }
    const y = doc.y;
    if (bold) doc.rect(MARGIN, y, pageWidth, h).fill('#e8eaf6').fillColor('#000');
    let x = MARGIN;
    cells.forEach((t, i) => {
      doc.text(t, x + 2, y + ROW_PAD, { width: (widths[i] ?? 40) - 4, lineBreak: true });
      x += widths[i] ?? 40;
    });
    doc.moveTo(MARGIN, y + h).lineTo(MARGIN + pageWidth, y + h).lineWidth(0.3).strokeColor('#bbbbbb').stroke();
    doc.x = MARGIN;
    doc.y = y + h;
  };
  const drawHeader = (): void => drawRow(columns.map((c) => c.headerName), true);

  doc.font(BOLD).fontSize(14).text(meta.title);
  doc.font(REGULAR).fontSize(8.5);
  const filterText = meta.filters.map((f) => `${f.label}: ${f.value}`).join('   ');
  doc.text(words.filters(filterText || words.noFilter));
  doc.text(words.generated(meta.user, meta.generatedAt, meta.rowCount));
  doc.moveDown(0.5);
  drawHeader();

  (async () => {
    let count = 0;
    for await (const batch of rows) {
      for (const row of batch) {
        drawRow(columns.map((c) => columnText(c, row[c.field])), false);
        count += 1;
      }
    }
    if (count === 0) doc.font(REGULAR).fontSize(9).text(words.noRecords, MARGIN, doc.y + 6);
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
