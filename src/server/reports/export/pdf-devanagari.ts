/**
 * Devanagari text a PDF reader can copy and search. fontkit shapes Devanagari correctly (conjuncts, the i-matra
 * drawn before its consonant, reph after it), but pdfkit maps each glyph to the characters it came from in the order
 * the glyphs are drawn, so pdf.js, pdftotext and copy-paste read "रिपोर्ट" as "िरपोटर्". Here every syllable
 * (a Unicode grapheme cluster, which keeps virama conjuncts together) whose glyphs are drawn out of order gets its
 * own copies of those glyphs in the font subset, mapped so that read in drawing order they give the syllable in
 * logical order: the first glyph stands for the leading characters, each following glyph for one more (every glyph
 * keeps a non-empty mapping, which readers need). The drawing is unchanged. Syllables drawn in order, syllables with
 * more glyphs than characters, and all non-Devanagari text use pdfkit's own mapping.
 */
import type PDFDocument from 'pdfkit';

interface ShapedGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

/** The parts of pdfkit's EmbeddedFont (and fontkit's subset) this relies on; checked at run time before use. */
interface EmbeddedFontInternals {
  layout(text: string, features?: unknown): { glyphs: ShapedGlyph[]; positions: unknown[] };
  encode(text: string, features?: unknown): [string[], unknown[]];
  subset: { glyphs: number[]; includeGlyph(id: number): number };
  widths: number[];
  unicode: number[][];
  scale: number;
}

const DEVANAGARI = /\p{Script=Devanagari}/u;
const graphemes = new Intl.Segmenter('hi', { granularity: 'grapheme' });
const hex4 = (n: number): string => `0000${n.toString(16)}`.slice(-4);

function isEmbeddedFont(v: unknown): v is EmbeddedFontInternals {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  const subset = f.subset as Record<string, unknown> | undefined;
  return (
    typeof f.layout === 'function' && typeof f.encode === 'function' && Array.isArray(f.widths) && Array.isArray(f.unicode) &&
    typeof f.scale === 'number' && typeof subset === 'object' && subset !== null && Array.isArray(subset.glyphs) &&
    typeof subset.includeGlyph === 'function'
  );
}

function patch(font: EmbeddedFontInternals): void {
  const original = font.encode.bind(font);
  /** Subset glyph ids of out-of-order copies, by glyph id and the characters they stand for. */
  const copies = new Map<string, number>();
  const copy = (g: ShapedGlyph, codePoints: number[]): number => {
    const key = `${g.id}:${codePoints.join(',')}`;
    let gid = copies.get(key);
    if (gid === undefined) {
      font.subset.glyphs.push(g.id);
      gid = font.subset.glyphs.length - 1;
      font.unicode[gid] = codePoints;
      font.widths[gid] = g.advanceWidth * font.scale;
      copies.set(key, gid);
    }
    return gid;
  };
  font.encode = (text, features) => {
    if (!DEVANAGARI.test(text)) return original(text, features);
    const encoded: string[] = [];
    const positions: unknown[] = [];
    for (const { segment } of graphemes.segment(text)) {
      const run = font.layout(segment, features);
      const logical = Array.from(segment, (ch) => ch.codePointAt(0) ?? 0);
      const drawn = run.glyphs.flatMap((g) => g.codePoints);
      const inOrder = drawn.length === logical.length && drawn.every((c, i) => c === logical[i]);
      const n = run.glyphs.length;
      const lead = logical.length - n + 1; // characters the first glyph stands for
      run.glyphs.forEach((g, i) => {
        let gid: number;
        if (inOrder || lead < 1) {
          gid = font.subset.includeGlyph(g.id);
          font.widths[gid] ??= g.advanceWidth * font.scale;
          font.unicode[gid] ??= g.codePoints;
        } else {
          gid = copy(g, i === 0 ? logical.slice(0, lead) : logical.slice(lead + i - 1, lead + i));
        }
        encoded.push(hex4(gid));
        positions.push(run.positions[i]);
      });
    }
    return [encoded, positions];
  };
}

/** Makes the Devanagari text of font `name` (registered on doc) extractable in logical order; no-op if pdfkit changed. */
export function extractableDevanagari(doc: InstanceType<typeof PDFDocument>, name: string): void {
  doc.font(name);
  // pdfkit keeps the current font object on the document; it is not in its typings.
  const font: unknown = (doc as unknown as { _font?: unknown })._font;
  if (isEmbeddedFont(font)) patch(font);
}
