import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text a PDF shows, page by page, as Mozilla's pdf.js extracts it (through each font's ToUnicode map): what a
 * reader would copy out of the file. Lines of a page are joined with '\n', pages with '\f'.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  // pdf.js may transfer (detach) the buffer it is given: pass a copy.
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const content = await (await doc.getPage(n)).getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text);
    }
    return pages.join('\f');
  } finally {
    await doc.destroy();
  }
}
