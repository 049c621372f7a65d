import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../plugins/errors';
import { AUTH_LIMITS, LOGIN_CODES, SERVER_MESSAGES, type LoginResponse } from '../../shared/auth-contract';
import { normaliseCaptchaAnswer } from './captcha';
import { encryptedField, iso, type AuthContext } from './context';
import { sameHash } from './secrets';

/** A bcrypt hash nobody's password matches, so unknown users cost the same time as known ones. */
const DUMMY_HASH = bcrypt.hashSync('no-such-user-password', 10);

/** POST /api/loginInfo: captcha, then password with lockout; success opens the OTP step (login grant). */
export function loginRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;
  app.post<{ Body: { userId: string; pwd: string; captchaId: string; captchaAnswer: string } }>(
    '/api/loginInfo',
    {
      onRequest: ctx.rateLimited('login'),
      schema: {
        body: {
          type: 'object',
          required: ['userId', 'pwd', 'captchaId', 'captchaAnswer'],
          additionalProperties: false,
          properties: {
            userId: encryptedField,
            pwd: encryptedField,
            captchaId: { type: 'string', minLength: 1, maxLength: 64 },
            captchaAnswer: { type: 'string', maxLength: AUTH_LIMITS.captchaAnswerMaxLength },
          },
        },
      },
    },
    async (request): Promise<LoginResponse> => {
      const { captchaId, captchaAnswer } = request.body;
      const userId = ctx.decryptUserId(request.body.userId);
      const pwd = ctx.decryptField('pwd', request.body.pwd);
      if (pwd.length > AUTH_LIMITS.credentialMaxLength) {
        throw new HttpError(400, 'Invalid pwd: must be 1 to 25 characters', [{ field: 'pwd', reason: 'must be 1 to 25 characters' }]);
      }
      const t = ctx.now();

      // The captcha is consumed whatever the outcome: single use.
      const cap = (
        await db.query<{ answer_hash: string }>(
          `UPDATE auth_captchas SET used_at = $2 WHERE captcha_id = $1 AND used_at IS NULL AND expires_at > $2
           RETURNING answer_hash`,
          [captchaId, iso(t)],
        )
      ).rows[0];
      if (!cap || !sameHash(cap.answer_hash, ctx.hash('captcha', normaliseCaptchaAnswer(captchaAnswer)))) {
        return { code: LOGIN_CODES.captcha, message: SERVER_MESSAGES.captchaWrong, loginFlag: false };
      }

      const lock = (
        await db.query<{ locked_until: Date | string }>('SELECT locked_until FROM auth_lockouts WHERE user_id = $1 AND locked_until > $2', [userId, iso(t)])
      ).rows[0];
      if (lock) {
        const minutes = Math.ceil((new Date(lock.locked_until).getTime() - t.getTime()) / 60_000);
        return { code: LOGIN_CODES.locked, message: SERVER_MESSAGES.locked(minutes), loginFlag: false };
      }

      const user = await ctx.findUser(userId);
      const passwordOk = await bcrypt.compare(pwd, user?.password_hash ?? DUMMY_HASH);
      if (!user || !passwordOk) {
        const windowStart = iso(new Date(t.getTime() - AUTH_LIMITS.lockoutWindowMs));
        const failures = await db.transaction(async (tx) => {
          await tx.query('INSERT INTO auth_login_failures (user_id, failed_at, ip) VALUES ($1, $2, $3)', [userId, iso(t), request.ip]);
          const n = Number(
            (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_login_failures WHERE user_id = $1 AND failed_at > $2', [userId, windowStart]))
              .rows[0]?.n ?? 0,
          );
          if (n >= AUTH_LIMITS.lockoutFailures) {
            await tx.query(
              `INSERT INTO auth_lockouts (user_id, locked_until) VALUES ($1, $2)
               ON CONFLICT (user_id) DO UPDATE SET locked_until = EXCLUDED.locked_until`,
              [userId, iso(new Date(t.getTime() + AUTH_LIMITS.lockoutMs))],
            );
            await tx.query('DELETE FROM auth_login_failures WHERE user_id = $1', [userId]);
          }
          return n;
        });
        if (failures >= AUTH_LIMITS.lockoutFailures) {
          request.log.warn({ userId, ip: request.ip }, 'account locked after repeated wrong passwords');
          return { code: LOGIN_CODES.locked, message: SERVER_MESSAGES.locked(AUTH_LIMITS.lockoutMs / 60_000), loginFlag: false };
        }
        return { code: LOGIN_CODES.badCredentials, message: SERVER_MESSAGES.badCredentials, loginFlag: false };
      }
      if (!user.active) return { code: LOGIN_CODES.inactive, message: SERVER_MESSAGES.inactive, loginFlag: false };

      await db.query('DELETE FROM auth_login_failures WHERE user_id = $1', [userId]);
      await db.query(
        `INSERT INTO auth_login_grants (user_id, granted_at, ip) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET granted_at = EXCLUDED.granted_at, ip = EXCLUDED.ip`,
        [userId, iso(t), request.ip],
      );
      return { code: LOGIN_CODES.ok, message: SERVER_MESSAGES.loginOk, loginFlag: true };
    },
  );
}
