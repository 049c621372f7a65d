import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { AppConfig } from './AppConfig';
import { AppFooter } from './AppFooter';
import { AppSidebar } from './AppSidebar';
import { AppTopbar } from './AppTopbar';
import { useLayout } from './LayoutContext';
import { isMenuOverContent } from './layout-state';
import { useHashScroll, useReloadKey } from './navigation';
import './layout.css';

export interface AppLayoutProps {
  accessibility: ReactNode;
  trainStrip: ReactNode;
  renderGame(exit: () => void): ReactNode;
}

const inside = (target: EventTarget | null, ...els: (Element | null | undefined)[]): boolean =>
  target instanceof Node && els.some((el) => el?.contains(target));

/** The signed-in shell: top bar, side menu, main area, footer, settings panel and the dimming mask. */
export function AppLayout({ accessibility, trainStrip, renderGame }: AppLayoutProps) {
  const { t } = useTranslation();
  const { state, dispatch, desktop } = useLayout();
  const location = useLocation();
  const reloadKey = useReloadKey();
  useHashScroll();

  const sidebarRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const profileButtonRef = useRef<HTMLButtonElement>(null);
  const profileMenuRef = useRef<HTMLDivElement>(null);
  const mainRef = useRef<HTMLElement>(null);

  const overContent = isMenuOverContent(state, desktop);
  const profileOpen = state.flags.profileSidebarVisible;

  // Menus close after every completed navigation (including to the same URL).
  useEffect(() => {
    dispatch({ type: 'menusClosed' });
  }, [location.key, dispatch]);

  // ...and on a click outside them (the mask is outside).
  useEffect(() => {
    if (!overContent && !profileOpen) return;
    const onPointerDown = (e: PointerEvent): void => {
      if (overContent && !inside(e.target, sidebarRef.current, menuButtonRef.current)) {
        dispatch({ type: 'menusClosed' });
      } else if (profileOpen && !inside(e.target, profileMenuRef.current, profileButtonRef.current)) {
        dispatch({ type: 'profileMenuClosed' });
      }
    };
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      if (profileOpen) {
        dispatch({ type: 'profileMenuClosed' });
        profileButtonRef.current?.focus();
      } else if (overContent) {
        dispatch({ type: 'menusClosed' });
        menuButtonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [overContent, profileOpen, dispatch]);

  // A menu opened over the content takes the focus, so keyboard users continue inside it.
  useEffect(() => {
    if (!overContent) return;
    const t = setTimeout(() => sidebarRef.current?.querySelector<HTMLElement>('a[href], button')?.focus(), 50);
    return () => clearTimeout(t);
  }, [overContent]);

  const { config, flags } = state;
  const wrapperClass = [
    'layout-wrapper',
    config.menuMode === 'overlay' ? 'layout-overlay' : 'layout-static',
    flags.staticMenuDesktopInactive && config.menuMode === 'static' ? 'layout-static-inactive' : '',
    flags.overlayMenuActive ? 'layout-overlay-active' : '',
    flags.staticMenuMobileActive ? 'layout-mobile-active' : '',
    config.inputStyle === 'filled' ? 'p-input-filled' : '',
    config.ripple ? '' : 'p-ripple-disabled',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={wrapperClass}>
      <button type="button" className="layout-skip-link" onClick={() => mainRef.current?.focus()}>
        {t('shell.skipToMain')}
      </button>
      <AppTopbar
        accessibility={accessibility}
        trainStrip={trainStrip}
        menuButtonRef={menuButtonRef}
        profileButtonRef={profileButtonRef}
        profileMenuRef={profileMenuRef}
      />
      <AppSidebar ref={sidebarRef} />
      <div className="layout-main-container">
        <main className="layout-main" id="main-content" tabIndex={-1} ref={mainRef}>
          <Outlet key={reloadKey} />
        </main>
        <AppFooter renderGame={renderGame} />
      </div>
      <AppConfig />
      {overContent && <div className="layout-mask" data-testid="layout-mask" aria-hidden="true" />}
    </div>
  );
}
