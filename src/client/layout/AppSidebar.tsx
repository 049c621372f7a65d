import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AppMenu } from './AppMenu';
import { useLayout } from './LayoutContext';
import { isSidebarVisible } from './layout-state';

/** The side menu region: docked (static, desktop) or off-canvas (overlay mode, mobile). Hidden menus are inert. */
export const AppSidebar = forwardRef<HTMLElement>(function AppSidebar(_props, ref) {
  const { t } = useTranslation();
  const { state, dispatch, desktop } = useLayout();
  const visible = isSidebarVisible(state, desktop);
  return (
    <nav
      id="app-sidebar"
      ref={ref}
      className="layout-sidebar"
      aria-label={t('shell.mainMenu')}
      inert={!visible}
      onMouseEnter={() => dispatch({ type: 'menuHoverChanged', active: true })}
      onMouseLeave={() => dispatch({ type: 'menuHoverChanged', active: false })}
    >
      <AppMenu />
    </nav>
  );
});
