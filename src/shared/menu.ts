/** The side menu (menu.json, validated by schemas/menu.schema.json) and what GET /api/meta/menu returns. */

export interface MenuItem {
  type: 'item';
  /** Route segment under /layout/uikit/ (a report id or a page). */
  path: string;
  label: string;
  icon?: string;
  /** Set by the server when the target cannot be used now (e.g. a broken report definition): the reason. */
  unavailable?: string;
}

export interface MenuCommand {
  type: 'command';
  command: 'logout';
  label: string;
  icon?: string;
}

export interface MenuSection {
  type: 'section';
  label: string;
  items: (MenuItem | MenuCommand)[];
}

export type MenuEntry = MenuItem | MenuCommand | MenuSection;

export interface MenuDocument {
  entries: MenuEntry[];
}

/** Menu paths that are handwritten pages, not report definitions. */
export const MENU_PAGES: readonly string[] = ['feedbackform', 'whatsnew', 'devices', 'myviews'];

/** Every item of a menu with its JSON pointer (sections flattened). */
export function menuItems(doc: MenuDocument): { pointer: string; item: MenuItem }[] {
  const out: { pointer: string; item: MenuItem }[] = [];
  doc.entries.forEach((e, i) => {
    if (e.type === 'item') out.push({ pointer: `/entries/${i}`, item: e });
    if (e.type === 'section') {
      e.items.forEach((it, j) => {
        if (it.type === 'item') out.push({ pointer: `/entries/${i}/items/${j}`, item: it });
      });
    }
  });
  return out;
}

/** Base of every menu item path. */
export const MENU_ITEM_BASE = '/layout/uikit/';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

function parseLeaf(v: unknown): MenuItem | MenuCommand | null {
  if (!isRecord(v) || typeof v.label !== 'string' || !optString(v.icon)) return null;
  const icon = typeof v.icon === 'string' ? { icon: v.icon } : {};
  if (v.type === 'item' && typeof v.path === 'string' && /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(v.path)) {
    if (!optString(v.unavailable)) return null;
    return {
      type: 'item',
      path: v.path,
      label: v.label,
      ...icon,
      ...(typeof v.unavailable === 'string' ? { unavailable: v.unavailable } : {}),
    };
  }
  if (v.type === 'command' && v.command === 'logout') return { type: 'command', command: 'logout', label: v.label, ...icon };
  return null;
}

/** Boundary check of a menu received from the network: null when the shape is wrong. */
export function parseMenuDocument(value: unknown): MenuDocument | null {
  if (!isRecord(value) || !Array.isArray(value.entries)) return null;
  const entries: MenuEntry[] = [];
  for (const e of value.entries) {
    if (isRecord(e) && e.type === 'section') {
      if (typeof e.label !== 'string' || !Array.isArray(e.items)) return null;
      const items: (MenuItem | MenuCommand)[] = [];
      for (const i of e.items) {
        const leaf = parseLeaf(i);
        if (!leaf) return null;
        items.push(leaf);
      }
      entries.push({ type: 'section', label: e.label, items });
    } else {
      const leaf = parseLeaf(e);
      if (!leaf) return null;
      entries.push(leaf);
    }
  }
  return { entries };
}
