import { forwardRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { Link } from 'react-router-dom';
import { Tooltip } from 'primereact/tooltip';
import { useLayout } from './LayoutContext';
import { isSidebarVisible } from './layout-state';
import { unitCode, useShellSession } from './shell-session';

export interface AppTopbarProps {
  /** The accessibility panel (a feature, composed by the app). */
  accessibility: ReactNode;
  /** The train running strip (a feature, composed by the app). */
  trainStrip: ReactNode;
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  profileButtonRef: RefObject<HTMLButtonElement | null>;
  profileMenuRef: RefObject<HTMLDivElement | null>;
}

function Logo() {
  return (
    <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect x="6" y="3" width="20" height="20" rx="5" fill="var(--primary-color)" />
      <rect x="9" y="6" width="14" height="7" rx="1.5" fill="var(--primary-color-text)" />
      <circle cx="11" cy="18" r="2" fill="var(--primary-color-text)" />
      <circle cx="21" cy="18" r="2" fill="var(--primary-color-text)" />
      <path d="M9 23 5 29M23 23l4 6M8 27h16" stroke="var(--primary-color)" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export const AppTopbar = forwardRef<HTMLElement, AppTopbarProps>(function AppTopbar(
  { accessibility, trainStrip, menuButtonRef, profileButtonRef, profileMenuRef },
  ref,
) {
  const { t } = useTranslation();
  const { state, dispatch, desktop } = useLayout();
  const { profile, logout } = useShellSession();
  const code = unitCode(profile);
  const menuOpen = isSidebarVisible(state, desktop);
  const profileOpen = state.flags.profileSidebarVisible;

  return (
    <header className="layout-topbar" ref={ref}>
      <Link to="/layout" className="layout-topbar-logo" aria-label={t('shell.logoLabel')} data-pr-tooltip={t('shell.logoTooltip')} data-pr-position="bottom">
        <Logo />
        <span>IR-HHT</span>
      </Link>
      <Tooltip target=".layout-topbar-logo" showDelay={150} />

      <button
        ref={menuButtonRef}
        type="button"
        className="p-link layout-topbar-button layout-menu-button"
        aria-label={t('shell.toggleMenu')}
        aria-controls="app-sidebar"
        aria-expanded={menuOpen}
        onClick={() => dispatch({ type: 'menuToggled', desktop })}
      >
        <i className="pi pi-bars" aria-hidden="true" />
      </button>

      <div className="layout-topbar-user" aria-label={t('shell.signedInUser')}>
        <span className="layout-topbar-user-name" data-testid="profile-name">{profile.name}</span>
        <span className="layout-topbar-user-meta">
          <span data-testid="profile-designation" title={profile.designation}>
            {profile.designation}
          </span>
          {code && (
            <>
              <span className="layout-topbar-sep">{' · '}</span>
              <abbr title={t('shell.unitCode')} data-testid="profile-code">
                {code}
              </abbr>
            </>
          )}
        </span>
      </div>

      <div className="layout-topbar-strip">{trainStrip}</div>

      <div className="layout-topbar-actions">
        <LanguageSwitch className="layout-topbar-language" compact />
        {accessibility}
        <div className="layout-profile">
          <button
            ref={profileButtonRef}
            type="button"
            className="p-link layout-topbar-button"
            aria-label={t('shell.profileMenu')}
            aria-controls="profile-menu"
            aria-expanded={profileOpen}
            onClick={() => dispatch({ type: 'profileMenuToggled' })}
          >
            <i className="pi pi-user" aria-hidden="true" />
          </button>
          {profileOpen && (
            <div id="profile-menu" className="layout-profile-menu" ref={profileMenuRef}>
              <dl>
                <dt>{t('shell.name')}</dt>
                <dd>{profile.name}</dd>
                <dt>{t('shell.designation')}</dt>
                <dd>{profile.designation}</dd>
                <dt>{t('shell.level')}</dt>
                <dd>{profile.userLevel}</dd>
                {code && (
                  <>
                    <dt>{t('shell.divisionLobby')}</dt>
                    <dd>{code}</dd>
                  </>
                )}
              </dl>
              <ul>
                <li>
                  <Link to="/layout/dashboard" className="layout-profile-link">
                    <i className="pi pi-home" aria-hidden="true" /> {t('shell.dashboard')}
                  </Link>
                </li>
                <li>
                  <Link to="/layout/uikit/subscriptions" className="layout-profile-link">
                    <i className="pi pi-envelope" aria-hidden="true" /> {t('subscriptions.manage')}
                  </Link>
                </li>
                <li>
                  <button type="button" className="p-link layout-profile-link" onClick={() => dispatch({ type: 'configSidebarOpened' })}>
                    <i className="pi pi-cog" aria-hidden="true" /> {t('shell.settings')}
                  </button>
                </li>
                <li>
                  <button type="button" className="p-link layout-profile-link" onClick={() => logout()}>
                    <i className="pi pi-sign-out" aria-hidden="true" /> {t('shell.logout')}
                  </button>
                </li>
              </ul>
            </div>
          )}
        </div>
        <button
          type="button"
          className="p-link layout-topbar-button"
          aria-label={t('shell.settings')}
          aria-controls="layout-config"
          aria-expanded={state.flags.configSidebarVisible}
          onClick={() => dispatch({ type: 'configSidebarOpened' })}
        >
          <i className="pi pi-cog" aria-hidden="true" />
        </button>
      </div>
    </header>
  );
});
