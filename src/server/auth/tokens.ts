import { SignJWT, errors, jwtVerify } from 'jose';
import { AUTH_LIMITS } from '../../shared/auth-contract';

const ISSUER = 'ir-hht-portal';

export interface AccessClaims {
  sub: string;
  sid: string;
}

export type AccessCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** Verified tokens held per process; at ~2,500 requests/s a token lives 15 minutes, so users, not requests, fill it. */
const VERIFIED_MAX = 10_000;

export class AccessTokens {
  private readonly key: Uint8Array;
  /**
   * Tokens whose signature this process has checked, with their claims and expiry. A token is an unforgeable string,
   * so its signature need not be checked again (HMAC through WebCrypto, with a key import, each time); its expiry
   * is checked on every use, as jose does. Invalid tokens are never held.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** HS256 JWT: sub = user id, sid = session id, 15 minutes from now. */
  sign(userId: string, sessionId: string, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + AUTH_LIMITS.accessTokenTtlSeconds)
      .sign(this.key);
  }

  async verify(token: string, now: Date): Promise<AccessCheck> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule with clockTolerance 0: expired when exp <= now (seconds).
      if (known.exp <= Math.floor(now.getTime() / 1000)) return { ok: false, reason: 'expired' };
      return { ok: true, claims: known.claims };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: now,
        clockTolerance: 0,
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return { ok: false, reason: 'invalid' };
      const claims = { sub: payload.sub, sid: payload.sid };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_MAX) this.verified.clear(); // rare: simpler than LRU, and only costs re-checks
        this.verified.set(token, { claims, exp: payload.exp });
      }
      return { ok: true, claims };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
