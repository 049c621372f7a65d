import type { SmsSender } from './sms';

/** Per-IP limits per one-minute window, by bucket. */
export interface RateLimits {
  captcha: number;
  login: number;
  otp: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { captcha: 60, login: 30, otp: 60 };

/** Auth settings that are configuration, not code (spec section 6: the 8 SU mobile numbers). */
export interface AuthOptions {
  /** Mobile numbers whose users are treated as SU (all trains). From HHT_SU_MOBILES (comma list). */
  suMobiles: string[];
  rateLimits: RateLimits;
  /** Where OTP messages go; defaults to the server log. */
  sms?: SmsSender;
}

export class AuthOptionsError extends Error {}

/**
 * Reads HHT_SU_MOBILES ('9876543210,9123456780', empty by default) and HHT_RATE_LIMITS
 * ('captcha=60,login=30,otp=60', any subset) from the environment.
 */
export function authOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AuthOptions {
  const suMobiles = (env.HHT_SU_MOBILES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const m of suMobiles) {
    if (!/^\d{10}$/.test(m)) throw new AuthOptionsError(`HHT_SU_MOBILES: "${m}" is not a 10-digit mobile number`);
  }
  const rateLimits: RateLimits = { ...DEFAULT_RATE_LIMITS };
  for (const part of (env.HHT_RATE_LIMITS ?? '').split(',').filter((p) => p.trim())) {
    const m = /^\s*(captcha|login|otp)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m?.[1] || !m[2]) throw new AuthOptionsError(`HHT_RATE_LIMITS: cannot read "${part}" (want bucket=number)`);
    rateLimits[m[1] as keyof RateLimits] = Number(m[2]);
  }
  return { suMobiles, rateLimits };
}
