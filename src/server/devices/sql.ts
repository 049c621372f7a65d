import type { UserScope } from '../reports/scope';

/** Date or ISO text from either driver -> ISO text (null stays null). */
export function isoOrNull(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

export function iso(v: unknown): string {
  return isoOrNull(v) ?? '';
}

export interface ScopeColumns {
  zone: string;
  division: string;
  lobby: string;
}

/** The row-scope predicate for columns of one table, with the code bound as $index. */
export function scopeSql(scope: UserScope, cols: ScopeColumns, index: number): { sql: string; params: unknown[] } {
  if (scope.kind === 'all') return { sql: 'TRUE', params: [] };
  return { sql: `${cols[scope.kind]} = $${index}`, params: [scope.code] };
}

/** Whether a row with these codes lies in the scope. */
export function inScope(scope: UserScope, row: { zone_code: string; div_code: string; lobby_code: string }): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'zone':
      return row.zone_code === scope.code;
    case 'division':
      return row.div_code === scope.code;
    case 'lobby':
      return row.lobby_code === scope.code;
  }
}
