/**
 * Column widths of a PDF table, sized from what the columns hold (so that a date is never split as "23/11/202" / "6"). A
 * column is never narrower than its widest unbreakable piece: a header word, or a value's word (a date, an id, a
 * code, a name part), so text wraps only at spaces. Where that does not fit the page at the normal size, the font
 * shrinks step by step down to a floor; below the floor the columns continue on a following group of pages, each
 * group repeating the first column so a row can be followed across. Pure: the caller measures text with its font.
 */

/** Width in points of a text at a font size, in the bold (header) or regular (body) face. */
export type MeasureText = (text: string, bold: boolean, fontSize: number) => number;

export interface PdfTableLayout {
  fontSize: number;
  /** Width of each column in points (all columns, whichever group shows them). */
  widths: number[];
  /** Column indexes per group of pages: one group when the table fits the page width. */
  groups: number[][];
}

export interface LayoutOptions {
  pageWidth: number;
  /** Sizes tried in order, largest first; the last one is the floor. */
  fontSizes: readonly number[];
  /** Left plus right padding inside a cell, in points. */
  cellPadding: number;
  /** Columns whose values never wrap, not even at a space (amounts: "₹ 1,670.00"); by column index. */
  keepWhole?: readonly boolean[];
}

/** The pieces of a text that must stay on one line: runs between spaces. */
export function unbreakable(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

interface ColumnNeed {
  /** The widest unbreakable piece (a line must hold it). */
  min: number;
  /** The header on one line, or the widest value on one line, whichever is wider (nothing wraps). */
  natural: number;
}

/**
 * What one column needs at a font size. Values are measured once each (many repeat: dates, codes); the header and
 * every distinct value's widest word give the minimum, the longest one-line rendering the natural width.
 */
function columnNeed(header: string, values: ReadonlySet<string>, measure: MeasureText, size: number, pad: number, keep: boolean): ColumnNeed {
  let min = 0;
  for (const w of unbreakable(header)) min = Math.max(min, measure(w, true, size));
  let natural = measure(header, true, size);
  for (const v of values) {
    const words = unbreakable(v);
    if (words.length === 0) continue;
    const whole = measure(v, false, size);
    natural = Math.max(natural, whole);
    min = Math.max(min, words.length === 1 || keep ? whole : Math.max(...words.map((w) => measure(w, false, size))));
  }
  return { min: Math.ceil(min + pad), natural: Math.ceil(natural + pad) };
}

/**
 * Gives each column of a group its minimum, then shares the rest of the page: first towards each column's natural
 * width (in proportion to what it lacks), then whatever is left in proportion to the natural widths.
 */
function share(needs: ColumnNeed[], pageWidth: number): number[] {
  const widths = needs.map((n) => n.min);
  let spare = pageWidth - widths.reduce((a, b) => a + b, 0);
  const lack = needs.map((n) => Math.max(0, n.natural - n.min));
  const totalLack = lack.reduce((a, b) => a + b, 0);
  if (totalLack > 0 && spare > 0) {
    const part = Math.min(1, spare / totalLack);
    lack.forEach((l, i) => (widths[i] = (widths[i] ?? 0) + l * part));
    spare -= totalLack * part;
  }
  if (spare > 0) {
    const total = needs.reduce((a, n) => a + n.natural, 0);
    needs.forEach((n, i) => (widths[i] = (widths[i] ?? 0) + (spare * n.natural) / total));
  }
  return widths;
}

/** Lays out a table of `headers` whose column i holds the distinct texts `values[i]`. */
export function layoutPdfColumns(headers: readonly string[], values: readonly ReadonlySet<string>[], measure: MeasureText, opts: LayoutOptions): PdfTableLayout {
  const { pageWidth, fontSizes, cellPadding } = opts;
  const all = headers.map((_, i) => i);
  let needs: ColumnNeed[] = [];
  let fontSize = fontSizes[0] ?? 8;
  for (const size of fontSizes) {
    fontSize = size;
    needs = headers.map((h, i) => columnNeed(h, values[i] ?? new Set(), measure, size, cellPadding, opts.keepWhole?.[i] === true));
    if (needs.reduce((a, n) => a + n.min, 0) <= pageWidth) {
      const widths = share(needs, pageWidth);
      return { fontSize, widths, groups: [all] };
    }
  }
  // Too wide even at the smallest size: groups of columns, one after the other, each with the first column again
  // (at one width in every group: its natural width, up to a fifth of the page, never under its widest word).
  const widths = needs.map((n) => Math.min(n.min, pageWidth));
  const first = needs[0] ?? { min: 0, natural: 0 };
  const key = Math.min(pageWidth, Math.max(first.min, Math.min(first.natural, pageWidth / 5)));
  const groups: number[][] = [];
  let current: number[] = [0];
  let used = key;
  for (let i = 1; i < needs.length; i += 1) {
    const w = widths[i] ?? 0;
    if (used + w > pageWidth && current.length > 1) {
      groups.push(current);
      current = [0];
      used = key;
    }
    current.push(i);
    used += w;
  }
  groups.push(current);
  // Within each group the other columns share the rest of the page as a fitting table would.
  const final = [...widths];
  final[0] = key;
  for (const g of groups) {
    const cols = g.slice(1);
    const shared = share(cols.map((i) => needs[i] ?? { min: 0, natural: 0 }), pageWidth - key);
    cols.forEach((col, k) => (final[col] = shared[k] ?? final[col] ?? 0));
  }
  return { fontSize, widths: final, groups };
}
