import { describe, expect, it } from 'vitest';
import { compareCells, sortRows } from '../../src/client/features/reports/lib/sort-rows';
import type { ColumnDef } from '../../src/shared/report-definition';

const columns: ColumnDef[] = [
  { field: 'coach', headerName: 'Coach' },
  { field: 'fare', headerName: 'Fare', type: 'currency' },
];
const rows = [
  { coach: 'S10', fare: 1200 },
  { coach: 'S2', fare: null },
  { coach: 'B1', fare: 85.5 },
  { coach: null, fare: '300' },
];

describe('the order of a client-paged result (grid and print)', () => {
  it('compares amounts as numbers and text naturally, empty cells first', () => {
    expect(sortRows(rows, columns, { sortBy: 'fare', sortDir: 'asc' }).map((r) => r.fare)).toEqual([null, 85.5, '300', 1200]);
    expect(sortRows(rows, columns, { sortBy: 'coach', sortDir: 'asc' }).map((r) => r.coach)).toEqual([null, 'B1', 'S2', 'S10']);
    expect(sortRows(rows, columns, { sortBy: 'coach', sortDir: 'desc' }).map((r) => r.coach)).toEqual(['S10', 'S2', 'B1', null]);
  });

  it('keeps the order without a sort or for an unknown column, and never changes its input', () => {
    expect(sortRows(rows, columns, {})).toEqual(rows);
    expect(sortRows(rows, columns, { sortBy: 'nope', sortDir: 'asc' })).toEqual(rows);
    const copy = [...rows];
    sortRows(rows, columns, { sortBy: 'fare', sortDir: 'desc' });
    expect(rows).toEqual(copy);
  });

  it('is stable: equal cells keep the order they came in', () => {
    const same = [{ coach: 'A1', n: 1 }, { coach: 'a1', n: 2 }, { coach: 'A1', n: 3 }];
    expect(sortRows(same, columns, { sortBy: 'coach', sortDir: 'asc' }).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(compareCells('number')('', 0)).toBeLessThan(0);
  });
});
