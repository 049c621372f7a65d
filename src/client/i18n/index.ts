import { useSyncExternalStore } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, i18n, isLanguage, type Language } from './instance';
import { enLogin } from './en/login';

export { DEFAULT_LANGUAGE, LANGUAGE_KEY, LANGUAGES, i18n, isLanguage, type Language };

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE; // storage blocked: English
  }
}

type Part = 'login' | 'app';
const loaders: Record<Language, Record<Part, () => Promise<object>>> = {
  en: { login: () => Promise.resolve(enLogin), app: async () => (await import('./en/app')).enApp },
  hi: {
    login: async () => {
      const m = await import('./hi/login');
      // The English catalogue comes with Hindi: English shows messages as they are, Hindi must recognise them.
      i18n.addResourceBundle('en', 'translation', { messages: m.catalogueEn }, true, true);
      return m.hiLogin;
    },
    app: async () => (await import('./hi/app')).hiApp,
  },
};
/** Parts the open screens need (the login part always). */
const wanted = new Set<Part>(['login']);
const loaded: Record<Language, Set<Part>> = { en: new Set(['login']), hi: new Set() };

async function loadParts(lng: Language): Promise<void> {
  await Promise.all(
    [...wanted].filter((p) => !loaded[lng].has(p)).map(async (p) => {
      const texts = await loaders[lng][p]();
      i18n.addResourceBundle(lng, 'translation', texts, true, true);
      loaded[lng].add(p);
    }),
  );
}

/**
 * The signed-in screens' texts (and the not-found screen's), in the current language and English (the fallback):
 * their routes wait for it as they wait for their code.
 */
export async function loadAppTexts(): Promise<void> {
  wanted.add('app');
  const lng = currentLanguage();
  await Promise.all([
    loadParts(DEFAULT_LANGUAGE),
    lng === DEFAULT_LANGUAGE ? undefined : loadParts(lng),
    // The signed-in screens use react-i18next's useTranslation; it binds to this instance here.
    import('./react-binding'),
  ]);
}

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
  await loadParts(lng);
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

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

/** The current language, re-rendering on change: effects that fetch words from the server depend on it. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, () => DEFAULT_LANGUAGE);
}

/** Translates in the current language (outside React, and on the sign-in screen with useTexts). */
export const t = i18n.getFixedT(null, 'translation');

/**
 * The sign-in screen's hook: t, re-rendering when the language changes. The signed-in screens use react-i18next's
 * useTranslation; the sign-in screen (the entry chunk) does without it to keep the first load within its budget.
 */
export function useTexts(): { t: typeof t; language: Language } {
  return { t, language: useLanguage() };
}
