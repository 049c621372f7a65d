import type { SessionUser } from '../auth/session-user';
import { isEffectiveSu } from '../auth/scope';
import type { SourceDef } from '../../shared/report-definition';

export type UserScope =
  | { kind: 'all' }
  | { kind: 'zone'; code: string }
  | { kind: 'division'; code: string }
  | { kind: 'lobby'; code: string };

/**
 * The rows a user may see, from the stored profile only (spec section 6): SU, the configured SU mobiles,
 * offices PTS/CTCRB and RO of a ZN/HQ office see all; zone, division and lobby levels their own code.
 * Returns null when the profile gives no scope (deny).
 */
export function userScope(user: SessionUser, suMobiles: readonly string[]): UserScope | null {
  if (isEffectiveSu(user, suMobiles)) return { kind: 'all' };
  if ((user.userLevel === 'ZA' || user.userLevel === 'ZU') && user.rlyCode) return { kind: 'zone', code: user.rlyCode };
  if ((user.userLevel === 'DA' || user.userLevel === 'DU') && user.divCode) return { kind: 'division', code: user.divCode };
  if ((user.userLevel === 'LA' || user.userLevel === 'LU') && user.lobbyCode) return { kind: 'lobby', code: user.lobbyCode };
  return null;
}

/**
 * The SQL predicate for a report's scope rule, with its value as a bound parameter ($index).
 * Null when the report has no rule for the user's level: deny by default.
 */
export function scopePredicate(
  scope: UserScope,
  rule: SourceDef['scope'],
  paramIndex: number,
): { sql: string; params: unknown[] } | null {
  if (scope.kind === 'all') return { sql: 'TRUE', params: [] };
  const column = rule[scope.kind];
  if (!column) return null;
  return { sql: `(${column} = $${paramIndex})`, params: [scope.code] };
}
