import { describe, expect, it } from 'vitest';
import { layoutPdfColumns, unbreakable, type MeasureText } from '../../src/server/reports/export/pdf-layout';

/** A monospace stand-in for the font: each character half the font size wide (bold a little wider). */
const measure: MeasureText = (text, bold, size) => text.length * size * (bold ? 0.55 : 0.5);
const opts = { pageWidth: 780, fontSizes: [7.5, 7, 6.5, 6], cellPadding: 5 };
const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);

describe('PDF column layout', () => {
  it('splits text only at spaces', () => {
    expect(unbreakable(' 23/11/2026  10:15 ')).toEqual(['23/11/2026', '10:15']);
  });

  it('a narrow table fills the page at the normal size, each column at least its widest word', () => {
    const headers = ['EFT No', 'Issued At', 'Reason'];
    const values = [new Set(['EF22439261116002']), new Set(['16/11/2026 06:34']), new Set(['Journey extension', 'Upgrade'])];
    const l = layoutPdfColumns(headers, values, measure, opts);
    expect(l.fontSize).toBe(7.5);
    expect(l.groups).toEqual([[0, 1, 2]]);
    expect(sum(l.widths)).toBeCloseTo(780, 5);
    expect(l.widths[0]).toBeGreaterThanOrEqual(measure('EF22439261116002', false, 7.5) + 5);
    expect(l.widths[1]).toBeGreaterThanOrEqual(measure('16/11/2026 06:34', false, 7.5) + 5); // room for the whole value
  });

  it('keeps an amount on one line when its column says so, though it has a space', () => {
    const values = [new Set(['₹ 1,670.00']), new Set(['x'])];
    const wrapping = layoutPdfColumns(['Fare', 'Note'], values, measure, { ...opts, pageWidth: 40 });
    const whole = layoutPdfColumns(['Fare', 'Note'], values, measure, { ...opts, pageWidth: 80, keepWhole: [true, false] });
    expect(wrapping.widths[0]).toBeLessThan(measure('₹ 1,670.00', false, 6) + 5);
    expect(whole.widths[0]).toBeGreaterThanOrEqual(measure('₹ 1,670.00', false, whole.fontSize) + 5);
  });

  it('shrinks the font before a word would have to break', () => {
    // 20 columns of a 10-character id, each rounded up to whole points: 20 × 43 = 860 pt at 7.5 pt, 20 × 40 = 800 at
    // 7 pt, 20 × 38 = 760 at 6.5 pt: the first size that fits the 780 pt page.
    const headers = Array.from({ length: 20 }, (_, i) => `C${i}`);
    const values = headers.map(() => new Set(['ABCDEFGHIJ']));
    const l = layoutPdfColumns(headers, values, measure, opts);
    expect(l.fontSize).toBe(6.5);
    expect(l.groups).toHaveLength(1);
    for (const w of l.widths) expect(w).toBeGreaterThanOrEqual(measure('ABCDEFGHIJ', false, 6.5) + 5);
    expect(sum(l.widths)).toBeLessThanOrEqual(780 + 1e-6);
  });

  it('continues columns on a following page group, repeating the first, when even the smallest size is too wide', () => {
    const headers = Array.from({ length: 32 }, (_, i) => `Column ${i}`);
    const values = headers.map((_, i) => new Set([`${'X'.repeat(20)}${i}`]));
    const l = layoutPdfColumns(headers, values, measure, opts);
    expect(l.fontSize).toBe(6);
    expect(l.groups.length).toBeGreaterThan(1);
    for (const g of l.groups) {
      expect(g[0]).toBe(0);
      expect(sum(g.map((c) => l.widths[c] ?? 0))).toBeLessThanOrEqual(780 + 1e-6);
      for (const c of g) expect(l.widths[c]).toBeGreaterThanOrEqual(measure(`${'X'.repeat(20)}${c}`, false, 6) + 5);
    }
    // Every other column is in exactly one group.
    expect(l.groups.flatMap((g) => g.slice(1)).sort((a, b) => a - b)).toEqual(headers.map((_, i) => i).slice(1));
  });
});
