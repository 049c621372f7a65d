import { MENU_PAGES, menuItems } from '../../shared/menu';
import type { MenuStore } from '../meta/menu-store';
import type { ReportRegistry } from './registry';

/**
 * Marks menu items whose report is broken or missing as unavailable, with the reason users see; clears the
 * mark when the report is good again. Handwritten pages are left alone.
 */
export function syncMenuAvailability(menu: MenuStore, registry: ReportRegistry): void {
  const broken = registry.unavailable();
  for (const { item } of menuItems(menu.getMenu())) {
    if (MENU_PAGES.includes(item.path)) continue;
    if (registry.get(item.path)) {
      menu.setUnavailable(item.path, null);
      continue;
    }
    const e = broken.get(item.path);
    menu.setUnavailable(item.path, e ? `Report definition is broken: ${e.reason} (${e.file}#${e.pointer})` : `No report definition "${item.path}"`);
  }
}
