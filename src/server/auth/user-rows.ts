import type { UserLevel } from '../../shared/constants';

/** A user as the sign-in queries read it (SELECT USER_COLUMNS FROM users u). */
export interface UserRow {
  user_id: string;
  password_hash: string;
  name: string;
  designation: string;
  user_level: UserLevel;
  rly_code: string | null;
  div_code: string | null;
  lobby_code: string | null;
  off_code: string | null;
  off_type: string | null;
  mobile_no: string;
  active: boolean;
}

export const USER_COLUMNS = `u.user_id, u.password_hash, u.name, u.designation, u.user_level, u.rly_code, u.div_code,
  u.lobby_code, u.off_code, u.off_type, u.mobile_no, u.active`;

/** A session joined with its user: what the session cache holds and the authenticate step checks. */
export interface SessionRow extends UserRow {
  session_id: string;
  revoked_at: string | null;
  expires_at: Date | string;
}
