import { useState } from 'react';
import { LANGUAGES, setLanguage, useTexts, type Language } from './index';
import './language-switch.css';

/** Each language names itself, in its own script (GIGW: the switch is readable by whoever needs it). */
const NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };
/** On a phone's top bar: the first letters (each contained in its name, so speech input finds the button). */
const SHORT: Record<Language, string> = { en: 'EN', hi: 'हि' };

/**
 * The language switch 'English / हिन्दी': two buttons in a named group; the chosen one is pressed (announced as
 * such), each carries its own lang so screen readers pronounce it right. The choice is remembered in this browser.
 * `compact`: on narrow screens (the phone's top bar) the buttons show 'EN' and 'हि'.
 */
export function LanguageSwitch({ className = '', compact = false }: { className?: string; compact?: boolean }) {
  const { t, language: current } = useTexts();
  const [failed, setFailed] = useState(false);
  const choose = (lng: Language): void => {
    if (lng === current) return;
    setLanguage(lng).then(
      () => setFailed(false),
      () => setFailed(true),
    );
  };
  return (
    <div className={`language-switch${compact ? ' language-switch-compact' : ''} ${className}`.trim()} role="group" aria-label={`${t('common.language')} / Language`}>
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
            {compact ? (
              <>
                {/* Narrow screens: the name stays for assistive technology, the letters are what the eye sees. */}
                <span className="language-switch-long">{NAMES[lng]}</span>
                <span className="language-switch-short" aria-hidden="true">
                  {SHORT[lng]}
                </span>
              </>
            ) : (
              NAMES[lng]
            )}
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
