import type { Page } from 'playwright-core';

/**
 * Words that stay as they are on a Hindi screen: codes Indian government portals keep in Latin letters, the
 * language switch's own 'English', the portal's name and version, and the release name (a proper noun).
 */
export const KEPT_IN_LATIN = new Set([
  'IR-HHT', 'HHT', 'OTP', 'TTE', 'TTEs', 'PNR', 'EFT', 'TDR', 'PRS', 'RAC', 'WL', 'IMEI', 'CSV', 'PDF', 'IST', 'SMS',
  'EN', 'English', 'Kanchenjunga', 'DLI', 'NDLS', 'CC', 'EC', 'SL', 'FC', 'GN', 'NR', 'CR', 'WR',
]);

/**
 * The Latin-letter words left in the visible text (and placeholders) of `selector`, less codes and data: words
 * with a digit (12951, S2, v2.1.0) and KEPT_IN_LATIN. An empty list means Hindi throughout. Capitals are no excuse:
 * 'TRAIN CHECKING INFO' is English.
 */
export async function englishLeft(page: Page, selector: string, alsoAllowed: readonly string[] = []): Promise<string[]> {
  const text = await page.locator(selector).first().evaluate((el) => {
    const placeholders = [...el.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]')]
      .filter((i) => i.offsetParent !== null)
      .map((i) => i.placeholder);
    return [(el as HTMLElement).innerText, ...placeholders].join('\n');
  });
  const words = text.match(/[A-Za-z][A-Za-z0-9.'’-]*/g) ?? [];
  return [...new Set(words)].filter(
    (w) => !/\d/.test(w) && !KEPT_IN_LATIN.has(w) && !alsoAllowed.includes(w),
  );
}

/** Elements whose text is data (grid cells, values the page marks, the user's own name, station names), not wording. */
export const DATA_SELECTOR = '.ag-cell, [data-value], .train-strip-name, .train-strip-select, [data-testid="profile-name"], [data-testid="profile-designation"], [data-testid="profile-code"]';

/**
 * The Latin-letter words of the page's wording: every visible text node, screen-reader-only text included, and the
 * aria-label, title and placeholder of visible elements, less data (DATA_SELECTOR, and any word that also appears in
 * data, such as a station name inside a sentence), codes and KEPT_IN_LATIN. Empty means Hindi throughout.
 */
export async function englishBesideData(page: Page, alsoAllowed: readonly string[] = []): Promise<string[]> {
  const { wording, data } = await page.evaluate((dataSelector) => {
    const wording: string[] = [];
    const data: string[] = [];
    const shown = (el: Element): boolean => (el as HTMLElement).checkVisibility?.() ?? true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent ?? '';
      if (!el || !text.trim() || el.closest('script, style, noscript') || !shown(el)) continue;
      (el.closest(dataSelector) ? data : wording).push(text);
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (!shown(el) || el.closest(dataSelector)) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) wording.push(v);
      }
    }
    return { wording: wording.join('\n'), data: data.join('\n') };
  }, DATA_SELECTOR);
  // Tokens from a letter or digit, so a code such as 3E or 2A is one token (with a digit: a code, kept).
  const words = (t: string): string[] => (t.match(/[A-Za-z0-9][A-Za-z0-9.'’-]*/g) ?? []).map((w) => w.replace(/[-.'’]+$/, '')).filter((w) => /[A-Za-z]/.test(w));
  const inData = new Set(words(data));
  const left = [...new Set(words(wording))].filter((w) => !/\d/.test(w) && !KEPT_IN_LATIN.has(w) && !inData.has(w) && !alsoAllowed.includes(w));
  // Each word with the text it was found in, so a failure says where to look.
  const lines = wording.split('\n');
  return left.map((w) => `${w} in "${(lines.find((l) => words(l).includes(w)) ?? '').trim().slice(0, 80)}"`);
}
