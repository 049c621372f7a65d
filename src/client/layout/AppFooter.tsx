import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RELEASE_NAME, VERSION_LABEL } from '../../shared/constants';
import { registerTriggerClick } from './layout-state';

export interface AppFooterProps {
  /** The footer game (a feature, composed by the app); exit() brings the credits back. */
  renderGame(exit: () => void): ReactNode;
}

/** Credits, version label and release name; 3 clicks on the label within 1.2 s replace the credits with the game. */
export function AppFooter({ renderGame }: AppFooterProps) {
  const { t } = useTranslation();
  const [gameOpen, setGameOpen] = useState(false);
  const clicks = useRef<number[]>([]);
  const labelRef = useRef<HTMLButtonElement>(null);

  const onLabelClick = (): void => {
    const r = registerTriggerClick(clicks.current, performance.now());
    clicks.current = r.clicks;
    if (r.fired) setGameOpen(true);
  };
  const exit = (): void => {
    setGameOpen(false);
    // Back on the footer, keyboard users land where they started.
    requestAnimationFrame(() => labelRef.current?.focus());
  };

  return (
    <footer className="layout-footer">
      {gameOpen ? (
        renderGame(exit)
      ) : (
        <div className="layout-footer-credits">
          <span>{t('shell.footerCredits')}</span>
          <span className="layout-footer-version">
            <button ref={labelRef} type="button" className="p-link layout-version-label" onClick={onLabelClick}>
              {VERSION_LABEL}
            </button>
            <span className="layout-release-name">{RELEASE_NAME}</span>
          </span>
        </div>
      )}
    </footer>
  );
}
