import { describe, expect, it } from 'vitest';
import { cardColumns, fitWidths, orderByPriority, shownByDefault } from '../../src/client/features/reports/lib/priority';
import { preselectTrain } from '../../src/client/features/reports/lib/open-run';
import type { ColumnDef } from '../../src/shared/report-definition';

const col = (field: string, priority?: 1 | 2 | 3, hidden?: boolean): ColumnDef => ({ field, headerName: field.toUpperCase(), ...(priority ? { priority } : {}), ...(hidden ? { hidden } : {}) });

describe('column priority', () => {
  const columns = [col('a', 2), col('b', 1), col('c', 3), col('d'), col('e', 1), col('f', 3, true)];

  it('orders priority 1, then 2 (the default), then 3, keeping the definition order within each', () => {
    expect(orderByPriority(columns).map((c) => c.field)).toEqual(['b', 'e', 'a', 'd', 'c', 'f']);
  });

  it('shows priority 1 and 2 in the grid until the user chooses; priority 3 and hidden columns wait', () => {
    expect(columns.filter(shownByDefault).map((c) => c.field)).toEqual(['a', 'b', 'd', 'e']);
  });

  it("puts the priority-1 values on the card and every other shown column in its details", () => {
    expect(cardColumns(columns)).toEqual({ main: [col('b', 1), col('e', 1)], details: [col('a', 2), col('d'), col('c', 3)] });
    // A definition that says nothing: its first three columns.
    expect(cardColumns([col('x'), col('y'), col('z'), col('w')]).main.map((c) => c.field)).toEqual(['x', 'y', 'z']);
  });

  it('narrows the widest text columns first, never below their minimum, until the columns fit the room', () => {
    const cols = [
      { id: 'id', width: 120, min: 60, shrinkable: false },
      { id: 'name', width: 300, min: 80, shrinkable: true },
      { id: 'place', width: 200, min: 80, shrinkable: true },
      { id: 'amount', width: 100, min: 60, shrinkable: false },
    ];
    expect(fitWidths(cols, 1000).size).toBe(0); // fits already
    const fitted = fitWidths(cols, 560);
    const after = cols.map((c) => fitted.get(c.id) ?? c.width);
    expect(after.reduce((a, b) => a + b, 0)).toBe(560);
    expect(fitted.get('name')).toBe(fitted.get('place')); // both long texts share the cut
    expect(fitted.has('id') || fitted.has('amount')).toBe(false);
    // Not enough room even at the minimums: each text column at its minimum, no further.
    const tight = fitWidths(cols, 300);
    expect([tight.get('name'), tight.get('place')]).toEqual([80, 80]);
  });
});

describe('a train filled in for the user', () => {
  const ui = { trainNo: { 'ui:widget': 'train' } };
  it('fills a required train field with the last train, never an optional one', () => {
    expect(preselectTrain({}, { required: ['trainNo'] }, ui, ['12002', '12951'], '12002')).toEqual({ trainNo: '12002' });
    expect(preselectTrain({ startDate: '2026-11-27' }, { required: ['startDate'] }, ui, ['12002', '12951'], '12002')).toEqual({ startDate: '2026-11-27' });
  });
});
