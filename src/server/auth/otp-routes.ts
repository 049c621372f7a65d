import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../plugins/errors';
import { dmyDateSchema } from '../plugins/schema-formats';
import {
  AUTH_LIMITS, LOGIN_GRANT_COOKIE, OTP_CODES, SERVER_MESSAGES, VERIFY_CODES, maskMobile, type OtpSendResponse, type OtpVerifyResponse,
} from '../../shared/auth-contract';
import { encryptedField, iso, type AuthContext, type UserRow } from './context';
import { grantHashOf, grantedUser } from './login-grant';
import { generateOtp } from './secrets';
import { startSession } from './sessions';
import { auditSignIn } from '../audit/events';


/** OTP step: send, resend (throttled) and verify (5 wrong tries end the OTP; success starts the session). */
export function otpRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;

  /** The user an OTP call names, if this client holds a live login grant for that user (see login-grant.ts). */
  const otpUser = async (request: FastifyRequest, encryptedUserId: string): Promise<{ user: UserRow; grantHash: string } | null> =>
    grantedUser(ctx, request, ctx.decryptUserId(encryptedUserId));

  /** New OTP for the user: hashed in the table, plain only in the test-hooks table, sent by the SMS adapter. */
  const issueOtp = async (user: UserRow, grantHash: string, resend: boolean): Promise<boolean> => {
    const otp = generateOtp();
    const t = ctx.now();
    await db.query(
      `INSERT INTO auth_otps (user_id, otp_hash, created_at, expires_at, attempts, last_sent_at, resend_count, grant_hash)
       VALUES ($1, $2, $3, $4, 0, $3, $5, $7)
       ON CONFLICT (user_id) DO UPDATE SET otp_hash = EXCLUDED.otp_hash, created_at = EXCLUDED.created_at,
         grant_hash = EXCLUDED.grant_hash,
         expires_at = EXCLUDED.expires_at, attempts = 0, last_sent_at = EXCLUDED.last_sent_at,
         resend_count = CASE WHEN $6 THEN auth_otps.resend_count + 1 ELSE 0 END`,
      [user.user_id, ctx.hash('otp', otp), iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.otpTtlMs)), resend ? 1 : 0, resend, grantHash],
    );
    await ctx.saveTestHookValue(db, 'otp', user.user_id, otp);
    try {
      await ctx.sms.send(user.mobile_no, `${otp} is your IR-HHT Portal login OTP, valid for 5 minutes. Do not share it.`, user.user_id);
      return true;
    } catch (err) {
      app.log.error({ err }, 'SMS adapter failed');
      await db.query('DELETE FROM auth_otps WHERE user_id = $1', [user.user_id]);
      return false;
    }
  };

  const otpSendSchema = {
    body: {
      type: 'object',
      required: ['userId', 'srcDate'],
      additionalProperties: false,
      properties: { userId: encryptedField, srcDate: dmyDateSchema },
    },
  } as const;

  app.post<{ Body: { userId: string; srcDate: string } }>(
    '/api/loginOtpDetails',
    { onRequest: ctx.rateLimited('otp'), schema: otpSendSchema },
    async (request): Promise<OtpSendResponse> => {
      const granted = await otpUser(request, request.body.userId);
      if (!granted) return { code: OTP_CODES.notAllowed, message: SERVER_MESSAGES.otpNoLogin };
      const { user, grantHash } = granted;
      // A live OTP stays as it is ('already exists', spec section 8) but moves to this grant: this client passed
      // the password step again (Back to Login, or a second tab). Its wrong tries so far still count.
      const live = await db.query(
        'UPDATE auth_otps SET grant_hash = $2 WHERE user_id = $1 AND expires_at > $3 AND attempts < $4 RETURNING user_id',
        [user.user_id, grantHash, iso(ctx.now()), AUTH_LIMITS.otpMaxWrongAttempts],
      );
      if (live.rows.length > 0) return { code: OTP_CODES.exists, message: SERVER_MESSAGES.otpExists };
      if (!(await issueOtp(user, grantHash, false))) return { code: OTP_CODES.notAllowed, message: 'Failed to send OTP.' };
      return { code: OTP_CODES.ok, message: SERVER_MESSAGES.otpSent(maskMobile(user.mobile_no)) };
    },
  );

  app.post<{ Body: { userId: string; srcDate: string } }>(
    '/api/ResendOtp',
    { onRequest: ctx.rateLimited('otp'), schema: otpSendSchema },
    async (request): Promise<OtpSendResponse> => {
      const granted = await otpUser(request, request.body.userId);
      if (!granted) return { code: OTP_CODES.notAllowed, message: SERVER_MESSAGES.otpNoLogin };
      const { user, grantHash } = granted;
      const userId = user.user_id;
      const prev = (
        await db.query<{ last_sent_at: Date | string; resend_count: number }>(
          'SELECT last_sent_at, resend_count FROM auth_otps WHERE user_id = $1',
          [userId],
        )
      ).rows[0];
      if (prev) {
        // The first resend may come 30 s after the first send, later ones 60 s apart (the client's timers).
        const waitMs = (prev.resend_count === 0 ? AUTH_LIMITS.resendInitialSeconds : AUTH_LIMITS.resendWaitSeconds) * 1000;
        const left = new Date(prev.last_sent_at).getTime() + waitMs - ctx.now().getTime();
        if (left > 0) return { code: OTP_CODES.wait, message: SERVER_MESSAGES.otpResendWait(Math.ceil(left / 1000)) };
      }
      if (!(await issueOtp(user, grantHash, true))) return { code: OTP_CODES.notAllowed, message: 'Failed to resend OTP.' };
      return { code: OTP_CODES.ok, message: SERVER_MESSAGES.otpResent(maskMobile(user.mobile_no)) };
    },
  );

  app.post<{ Body: { userId: string; otp: string } }>(
    '/api/VerifyOtp',
    {
      onRequest: ctx.rateLimited('otp'),
      schema: {
        body: {
          type: 'object',
          required: ['userId', 'otp'],
          additionalProperties: false,
          properties: { userId: encryptedField, otp: encryptedField },
        },
      },
    },
    async (request, reply): Promise<OtpVerifyResponse> => {
      const userId = ctx.decryptUserId(request.body.userId);
      const otp = ctx.decryptField('otp', request.body.otp);
      if (!/^\d{6}$/.test(otp)) throw new HttpError(400, 'Invalid otp: must be 6 digits', [{ field: 'otp', reason: 'must be 6 digits' }]);
      // Only the client holding the grant the OTP was issued to may try it: others cannot use up its tries.
      const grantHash = grantHashOf(request);
      if (!grantHash) return { code: VERIFY_CODES.none, message: SERVER_MESSAGES.otpNotFound };
      const t = iso(ctx.now());
      const max = AUTH_LIMITS.otpMaxWrongAttempts;
      const consumed = await db.query(
        `DELETE FROM auth_otps WHERE user_id = $1 AND grant_hash = $2 AND otp_hash = $3 AND expires_at > $4 AND attempts < $5
         RETURNING user_id`,
        [userId, grantHash, ctx.hash('otp', otp), t, max],
      );
      if (consumed.rows.length === 0) {
        // Wrong, or none/expired. Every wrong try is counted in this one statement (no read-then-write, so
        // concurrent guesses each count); from the 5th on the OTP is dead.
        const wrong = (
          await db.query<{ attempts: number }>(
            'UPDATE auth_otps SET attempts = attempts + 1 WHERE user_id = $1 AND grant_hash = $2 AND expires_at > $3 RETURNING attempts',
            [userId, grantHash, t],
          )
        ).rows[0];
        // Past the 5th the OTP no longer exists for the client (still counted, so the count stays exact).
        auditSignIn(request, 'sign_in_failed', userId, { step: 'otp', reason: wrong ? 'wrong OTP' : 'no live OTP' });
        if (!wrong || wrong.attempts > max) return { code: VERIFY_CODES.none, message: SERVER_MESSAGES.otpNotFound };
        return { code: VERIFY_CODES.wrong, message: wrong.attempts === max ? SERVER_MESSAGES.otpInvalidated : SERVER_MESSAGES.otpWrong };
      }
      const user = await ctx.findUser(userId);
      if (!user || !user.active) return { code: VERIFY_CODES.none, message: SERVER_MESSAGES.otpNotFound };
      await db.query('DELETE FROM auth_login_grants WHERE user_id = $1', [userId]);
      reply.clearCookie(LOGIN_GRANT_COOKIE, { path: '/api/' });
      const pair = await startSession(ctx, userId, (sessions) => auditSignIn(request, 'forced_logout', userId, { reason: 'signed in elsewhere', sessions }));
      auditSignIn(request, 'sign_in', userId);
      return { code: VERIFY_CODES.ok, message: SERVER_MESSAGES.otpVerified, ...pair };
    },
  );
}
