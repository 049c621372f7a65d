import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MENU_ITEM_BASE, type MenuCommand, type MenuItem } from '../../shared/menu';

export interface AppMenuItemProps {
  entry: MenuItem | MenuCommand;
  onCommand(command: MenuCommand['command']): void;
}

function Icon({ icon }: { icon: string | undefined }) {
  return icon ? <i className={`layout-menuitem-icon ${icon}`} aria-hidden="true" /> : null;
}

/** One leaf of the side menu: a link under /layout/uikit/, an unavailable entry, or a command. */
export function AppMenuItem({ entry, onCommand }: AppMenuItemProps) {
  const { t } = useTranslation();
  if (entry.type === 'command') {
    return (
      <li>
        <button type="button" className="p-link layout-menuitem-link" onClick={() => onCommand(entry.command)}>
          <Icon icon={entry.icon} />
          <span className="layout-menuitem-text">{entry.label}</span>
        </button>
      </li>
    );
  }
  if (entry.unavailable) {
    return (
      <li>
        <span className="layout-menuitem-link layout-menuitem-unavailable" aria-disabled="true" title={entry.unavailable}>
          <Icon icon={entry.icon} />
          <span className="layout-menuitem-text">{entry.label}</span>
          <span className="sr-only">{t('shell.unavailable', { reason: entry.unavailable })}</span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <NavLink to={`${MENU_ITEM_BASE}${entry.path}`} className={({ isActive }) => `layout-menuitem-link${isActive ? ' active-route' : ''}`}>
        <Icon icon={entry.icon} />
        <span className="layout-menuitem-text">{entry.label}</span>
      </NavLink>
    </li>
  );
}
