import { SignJWT, errors, jwtVerify } from 'jose';
import { AUTH_LIMITS } from '../../shared/auth-contract';

const ISSUER = 'ir-hht-portal';

export interface AccessClaims {
  sub: string;
  sid: string;
}

export type AccessCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

export class AccessTokens {
  private readonly key: Uint8Array;
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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: now,
        clockTolerance: 0,
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return { ok: false, reason: 'invalid' };
      return { ok: true, claims: { sub: payload.sub, sid: payload.sid } };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
