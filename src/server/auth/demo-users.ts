import bcrypt from 'bcryptjs';
import type { Queryable } from '../db';
import type { UserProfile } from '../../shared/profile';

/** A demo account: the stored profile plus its sign-in id and password. */
export interface DemoUser extends UserProfile {
  userId: string;
  password: string;
}

/** Password of every demo user (upper case: the login form forces passwords to upper case). */
export const DEMO_PASSWORD = 'HHT@DEMO1';

/** One demo user per kind of officer. The SU list of spec section 6 is configuration (HHT_SU_MOBILES), not these. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    userId: 'HHTSU', password: DEMO_PASSWORD, name: 'Rajesh Kumar Verma', designation: 'Executive Director (Passenger Marketing)',
    userLevel: 'SU', rlyCode: null, divCode: null, lobbyCode: null, offCode: 'RB', offType: 'HQ', mobileNo: '9810012345',
  },
  {
    userId: 'HHTZONE', password: DEMO_PASSWORD, name: 'Sunita Malhotra', designation: 'Chief Commercial Manager',
    userLevel: 'ZA', rlyCode: 'NR', divCode: null, lobbyCode: null, offCode: null, offType: null, mobileNo: '9811123456',
  },
  {
    userId: 'HHTDIV', password: DEMO_PASSWORD, name: 'Amit Saxena', designation: 'Senior Divisional Commercial Manager',
    userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: null, offCode: null, offType: null, mobileNo: '9812234567',
  },
  {
    userId: 'HHTLOBBY', password: DEMO_PASSWORD, name: 'Pradeep Singh Rawat', designation: 'Chief Ticket Inspector (Lobby In-charge)',
    userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS', offCode: null, offType: null, mobileNo: '9813345678',
  },
  {
    userId: 'HHTRO', password: DEMO_PASSWORD, name: 'Kavita Joshi', designation: 'Deputy Chief Commercial Manager (Claims)',
    userLevel: 'RO', rlyCode: 'NR', divCode: null, lobbyCode: null, offCode: 'NRHQ', offType: 'HQ', mobileNo: '9814456789',
  },
];

/** Inserts the demo users that are missing (idempotent; bcrypt hashes, cost 10). Returns how many were added. */
export async function insertDemoUsers(db: Queryable): Promise<number> {
  const existing = new Set(
    (await db.query<{ user_id: string }>('SELECT user_id FROM users WHERE user_id = ANY($1::text[])', [DEMO_USERS.map((u) => u.userId)]))
      .rows.map((r) => r.user_id),
  );
  let added = 0;
  for (const u of DEMO_USERS) {
    if (existing.has(u.userId)) continue;
    const hash = await bcrypt.hash(u.password, 10);
    const { rows } = await db.query(
      `INSERT INTO users (user_id, password_hash, name, designation, user_level, rly_code, div_code, lobby_code,
                          off_code, off_type, mobile_no, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true)
       ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
      [u.userId, hash, u.name, u.designation, u.userLevel, u.rlyCode, u.divCode, u.lobbyCode, u.offCode, u.offType, u.mobileNo],
    );
    added += rows.length;
  }
  return added;
}
