import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en, type Texts } from './en';

/**
 * The portal's two languages (GIGW 3.0: Hindi and English). i18next holds the texts; English is bundled, Hindi is a
 * lazy chunk fetched the first time it is chosen (also before the first render when it was chosen last time).
 */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** Local storage key of the browser's chosen language. */
export const LANGUAGE_KEY = 'hht-language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Texts };
  }
}

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE; // storage blocked: English
  }
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  // React escapes what it renders; escaping here would show '&amp;' in labels.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

const loaders: Record<Language, () => Promise<Texts>> = {
  en: () => Promise.resolve(en),
  hi: async () => (await import('./hi')).hi,
};

/** The language the texts are shown in now (what API calls send as Accept-Language). */
export function currentLanguage(): Language {
  const l = i18n.language;
  return isLanguage(l) ? l : DEFAULT_LANGUAGE;
}

function applyToDocument(lng: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/**
 * Switches the interface language: loads its texts if needed, remembers the choice in this browser and sets
 * <html lang>. A failed load (offline) keeps the current language and rejects.
 */
export async function setLanguage(lng: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'translation')) {
    i18n.addResourceBundle(lng, 'translation', await loaders[lng]());
  }
  await i18n.changeLanguage(lng);
  applyToDocument(lng);
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    /* storage blocked: the choice lasts for this page */
  }
}

/** Before the first render: the browser's remembered language (English if none, or if Hindi cannot load). */
export async function bootLanguage(): Promise<void> {
  const lng = storedLanguage();
  applyToDocument(DEFAULT_LANGUAGE);
  if (lng === DEFAULT_LANGUAGE) return;
  await setLanguage(lng).catch(() => undefined);
}

/** The current language, re-rendering on change: effects that fetch words from the server depend on it. */
export function useLanguage(): Language {
  const { i18n: instance } = useTranslation();
  return isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE;
}

/** Translates outside React (alerts, toasts raised by the API client). */
export const t = i18n.t.bind(i18n);
