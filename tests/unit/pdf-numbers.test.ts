/** The PDF export right-aligns numbers, amounts and percentages, as the grid does, so their digits line up. */
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { pdfStream } from '../../src/server/reports/export/pdf';

async function collect(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Each text item of page 1 with its left and right edge. */
async function items(pdf: Uint8Array): Promise<{ str: string; left: number; right: number }[]> {
  const doc = await getDocument({ data: pdf, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const content = await (await doc.getPage(1)).getTextContent();
    return content.items.flatMap((i) => ('str' in i && i.str.trim() !== '' ? [{ str: i.str.trim(), left: i.transform[4] as number, right: (i.transform[4] as number) + i.width }] : []));
  } finally {
    await doc.destroy();
  }
}

describe('PDF cells', () => {
  it('right-aligns number, currency and percent columns and keeps text left-aligned', async () => {
    async function* rows() {
      yield [
        { coach: 'S1', berths: 7, fare: 12.5, pct: 5 },
        { coach: 'S10-LONG', berths: 1234567, fare: 1234567.25, pct: 99.5 },
      ];
    }
    const pdf = await collect(
      pdfStream({
        columns: [
          { field: 'coach', headerName: 'Coach' },
          { field: 'berths', headerName: 'Berths', type: 'number' },
          { field: 'fare', headerName: 'Fare', type: 'currency' },
          { field: 'pct', headerName: 'Share', type: 'percent' },
        ],
        rows: rows(),
        meta: { title: 'Numbers', filters: [], user: 'HHTSU', generatedAt: new Date('2026-11-27T10:00:00Z') },
      }),
    );
    const all = await items(pdf);
    const at = (s: string) => {
      const found = all.find((i) => i.str === s);
      if (!found) throw new Error(`no "${s}" in ${all.map((i) => i.str).join(' | ')}`);
      return found;
    };
    const pairs: [string, string][] = [
      ['7', '12,34,567'],
      ['₹ 12.50', '₹ 12,34,567.25'],
      ['5 %', '99.5 %'],
    ];
    for (const [short, long] of pairs) {
      expect(Math.abs(at(short).right - at(long).right), `${short} and ${long} end together`).toBeLessThan(0.5);
      expect(at(long).left).toBeLessThan(at(short).left);
    }
    expect(Math.abs(at('S1').left - at('S10-LONG').left)).toBeLessThan(0.5);
  });
});
