import type { UserLevel } from './constants';
import { USER_LEVELS } from './constants';

/** Decrypted profile (spec section 3): what /api/userprofile returns inside encryptedProfile. */
export interface UserProfile {
  name: string;
  designation: string;
  userLevel: UserLevel;
  rlyCode: string | null;
  lobbyCode: string | null;
  divCode: string | null;
  offCode: string | null;
  offType: string | null;
  mobileNo: string;
}

const nullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** Boundary check for a decrypted profile (storage, network): returns null when the shape is wrong. */
export function parseProfile(value: unknown): UserProfile | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || typeof v.designation !== 'string' || typeof v.mobileNo !== 'string') return null;
  if (typeof v.userLevel !== 'string' || !(USER_LEVELS as readonly string[]).includes(v.userLevel)) return null;
  for (const k of ['rlyCode', 'lobbyCode', 'divCode', 'offCode', 'offType'] as const) {
    if (!nullableString(v[k])) return null;
  }
  return {
    name: v.name,
    designation: v.designation,
    userLevel: v.userLevel as UserLevel,
    rlyCode: v.rlyCode as string | null,
    lobbyCode: v.lobbyCode as string | null,
    divCode: v.divCode as string | null,
    offCode: v.offCode as string | null,
    offType: v.offType as string | null,
    mobileNo: v.mobileNo,
  };
}
