/**
 * One order for a client-paged result, used by the grid's column comparators and by the print view, so that what is
 * printed comes out in the order on screen. Empty cells sort first (ascending); amounts and counts compare as
 * numbers; text compares naturally ('S2' before 'S10') in the en-IN collation.
 */
import { toNumber, type ColumnTypeName } from '../../../../shared/column-types';
import type { ColumnDef } from '../../../../shared/report-definition';
import type { Row } from './parse';

/** A result's sort: a column and a direction, or none. */
export interface SortState {
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
}

const NUMERIC: readonly ColumnTypeName[] = ['number', 'currency', 'percent'];
export const isNumericType = (type: ColumnTypeName | undefined): boolean => type !== undefined && NUMERIC.includes(type);

const collator = new Intl.Collator('en-IN', { numeric: true, sensitivity: 'base' });
const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '';

/** Ascending comparison of two cells of a column of the given type. */
export function compareCells(type: ColumnTypeName | undefined): (a: unknown, b: unknown) => number {
  return (a, b) => {
    if (isEmpty(a) || isEmpty(b)) return Number(!isEmpty(a)) - Number(!isEmpty(b));
    if (isNumericType(type)) {
      const x = toNumber(a);
      const y = toNumber(b);
      if (x !== null && y !== null) return x - y;
    }
    return collator.compare(String(a), String(b));
  };
}

/** The rows in the order of sort (a copy); unchanged order without a sort or for an unknown column. */
export function sortRows(rows: readonly Row[], columns: readonly ColumnDef[], sort: SortState): Row[] {
  const column = columns.find((c) => c.field === sort.sortBy);
  if (!column) return [...rows];
  const cmp = compareCells(column.type);
  const sign = sort.sortDir === 'desc' ? -1 : 1;
  // Array.prototype.sort is stable: equal cells keep the server's order, as in the grid.
  return [...rows].sort((a, b) => sign * cmp(a[column.field], b[column.field]));
}
