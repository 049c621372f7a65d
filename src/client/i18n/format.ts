import { currentLanguage, type Language } from './index';

/**
 * Numbers and dates as India writes them, in both languages: lakh grouping (12,34,567) and international (Latin)
 * digits, which Indian government portals use in Hindi too. The locale differs only where words appear (month and
 * day names of a printed timestamp).
 */
const LOCALE: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN' };
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(lng: Language): Intl.NumberFormat {
  let f = numberFormats.get(lng);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lng], { maximumFractionDigits: 2, numberingSystem: 'latn' });
    numberFormats.set(lng, f);
  }
  return f;
}

/** 1234567 -> '12,34,567' (either language). */
export function formatNumber(x: number, lng: Language = currentLanguage()): string {
  return numberFormat(lng).format(x);
}

/** A moment as dd/mm/yyyy, hh:mm:ss am/pm in India's time zone, in the interface language. */
export function formatTimestamp(d: Date, lng: Language = currentLanguage()): string {
  return d.toLocaleString(LOCALE[lng], { timeZone: 'Asia/Kolkata', numberingSystem: 'latn', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A moment as dd/mm/yyyy, HH:mm (24-hour) in India's time zone: no am/pm words, so it reads alike in both languages. */
export function formatMoment(d: Date, lng: Language = currentLanguage()): string {
  return d.toLocaleString(LOCALE[lng], { timeZone: 'Asia/Kolkata', numberingSystem: 'latn', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}
