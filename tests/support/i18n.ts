import type { Page } from 'playwright-core';

/**
 * Words that stay as they are on a Hindi screen: codes Indian government portals keep in Latin letters, the
 * language switch's own 'English', the portal's name and version, and the release name (a proper noun).
 */
export const KEPT_IN_LATIN = new Set([
  'IR-HHT', 'HHT', 'OTP', 'TTE', 'TTEs', 'PNR', 'EFT', 'TDR', 'PRS', 'RAC', 'WL', 'IMEI', 'CSV', 'PDF', 'Excel', 'IST', 'SMS',
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
