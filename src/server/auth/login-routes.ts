import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../plugins/errors';
import { AUTH_LIMITS, LOGIN_CODES, LOGIN_MESSAGES, SERVER_MESSAGES, type LoginResponse } from '../../shared/auth-contract';
import { normaliseCaptchaAnswer } from './captcha';
import { encryptedField, iso, type AuthContext } from './context';
import { issueLoginGrant } from './login-grant';
import { captchaLockedFor, countCaptchaFailure, countPasswordFailure } from './lockout';
import { sameHash } from './secrets';
import { auditSignIn } from '../audit/events';

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
    async (request, reply): Promise<LoginResponse> => {
      const { captchaId, captchaAnswer } = request.body;
      const userId = ctx.decryptUserId(request.body.userId);
      const pwd = ctx.decryptField('pwd', request.body.pwd);
      if (pwd.length > AUTH_LIMITS.credentialMaxLength) {
        throw new HttpError(400, 'Invalid pwd: must be 1 to 25 characters', [{ field: 'pwd', reason: 'must be 1 to 25 characters' }]);
      }
      const t = ctx.now();
      const ip = request.ip;

      // The captcha lock of this address (5 wrong answers -> 30 s), enforced here as in the browser.
      const captchaLock = await captchaLockedFor(ctx, ip, t);
      if (captchaLock > 0) return { code: LOGIN_CODES.captcha, message: LOGIN_MESSAGES.locked(captchaLock), loginFlag: false };

      // The captcha is consumed whatever the outcome: single use.
      const cap = (
        await db.query<{ answer_hash: string }>(
          `UPDATE auth_captchas SET used_at = $2 WHERE captcha_id = $1 AND used_at IS NULL AND expires_at > $2
           RETURNING answer_hash`,
          [captchaId, iso(t)],
        )
      ).rows[0];
      if (!cap || !sameHash(cap.answer_hash, ctx.hash('captcha', normaliseCaptchaAnswer(captchaAnswer)))) {
        const lockedNow = await countCaptchaFailure(ctx, ip, t);
        auditSignIn(request, lockedNow ? 'lockout' : 'sign_in_failed', userId, { step: 'captcha', reason: 'wrong captcha' });
        const message = lockedNow ? LOGIN_MESSAGES.locked(AUTH_LIMITS.captchaLockSeconds) : SERVER_MESSAGES.captchaWrong;
        return { code: LOGIN_CODES.captcha, message, loginFlag: false };
      }

      // Lockout is per account AND address: a stranger's wrong passwords lock only the stranger's address.
      const lock = (
        await db.query<{ locked_until: Date | string }>(
          'SELECT locked_until FROM auth_lockouts WHERE user_id = $1 AND ip = $2 AND locked_until > $3',
          [userId, ip, iso(t)],
        )
      ).rows[0];
      if (lock) {
        const minutes = Math.ceil((new Date(lock.locked_until).getTime() - t.getTime()) / 60_000);
        auditSignIn(request, 'sign_in_failed', userId, { step: 'password', reason: 'locked' });
        return { code: LOGIN_CODES.locked, message: SERVER_MESSAGES.locked(minutes), loginFlag: false };
      }

      const user = await ctx.findUser(userId);
      const passwordOk = await bcrypt.compare(pwd, user?.password_hash ?? DUMMY_HASH);
      if (!user || !passwordOk) {
        const lockedNow = await countPasswordFailure(ctx, userId, ip, t);
        auditSignIn(request, lockedNow ? 'lockout' : 'sign_in_failed', userId, { step: 'password', reason: user ? 'wrong password' : 'unknown user' });
        if (lockedNow) {
          request.log.warn({ userId, ip }, 'account locked for this address after repeated wrong passwords');
          return { code: LOGIN_CODES.locked, message: SERVER_MESSAGES.locked(AUTH_LIMITS.lockoutMs / 60_000), loginFlag: false };
        }
        return { code: LOGIN_CODES.badCredentials, message: SERVER_MESSAGES.badCredentials, loginFlag: false };
      }
      if (!user.active) {
        auditSignIn(request, 'sign_in_failed', userId, { step: 'password', reason: 'inactive' });
        return { code: LOGIN_CODES.inactive, message: SERVER_MESSAGES.inactive, loginFlag: false };
      }

      await db.query('DELETE FROM auth_login_failures WHERE user_id = $1 AND ip = $2', [userId, ip]);
      await db.query('DELETE FROM auth_captcha_failures WHERE ip = $1', [ip]); // a successful login resets the counter
      await issueLoginGrant(ctx, reply, userId, ip, t);
      return { code: LOGIN_CODES.ok, message: SERVER_MESSAGES.loginOk, loginFlag: true };
    },
  );
}
