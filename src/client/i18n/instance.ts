import i18next from 'i18next';
import type { Texts } from './en';
import { enLogin } from './en/login';

/**
 * The portal's two languages (GIGW 3.0: Hindi and English). i18next holds the texts, in two parts per language: the
 * sign-in screen's ('login', English in the entry chunk) and the rest ('app', loaded with the signed-in shell or the
 * not-found screen). Hindi parts are chunks fetched the first time Hindi is chosen (before the first render when it
 * was chosen last time), so the login's first load carries no Hindi and no signed-in texts.
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

/** The portal's i18next instance: index.ts loads texts into it, react-binding.ts binds react-i18next to it. */
export const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { translation: enLogin } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  // React escapes what it renders; escaping here would show '&amp;' in labels.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});
