/** Definition columns -> AG Grid column definitions, formatting through the shared column-type registry. */
import type { ColDef, ValueFormatterParams } from 'ag-grid-community';
import { columnText, type ColumnTypeName } from '../../../../shared/column-types';
import type { ColumnDef } from '../../../../shared/report-definition';
import type { Row } from '../lib/parse';
import { shownByDefault } from '../lib/priority';
import { compareCells, isNumericType } from '../lib/sort-rows';
import { LinkCell, StatusCell, type LinkCellParams } from './cells';

/** Renderer per column type; types not listed show the formatted text. */
const RENDERERS: Partial<Record<ColumnTypeName, ColDef<Row>['cellRenderer']>> = { status: StatusCell };

/** Room for the longest word of a header (about 0.6 em a character at the grid's font) plus padding and sort icon. */
export function headerMinWidth(header: string): number {
  const longest = Math.max(0, ...header.split(/\s+/).map((w) => w.length));
  return Math.max(60, Math.round(longest * 9 + 40));
}

/** Whether a column's values may wrap to two lines (plain text; not numbers, links or status chips). */
export const wrapsText = (c: ColumnDef): boolean => !isNumericType(c.type) && !c.link && !(c.type && RENDERERS[c.type]);

/** Widest a wrapping column is made when fitted to its values: longer values take a second line. */
export const WRAP_MAX_WIDTH = 220;

export function toColDefs(columns: readonly ColumnDef[], opts: { serverSort: boolean }): ColDef<Row>[] {
  return columns.map((c): ColDef<Row> => {
    const numeric = isNumericType(c.type);
    const def: ColDef<Row> = {
      colId: c.field,
      field: c.field,
      headerName: c.headerName,
      headerTooltip: c.headerName,
      sortable: c.sortable !== false,
      // Priority 3 waits for Columns, as hidden columns do.
      hide: !shownByDefault(c),
      valueFormatter: (p: ValueFormatterParams<Row>) => columnText(c, p.value),
      getQuickFilterText: (p) => columnText(c, p.value),
      // A cell cut short (a column the user narrowed) shows its whole (formatted) value on hover.
      tooltip: true,
      // Headers wrap between words; the column is never narrower than its longest header word.
      minWidth: headerMinWidth(c.headerName),
    };
    if (c.width) def.width = c.width;
    if (c.pinned) def.pinned = c.pinned;
    if (numeric) {
      def.type = 'rightAligned';
      def.cellClass = 'report-cell-numeric';
    }
    // Server paging: the server sorts; equal comparisons keep the server's order in the grid. Client paging: the
    // same order as the print view.
    def.comparator = opts.serverSort ? () => 0 : compareCells(c.type);
    if (c.link) {
      def.cellRenderer = LinkCell;
      def.cellRendererParams = { link: c.link } satisfies LinkCellParams;
    } else if (c.type && RENDERERS[c.type]) {
      def.cellRenderer = RENDERERS[c.type];
    } else if (wrapsText(c)) {
      // Long text wraps and stops at two lines (the whole value in the tooltip), so a column need not be as wide as
      // its longest value: the priority-1 columns fit the office screen (fitPriorityColumns in ResultGrid).
      def.wrapText = true;
      def.autoHeight = true;
      def.cellClass = 'report-cell-clamp';
    }
    return def;
  });
}
