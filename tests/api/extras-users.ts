import type { Queryable } from '../../src/server/db';
import { insertUser, type TestUser } from '../support/login';

/** Users of every level the extras tests sign in as (HHTDIV-like: DA of DLI). */
export const EXTRAS_USERS = {
  su: { userId: 'XSU', userLevel: 'SU' },
  za: { userId: 'XZA', userLevel: 'ZA', rlyCode: 'NR' },
  zu: { userId: 'XZU', userLevel: 'ZU', rlyCode: 'NR' },
  div: { userId: 'XDIV', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI' },
  du: { userId: 'XDU', userLevel: 'DU', rlyCode: 'NR', divCode: 'DLI' },
  bct: { userId: 'XBCT', userLevel: 'DA', rlyCode: 'WR', divCode: 'BCT' },
  la: { userId: 'XLA', userLevel: 'LA', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' },
  lu: { userId: 'XLU', userLevel: 'LU', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' },
} as const satisfies Record<string, TestUser>;

export async function insertExtrasUsers(db: Queryable): Promise<void> {
  let i = 0;
  for (const u of Object.values(EXTRAS_USERS)) {
    i += 1;
    await insertUser(db, { ...u, mobileNo: `90000100${String(i).padStart(2, '0')}` });
  }
}

/** Noon IST of a date: the app's 'today' is that date. */
export const istNoon = (date: string): Date => new Date(`${date}T06:30:00Z`);
