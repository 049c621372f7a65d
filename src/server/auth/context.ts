import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db, Queryable } from '../db';
import { HttpError } from '../plugins/errors';
import { isShiftable } from '../clock';
import { AUTH_LIMITS, SERVER_MESSAGES } from '../../shared/auth-contract';
import { decryptPayload } from '../../shared/crypto';
import { hitRateLimit } from './rate-limit';
import { keyedHash } from './secrets';
import { LogSmsSender, type SmsSender } from './sms';
import { AccessTokens } from './tokens';
import { SessionCache } from './session-cache';
import { USER_COLUMNS, type SessionRow, type UserRow } from './user-rows';
import type { AuthOptions, RateLimits } from './options';

export { USER_COLUMNS, type UserRow };

export const encryptedField = { type: 'string', minLength: 1, maxLength: 4096 } as const;

export function iso(d: Date): string {
  return d.toISOString();
}

export interface AuthDeps {
  config: Config;
  db: Db;
  options: AuthOptions;
  /** Key of access tokens and of the captcha/OTP hashes (resolveSigningSecret). */
  signingSecret: string;
}

/** What every auth route file shares: configuration, database, token signer, auth clock and input helpers. */
export interface AuthContext extends AuthDeps {
  tokens: AccessTokens;
  /** Valid sessions this process has read, dropped on the database's change notifications (session-cache.ts). */
  sessionCache: SessionCache<SessionRow>;
  sms: SmsSender;
  /** The server's clock (app.clock; the test hooks may move it). */
  now(): Date;
  /** Moves the server's clock forward (test hooks only) once what follows it caught up; returns the total offset. */
  advanceClock(ms: number): Promise<number>;
  /** Keyed hash of a short secret (captcha answer, OTP). */
  hash(kind: string, value: string): string;
  decryptField(field: string, value: string): string;
  decryptUserId(value: string): string;
  saveTestHookValue(q: Queryable, kind: 'captcha' | 'otp', key: string, value: string): Promise<void>;
  /** onRequest hook counting the client address in a per-minute bucket: 429 over the limit. */
  rateLimited(bucket: keyof RateLimits): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  findUser(userId: string): Promise<UserRow | undefined>;
}

export function createAuthContext(app: FastifyInstance, { config, db, options, signingSecret }: AuthDeps): AuthContext {
  const decryptField = (field: string, value: string): string => {
    const plain = decryptPayload(value, config.payloadKey);
    if (plain === null) throw new HttpError(400, `Invalid ${field}: cannot be decrypted`, [{ field, reason: 'cannot be decrypted' }]);
    return plain;
  };
  const now = (): Date => app.clock.now();
  return {
    config,
    db,
    options,
    signingSecret,
    tokens: new AccessTokens(signingSecret),
    sessionCache: new SessionCache<SessionRow>(),
    sms: options.sms ?? new LogSmsSender((line) => app.log.info(line)),
    now,
    advanceClock: async (ms) => {
      // Test hooks may move the server's clock forward (expiry tests, the live feed through a day).
      if (!isShiftable(app.clock)) throw new HttpError(404, 'Not Found');
      return app.clock.advance(ms);
    },
    hash: (kind, value) => keyedHash(signingSecret, kind, value),
    decryptField,
    decryptUserId: (value) => {
      const id = decryptField('userId', value).trim().toUpperCase();
      if (id.length < 1 || id.length > AUTH_LIMITS.credentialMaxLength || !/^[\x21-\x7E]+$/.test(id)) {
        throw new HttpError(400, 'Invalid userId: must be 1 to 25 characters', [{ field: 'userId', reason: 'must be 1 to 25 characters' }]);
      }
      return id;
    },
    saveTestHookValue: async (q, kind, key, value) => {
      if (!config.testHooks) return;
      await q.query(
        `INSERT INTO auth_test_hook_values (kind, key, value, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value, created_at = EXCLUDED.created_at`,
        [kind, key, value, iso(now())],
      );
    },
    rateLimited: (bucket) => async (request, reply) => {
      const r = await hitRateLimit(db, bucket, request.ip, options.rateLimits[bucket], now());
      if (!r.allowed) {
        await reply
          .code(429)
          .header('retry-after', String(r.retryAfter))
          .send({ error: 'Too Many Requests', message: SERVER_MESSAGES.rateLimited(r.retryAfter) });
      }
    },
    findUser: async (userId) =>
      (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.user_id = $1`, [userId])).rows[0],
  };
}
