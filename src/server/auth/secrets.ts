import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Keyed hash for short secrets (captcha answers, OTPs): useless without the server secret. */
export function keyedHash(secret: string, kind: string, value: string): string {
  return createHmac('sha256', secret).update(`${kind}:${value}`).digest('hex');
}

/** Hash of a long random token (refresh tokens). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** Random URL-safe id / token. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** 6-digit OTP from the cryptographic generator. */
export function generateOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
