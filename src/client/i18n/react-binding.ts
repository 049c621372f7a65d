import { initReactI18next } from 'react-i18next';
import { i18n } from './instance';

/**
 * react-i18next for the signed-in screens (useTranslation), bound to the portal's i18next instance. Loaded with
 * those screens (loadAppTexts), so the sign-in screen's first load does not carry it.
 */
initReactI18next.init(i18n);
