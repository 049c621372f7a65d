import type { Queryable } from '../db';
import type { UserLevel } from '../../shared/constants';
import type { SessionUser } from './session-user';

/**
 * Train scope (spec section 6), decided from the stored profile only.
 * - SU, or any user whose mobile is on the configured SU list, whose office is PTS or CTCRB, or who is RO
 *   with office type ZN or HQ: all trains.
 * - ZA/ZU: trains owned by the zone (trains.zone_code = rly_code).
 * - DA/DU: trains owned by the division (trains.div_code = div_code).
 * - LA/LU: trains of the lobby's division, plus any train on which the lobby's TTEs worked a beat
 *   (a lobby mans trains of neighbouring divisions too).
 * - RO otherwise: no trains (deny by default: RO is used only in the SU override).
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'zone'; code: string }
  | { kind: 'div'; code: string }
  | { kind: 'lobby'; code: string }
  | { kind: 'none' };

export function isEffectiveSu(user: Pick<SessionUser, 'userLevel' | 'mobileNo' | 'offCode' | 'offType'>, suMobiles: readonly string[]): boolean {
  if (user.userLevel === 'SU') return true;
  if (suMobiles.includes(user.mobileNo)) return true;
  if (user.offCode === 'PTS' || user.offCode === 'CTCRB') return true;
  return user.userLevel === 'RO' && (user.offType === 'ZN' || user.offType === 'HQ');
}

export function allowedScope(user: SessionUser, suMobiles: readonly string[]): Scope {
  if (isEffectiveSu(user, suMobiles)) return { kind: 'all' };
  return levelScope(user.userLevel, codeOfLevel(user));
}

function codeOfLevel(user: SessionUser): string | null {
  switch (user.userLevel) {
    case 'ZA': case 'ZU': return user.rlyCode;
    case 'DA': case 'DU': return user.divCode;
    case 'LA': case 'LU': return user.lobbyCode;
    default: return null;
  }
}

/** The scope a level and code stand for (request or profile). RO asks for "own scope" = none unless SU. */
export function levelScope(level: UserLevel, code: string | null | undefined): Scope {
  if (level === 'SU') return { kind: 'all' };
  if (level === 'RO' || !code) return { kind: 'none' };
  if (level === 'ZA' || level === 'ZU') return { kind: 'zone', code };
  if (level === 'DA' || level === 'DU') return { kind: 'div', code };
  return { kind: 'lobby', code };
}

/** Whether `inner` lies within `outer` (hierarchy looked up in the divisions and lobbies tables). */
export async function scopeWithin(db: Queryable, inner: Scope, outer: Scope): Promise<boolean> {
  if (outer.kind === 'all') return true;
  if (inner.kind === 'none') return true;
  if (outer.kind === 'none' || inner.kind === 'all') return false;
  if (inner.kind === outer.kind) return inner.code === outer.code;
  if (inner.kind === 'div' && outer.kind === 'zone') {
    const { rows } = await db.query('SELECT 1 FROM divisions WHERE div_code = $1 AND zone_code = $2', [inner.code, outer.code]);
    return rows.length > 0;
  }
  if (inner.kind === 'lobby' && (outer.kind === 'zone' || outer.kind === 'div')) {
    const col = outer.kind === 'zone' ? 'zone_code' : 'div_code';
    const { rows } = await db.query(`SELECT 1 FROM lobbies WHERE lobby_code = $1 AND ${col} = $2`, [inner.code, outer.code]);
    return rows.length > 0;
  }
  return false;
}

export async function trainsInScope(db: Queryable, scope: Scope): Promise<string[]> {
  let sql: string;
  let params: unknown[] = [];
  switch (scope.kind) {
    case 'none':
      return [];
    case 'all':
      sql = 'SELECT train_no FROM trains ORDER BY train_no';
      break;
    case 'zone':
      sql = 'SELECT train_no FROM trains WHERE zone_code = $1 ORDER BY train_no';
      params = [scope.code];
      break;
    case 'div':
      sql = 'SELECT train_no FROM trains WHERE div_code = $1 ORDER BY train_no';
      params = [scope.code];
      break;
    case 'lobby':
      sql = `SELECT t.train_no FROM trains t
              WHERE t.div_code = (SELECT div_code FROM lobbies WHERE lobby_code = $1)
             UNION
             SELECT r.train_no FROM beats b JOIN train_runs r ON r.run_id = b.run_id WHERE b.lobby_code = $1
             ORDER BY 1`;
      params = [scope.code];
      break;
  }
  return (await db.query<{ train_no: string }>(sql, params)).rows.map((r) => r.train_no);
}
