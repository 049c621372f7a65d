import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, useLanguage, type Language } from './index';
import './language-switch.css';

/** Each language names itself, in its own script (GIGW: the switch is readable by whoever needs it). */
const NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };

/**
 * The language switch 'English / हिन्दी': two buttons in a named group; the chosen one is pressed (announced as
 * such), each carries its own lang so screen readers pronounce it right. The choice is remembered in this browser.
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const current = useLanguage();
  const [failed, setFailed] = useState(false);
  const choose = (lng: Language): void => {
    if (lng === current) return;
    setLanguage(lng).then(
      () => setFailed(false),
      () => setFailed(true),
    );
  };
  return (
    <div className={`language-switch ${className}`.trim()} role="group" aria-label={`${t('common.language')} / Language`}>
      {LANGUAGES.map((lng, i) => (
        <span key={lng} className="language-switch-item">
          {i > 0 && (
            <span className="language-switch-sep" aria-hidden="true">
              /
            </span>
          )}
          <button
            type="button"
            lang={lng}
            className="language-switch-button"
            aria-pressed={lng === current}
            data-language={lng}
            onClick={() => choose(lng)}
          >
            {NAMES[lng]}
          </button>
        </span>
      ))}
      {failed && (
        <span role="alert" className="language-switch-error">
          <span lang="hi">हिन्दी लोड नहीं हो सकी।</span> Hindi could not be loaded.
        </span>
      )}
    </div>
  );
}
