/**
 * The grid's column layout (order, visibility, width, pinning) remembered per report and tab in
 * localStorage. What is read back is validated: unknown columns, bad widths or a corrupt value are dropped.
 */
import { isObject } from './parse';

export interface StoredColumn {
  colId: string;
  hide: boolean;
  width?: number;
  pinned: 'left' | 'right' | null;
}

const VERSION = 'v1';
export const MIN_WIDTH = 40;
export const MAX_WIDTH = 2000;

export function columnStateKey(reportId: string, tabId?: string): string {
  return `hht.reportColumns.${VERSION}.${reportId}${tabId ? `.${tabId}` : ''}`;
}

/** Parses a stored value; returns null when there is nothing usable. */
export function parseColumnState(raw: string | null, knownFields: readonly string[]): StoredColumn[] | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(data)) return null;
  const seen = new Set<string>();
  const out: StoredColumn[] = [];
  for (const item of data) {
    if (!isObject(item) || typeof item.colId !== 'string' || !knownFields.includes(item.colId) || seen.has(item.colId)) continue;
    seen.add(item.colId);
    const col: StoredColumn = {
      colId: item.colId,
      hide: item.hide === true,
      pinned: item.pinned === 'left' || item.pinned === 'right' ? item.pinned : null,
    };
    if (typeof item.width === 'number' && Number.isFinite(item.width)) col.width = Math.round(Math.min(Math.max(item.width, MIN_WIDTH), MAX_WIDTH));
    out.push(col);
  }
  // Never restore a layout that hides every column.
  if (out.length === 0 || out.every((c) => c.hide)) return null;
  return out;
}

export function readColumnState(storage: Storage | undefined, key: string, knownFields: readonly string[]): StoredColumn[] | null {
  try {
    return parseColumnState(storage?.getItem(key) ?? null, knownFields);
  } catch {
    return null; // storage blocked (privacy mode)
  }
}

/** From AG Grid's column state (or anything shaped like it). */
export function toStoredColumns(state: readonly { colId: string; hide?: boolean | null; width?: number | null; pinned?: boolean | 'left' | 'right' | null }[]): StoredColumn[] {
  return state.map((s) => {
    const col: StoredColumn = {
      colId: s.colId,
      hide: s.hide === true,
      pinned: s.pinned === 'left' || s.pinned === true ? 'left' : s.pinned === 'right' ? 'right' : null,
    };
    if (typeof s.width === 'number') col.width = Math.round(s.width);
    return col;
  });
}

export function writeColumnState(storage: Storage | undefined, key: string, columns: StoredColumn[]): void {
  try {
    storage?.setItem(key, JSON.stringify(columns));
  } catch {
    // quota or privacy mode: the layout is simply not remembered
  }
}

export function clearColumnState(storage: Storage | undefined, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // ignore
  }
}
