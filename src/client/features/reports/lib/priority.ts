/**
 * Column priority (1 always shown, 2 when room, 3 on demand) turned into what the grid and the card list show.
 * Pure functions over the definition's columns.
 */
import { columnPriority, type ColumnDef } from '../../../../shared/report-definition';

/** Priority 1 first, then 2, then 3; the definition's order within each (the sort is stable). */
export function orderByPriority(columns: readonly ColumnDef[]): ColumnDef[] {
  return [...columns].sort((a, b) => columnPriority(a) - columnPriority(b));
}

/** Whether the grid shows a column before the user chooses: hidden columns and priority 3 wait for Columns. */
export const shownByDefault = (c: ColumnDef): boolean => c.hidden !== true && columnPriority(c) !== 3;

/**
 * A card's readable block and its details: the priority-1 columns, the rest of the non-hidden ones. A view without
 * a priority-1 column (a definition that does not say) shows its first three columns on the card.
 */
export function cardColumns(columns: readonly ColumnDef[]): { main: ColumnDef[]; details: ColumnDef[] } {
  const shown = orderByPriority(columns).filter((c) => c.hidden !== true);
  const first = shown.filter((c) => columnPriority(c) === 1);
  const main = first.length > 0 ? first : shown.slice(0, 3);
  return { main, details: shown.filter((c) => !main.includes(c)) };
}

/**
 * Widths that make the priority-1 columns fit the room: when their sum is over, the text columns among them give
 * up width (never below their minimum), so their values wrap to two lines instead of the grid scrolling sideways.
 * Returns the new widths of the columns that change.
 */
export function fitWidths(cols: readonly { id: string; width: number; min: number; shrinkable: boolean }[], room: number): Map<string, number> {
  const out = new Map<string, number>();
  let over = cols.reduce((s, c) => s + c.width, 0) - room;
  if (over <= 0) return out;
  // Take from the widest text columns first, a step at a time, so the long values share the two lines evenly.
  const widths = new Map(cols.filter((c) => c.shrinkable).map((c) => [c.id, c.width]));
  const mins = new Map(cols.map((c) => [c.id, c.min]));
  while (over > 0) {
    const candidates = [...widths.entries()].filter(([id, w]) => w > (mins.get(id) ?? 0)).sort((a, b) => b[1] - a[1]);
    const widest = candidates[0];
    if (!widest) break;
    const [id, w] = widest;
    const min = mins.get(id) ?? 0;
    // Down to the next widest (then both shrink together), never below the minimum.
    const floor = Math.max(min, candidates[1]?.[1] ?? min);
    const cut = Math.min(over, w > floor ? w - floor : 1, w - min);
    widths.set(id, w - cut);
    out.set(id, w - cut);
    over -= cut;
  }
  return out;
}
