import bcrypt from 'bcryptjs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db, Queryable } from '../db';
import { HttpError } from '../plugins/errors';
import {
  AUTH_LIMITS, LOGIN_CODES, OTP_CODES, SERVER_MESSAGES, VERIFY_CODES, XSRF_COOKIE, maskMobile,
  type CaptchaResponse, type LoginResponse, type OtpSendResponse, type OtpVerifyResponse, type ProfileResponse,
  type TokenExpiredBody, type TokenPair, type TrainItem,
} from '../../shared/auth-contract';
import { USER_LEVELS, type UserLevel } from '../../shared/constants';
import { decryptPayload, encryptJson } from '../../shared/crypto';
import type { UserProfile } from '../../shared/profile';
import { drawCaptcha, normaliseCaptchaAnswer } from './captcha';
import { hitRateLimit } from './rate-limit';
import { generateOtp, keyedHash, randomToken, sameHash, tokenHash } from './secrets';
import type { SessionUser } from './session-user';
import { LogSmsSender, type SmsSender } from './sms';
import { AccessTokens } from './tokens';
import { allowedScope, isEffectiveSu, levelScope, scopeWithin, trainsInScope } from './scope';
import type { AuthOptions, RateLimits } from './options';

interface UserRow {
  user_id: string;
  password_hash: string;
  name: string;
  designation: string;
  user_level: UserLevel;
  rly_code: string | null;
  div_code: string | null;
  lobby_code: string | null;
  off_code: string | null;
  off_type: string | null;
  mobile_no: string;
  active: boolean;
}

const USER_COLUMNS = `u.user_id, u.password_hash, u.name, u.designation, u.user_level, u.rly_code, u.div_code,
  u.lobby_code, u.off_code, u.off_type, u.mobile_no, u.active`;

/** A bcrypt hash nobody's password matches, so unknown users cost the same time as known ones. */
const DUMMY_HASH = bcrypt.hashSync('no-such-user-password', 10);

const encrypted = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const srcDate = { type: 'string', pattern: '^(0[1-9]|[12][0-9]|3[01])/(0[1-9]|1[0-2])/[0-9]{4}$' } as const;

function iso(d: Date): string {
  return d.toISOString();
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** Sends the 401 of a superseded/revoked session: text body, as the client expects (spec section 8). */
function sessionInvalid(reply: FastifyReply): FastifyReply {
  return reply.code(401).type('text/plain; charset=utf-8').send(SERVER_MESSAGES.sessionInvalid);
}

export interface AuthDeps {
  config: Config;
  db: Db;
  options: AuthOptions;
}

/**
 * Sign-in and session: captcha, password with lockout, OTP, tokens, XSRF, per-IP limits, profile, train
 * list, logout and (with HHT_TEST_HOOKS=1) the test hooks. Decorates app.authenticate for protected routes.
 */
export function registerAuth(app: FastifyInstance, { config, db, options }: AuthDeps): void {
  const tokens = new AccessTokens(config.jwtSecret);
  const sms: SmsSender = options.sms ?? new LogSmsSender((line) => app.log.info(line));
  const limits: RateLimits = options.rateLimits;
  // Test hooks may move the auth clock forward (expiry tests against a real server process).
  let testOffsetMs = 0;
  const now = (): Date => new Date(app.clock.now().getTime() + testOffsetMs);
  const hash = (kind: string, value: string): string => keyedHash(config.jwtSecret, kind, value);

  const decryptField = (field: string, value: string): string => {
    const plain = decryptPayload(value, config.payloadKey);
    if (plain === null) throw new HttpError(400, `Invalid ${field}: cannot be decrypted`, [{ field, reason: 'cannot be decrypted' }]);
    return plain;
  };
  const decryptUserId = (value: string): string => {
    const id = decryptField('userId', value).trim().toUpperCase();
    if (id.length < 1 || id.length > AUTH_LIMITS.credentialMaxLength || !/^[\x21-\x7E]+$/.test(id)) {
      throw new HttpError(400, 'Invalid userId: must be 1 to 25 characters', [{ field: 'userId', reason: 'must be 1 to 25 characters' }]);
    }
    return id;
  };

  const saveTestHookValue = async (q: Queryable, kind: 'captcha' | 'otp', key: string, value: string): Promise<void> => {
    if (!config.testHooks) return;
    await q.query(
      `INSERT INTO auth_test_hook_values (kind, key, value, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value, created_at = EXCLUDED.created_at`,
      [kind, key, value, iso(now())],
    );
  };

  const rateLimited = (bucket: keyof RateLimits) => async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const r = await hitRateLimit(db, bucket, request.ip, limits[bucket], now());
    if (!r.allowed) {
      await reply
        .code(429)
        .header('retry-after', String(r.retryAfter))
        .send({ error: 'Too Many Requests', message: SERVER_MESSAGES.rateLimited(r.retryAfter) });
    }
  };

  const findUser = async (userId: string): Promise<UserRow | undefined> =>
    (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.user_id = $1`, [userId])).rows[0];

  const hasLoginGrant = async (userId: string): Promise<boolean> => {
    const since = new Date(now().getTime() - AUTH_LIMITS.loginGrantTtlMs);
    const { rows } = await db.query('SELECT 1 FROM auth_login_grants WHERE user_id = $1 AND granted_at > $2', [userId, iso(since)]);
    return rows.length > 0;
  };

  /** The user an OTP call names, if that user may get one: active, with a successful password step in the last 5 minutes. */
  const otpUser = async (encryptedUserId: string): Promise<UserRow | null> => {
    const user = await findUser(decryptUserId(encryptedUserId));
    return user && user.active && (await hasLoginGrant(user.user_id)) ? user : null;
  };

  /** New OTP for the user: hashed in the table, plain only in the test-hooks table, sent by the SMS adapter. */
  const issueOtp = async (user: UserRow, resend: boolean): Promise<boolean> => {
    const otp = generateOtp();
    const t = now();
    await db.query(
      `INSERT INTO auth_otps (user_id, otp_hash, created_at, expires_at, attempts, last_sent_at, resend_count)
       VALUES ($1, $2, $3, $4, 0, $3, $5)
       ON CONFLICT (user_id) DO UPDATE SET otp_hash = EXCLUDED.otp_hash, created_at = EXCLUDED.created_at,
         expires_at = EXCLUDED.expires_at, attempts = 0, last_sent_at = EXCLUDED.last_sent_at,
         resend_count = CASE WHEN $6 THEN auth_otps.resend_count + 1 ELSE 0 END`,
      [user.user_id, hash('otp', otp), iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.otpTtlMs)), resend ? 1 : 0, resend],
    );
    await saveTestHookValue(db, 'otp', user.user_id, otp);
    try {
      await sms.send(user.mobile_no, `${otp} is your IR-HHT Portal login OTP, valid for 5 minutes. Do not share it.`);
      return true;
    } catch (err) {
      app.log.error({ err }, 'SMS adapter failed');
      await db.query('DELETE FROM auth_otps WHERE user_id = $1', [user.user_id]);
      return false;
    }
  };

  /** Creates a session (revoking the user's live ones) and its first refresh token. */
  const startSession = async (userId: string): Promise<TokenPair> => {
    const t = now();
    const sessionId = randomToken(18);
    const refreshToken = randomToken(32);
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'superseded' WHERE user_id = $1 AND revoked_at IS NULL`,
        [userId, iso(t)],
      );
      await tx.query('INSERT INTO auth_sessions (session_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        sessionId, userId, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.sessionTtlMs)),
      ]);
      await tx.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        tokenHash(refreshToken), sessionId, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs)),
      ]);
    });
    return { accessToken: await tokens.sign(userId, sessionId, t), refreshToken };
  };

  interface SessionRow extends UserRow {
    session_id: string;
    revoked_at: string | null;
    expires_at: Date | string;
  }
  type SessionState = { state: 'ok'; row: SessionRow } | { state: 'invalid' } | { state: 'expired' };
  const loadSession = async (sessionId: string): Promise<SessionState> => {
    const row = (
      await db.query<SessionRow>(
        `SELECT s.session_id, s.revoked_at, s.expires_at, ${USER_COLUMNS}
           FROM auth_sessions s JOIN users u ON u.user_id = s.user_id WHERE s.session_id = $1`,
        [sessionId],
      )
    ).rows[0];
    if (!row || row.revoked_at !== null || !row.active) return { state: 'invalid' };
    if (new Date(row.expires_at).getTime() <= now().getTime()) return { state: 'expired' };
    return { state: 'ok', row };
  };

  const checkXsrf = (request: FastifyRequest): void => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const cookie = request.cookies[XSRF_COOKIE];
    const header = request.headers['x-xsrf-token'];
    if (!cookie || typeof header !== 'string' || header !== cookie) throw new HttpError(403, SERVER_MESSAGES.xsrf);
  };

  // ---- XSRF cookie: every API response carries one if the browser has none yet ----
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    if (request.cookies[XSRF_COOKIE]) return;
    reply.setCookie(XSRF_COOKIE, randomToken(24), { path: '/', sameSite: 'strict', secure: config.production, httpOnly: false });
  });

  // ---- authenticate: the preHandler of every protected route ----
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearer(request);
    if (!token) throw new HttpError(403, SERVER_MESSAGES.noToken);
    const check = await tokens.verify(token, now());
    if (!check.ok) {
      if (check.reason === 'expired') {
        const body: TokenExpiredBody = { code: 'TOKEN_EXPIRED', message: SERVER_MESSAGES.tokenExpired };
        await reply.code(401).send(body);
        return;
      }
      throw new HttpError(403, SERVER_MESSAGES.noToken);
    }
    const s = await loadSession(check.claims.sid);
    if (s.state === 'invalid' || (s.state === 'ok' && s.row.user_id !== check.claims.sub)) {
      await sessionInvalid(reply);
      return;
    }
    if (s.state === 'expired') throw new HttpError(403, SERVER_MESSAGES.noToken);
    checkXsrf(request);
    const u = s.row;
    const user: SessionUser = {
      userId: u.user_id, sessionId: u.session_id, name: u.name, designation: u.designation, userLevel: u.user_level,
      rlyCode: u.rly_code, divCode: u.div_code, lobbyCode: u.lobby_code, offCode: u.off_code, offType: u.off_type,
      mobileNo: u.mobile_no,
    };
    request.sessionUser = user;
  });

  const signedIn = (request: FastifyRequest): SessionUser => {
    if (!request.sessionUser) throw new HttpError(403, SERVER_MESSAGES.noToken);
    return request.sessionUser;
  };

  // ---- Captcha ----
  app.get('/api/captcha', { onRequest: rateLimited('captcha') }, async (): Promise<CaptchaResponse> => {
    const t = now();
    const pic = drawCaptcha();
    const captchaId = randomToken(18);
    await db.query('INSERT INTO auth_captchas (captcha_id, answer_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      captchaId, hash('captcha', pic.answer), iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.captchaTtlMs)),
    ]);
    await saveTestHookValue(db, 'captcha', captchaId, pic.answer);
    // Housekeeping of state nobody can use any more.
    const hourAgo = iso(new Date(t.getTime() - 3_600_000));
    await db.query('DELETE FROM auth_captchas WHERE expires_at < $1', [hourAgo]);
    await db.query('DELETE FROM auth_rate_counters WHERE window_start < $1', [hourAgo]);
    await db.query(`DELETE FROM auth_test_hook_values WHERE kind = 'captcha' AND created_at < $1`, [hourAgo]);
    return { captchaId, imageDataUrl: pic.imageDataUrl };
  });

  // ---- Password step ----
  app.post<{ Body: { userId: string; pwd: string; captchaId: string; captchaAnswer: string } }>(
    '/api/loginInfo',
    {
      onRequest: rateLimited('login'),
      schema: {
        body: {
          type: 'object',
          required: ['userId', 'pwd', 'captchaId', 'captchaAnswer'],
          additionalProperties: false,
          properties: {
            userId: encrypted,
            pwd: encrypted,
            captchaId: { type: 'string', minLength: 1, maxLength: 64 },
            captchaAnswer: { type: 'string', maxLength: AUTH_LIMITS.captchaAnswerMaxLength },
          },
        },
      },
    },
    async (request): Promise<LoginResponse> => {
      const { captchaId, captchaAnswer } = request.body;
      const userId = decryptUserId(request.body.userId);
      const pwd = decryptField('pwd', request.body.pwd);
      if (pwd.length > AUTH_LIMITS.credentialMaxLength) {
        throw new HttpError(400, 'Invalid pwd: must be 1 to 25 characters', [{ field: 'pwd', reason: 'must be 1 to 25 characters' }]);
      }
      const t = now();

      // The captcha is consumed whatever the outcome: single use.
      const cap = (
        await db.query<{ answer_hash: string }>(
          `UPDATE auth_captchas SET used_at = $2 WHERE captcha_id = $1 AND used_at IS NULL AND expires_at > $2
           RETURNING answer_hash`,
          [captchaId, iso(t)],
        )
      ).rows[0];
      if (!cap || !sameHash(cap.answer_hash, hash('captcha', normaliseCaptchaAnswer(captchaAnswer)))) {
        return { code: LOGIN_CODES.captcha, message: SERVER_MESSAGES.captchaWrong, loginFlag: false };
      }

      const lock = (
        await db.query<{ locked_until: Date | string }>('SELECT locked_until FROM auth_lockouts WHERE user_id = $1 AND locked_until > $2', [userId, iso(t)])
      ).rows[0];
      if (lock) {
        const minutes = Math.ceil((new Date(lock.locked_until).getTime() - t.getTime()) / 60_000);
        return { code: LOGIN_CODES.locked, message: SERVER_MESSAGES.locked(minutes), loginFlag: false };
      }

      const user = await findUser(userId);
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

  // ---- OTP ----
  const otpSendSchema = {
    body: {
      type: 'object',
      required: ['userId', 'srcDate'],
      additionalProperties: false,
      properties: { userId: encrypted, srcDate },
    },
  } as const;

  app.post<{ Body: { userId: string; srcDate: string } }>(
    '/api/loginOtpDetails',
    { onRequest: rateLimited('otp'), schema: otpSendSchema },
    async (request): Promise<OtpSendResponse> => {
      const user = await otpUser(request.body.userId);
      if (!user) return { code: OTP_CODES.notAllowed, message: SERVER_MESSAGES.otpNoLogin };
      const userId = user.user_id;
      const live = await db.query('SELECT 1 FROM auth_otps WHERE user_id = $1 AND expires_at > $2', [userId, iso(now())]);
      if (live.rows.length > 0) return { code: OTP_CODES.exists, message: SERVER_MESSAGES.otpExists };
      if (!(await issueOtp(user, false))) return { code: OTP_CODES.notAllowed, message: 'Failed to send OTP.' };
      return { code: OTP_CODES.ok, message: SERVER_MESSAGES.otpSent(maskMobile(user.mobile_no)) };
    },
  );

  app.post<{ Body: { userId: string; srcDate: string } }>(
    '/api/ResendOtp',
    { onRequest: rateLimited('otp'), schema: otpSendSchema },
    async (request): Promise<OtpSendResponse> => {
      const user = await otpUser(request.body.userId);
      if (!user) return { code: OTP_CODES.notAllowed, message: SERVER_MESSAGES.otpNoLogin };
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
        const left = new Date(prev.last_sent_at).getTime() + waitMs - now().getTime();
        if (left > 0) return { code: OTP_CODES.wait, message: SERVER_MESSAGES.otpResendWait(Math.ceil(left / 1000)) };
      }
      if (!(await issueOtp(user, true))) return { code: OTP_CODES.notAllowed, message: 'Failed to resend OTP.' };
      return { code: OTP_CODES.ok, message: SERVER_MESSAGES.otpResent(maskMobile(user.mobile_no)) };
    },
  );

  app.post<{ Body: { userId: string; otp: string } }>(
    '/api/VerifyOtp',
    {
      onRequest: rateLimited('otp'),
      schema: {
        body: {
          type: 'object',
          required: ['userId', 'otp'],
          additionalProperties: false,
          properties: { userId: encrypted, otp: encrypted },
        },
      },
    },
    async (request): Promise<OtpVerifyResponse> => {
      const userId = decryptUserId(request.body.userId);
      const otp = decryptField('otp', request.body.otp);
      if (!/^\d{6}$/.test(otp)) throw new HttpError(400, 'Invalid otp: must be 6 digits', [{ field: 'otp', reason: 'must be 6 digits' }]);
      const t = iso(now());
      const consumed = await db.query('DELETE FROM auth_otps WHERE user_id = $1 AND otp_hash = $2 AND expires_at > $3 RETURNING user_id', [
        userId, hash('otp', otp), t,
      ]);
      if (consumed.rows.length === 0) {
        // Wrong (count it; the 5th wrong try ends the OTP) or none/expired.
        const wrong = (
          await db.query<{ attempts: number }>(
            `UPDATE auth_otps SET attempts = attempts + 1,
                    expires_at = CASE WHEN attempts + 1 >= $3 THEN $2::timestamptz ELSE expires_at END
              WHERE user_id = $1 AND expires_at > $2 RETURNING attempts`,
            [userId, t, AUTH_LIMITS.otpMaxWrongAttempts],
          )
        ).rows[0];
        if (!wrong) return { code: VERIFY_CODES.none, message: SERVER_MESSAGES.otpNotFound };
        const invalidated = wrong.attempts >= AUTH_LIMITS.otpMaxWrongAttempts;
        return { code: VERIFY_CODES.wrong, message: invalidated ? SERVER_MESSAGES.otpInvalidated : SERVER_MESSAGES.otpWrong };
      }
      const user = await findUser(userId);
      if (!user || !user.active) return { code: VERIFY_CODES.none, message: SERVER_MESSAGES.otpNotFound };
      await db.query('DELETE FROM auth_login_grants WHERE user_id = $1', [userId]);
      const pair = await startSession(userId);
      return { code: VERIFY_CODES.ok, message: SERVER_MESSAGES.otpVerified, ...pair };
    },
  );

  // ---- Session ----
  app.post('/api/refreshToken', async (request, reply): Promise<TokenPair | FastifyReply> => {
    const token = bearer(request);
    if (!token) throw new HttpError(403, SERVER_MESSAGES.noToken);
    checkXsrf(request);
    const t = now();
    const h = tokenHash(token);
    const used = (
      await db.query<{ session_id: string }>(
        'UPDATE auth_refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING session_id',
        [h, iso(t)],
      )
    ).rows[0];
    if (!used) {
      const old = (await db.query<{ session_id: string; used_at: string | null }>('SELECT session_id, used_at FROM auth_refresh_tokens WHERE token_hash = $1', [h])).rows[0];
      if (old && old.used_at !== null) {
        // A rotated-out token came back: someone holds a copy. End the session for everyone.
        await db.query(
          `UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'refresh_reuse' WHERE session_id = $1 AND revoked_at IS NULL`,
          [old.session_id, iso(t)],
        );
        request.log.warn({ sessionId: old.session_id }, 'refresh token reuse: session revoked');
        return sessionInvalid(reply);
      }
      throw new HttpError(403, SERVER_MESSAGES.noToken);
    }
    const s = await loadSession(used.session_id);
    if (s.state === 'invalid') return sessionInvalid(reply);
    if (s.state === 'expired') throw new HttpError(403, SERVER_MESSAGES.noToken);
    const refreshToken = randomToken(32);
    await db.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      tokenHash(refreshToken), used.session_id, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs)),
    ]);
    return { accessToken: await tokens.sign(s.row.user_id, used.session_id, t), refreshToken };
  });

  app.get('/api/userprofile', { preHandler: app.authenticate }, async (request): Promise<ProfileResponse> => {
    const u = signedIn(request);
    const profile: UserProfile = {
      name: u.name, designation: u.designation, userLevel: u.userLevel, rlyCode: u.rlyCode, lobbyCode: u.lobbyCode,
      divCode: u.divCode, offCode: u.offCode, offType: u.offType, mobileNo: u.mobileNo,
    };
    return { encryptedProfile: encryptJson(profile, config.payloadKey) };
  });

  app.post<{ Body: { userId: string } }>(
    '/api/logout',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object', required: ['userId'], additionalProperties: false,
          properties: { userId: { type: 'string', minLength: 1, maxLength: AUTH_LIMITS.credentialMaxLength } },
        },
      },
    },
    async (request): Promise<{ code: number; message: string }> => {
      const u = signedIn(request);
      if (request.body.userId.trim().toUpperCase() !== u.userId) throw new HttpError(403, SERVER_MESSAGES.logoutMismatch);
      await db.query(`UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'logout' WHERE session_id = $1 AND revoked_at IS NULL`, [
        u.sessionId, iso(now()),
      ]);
      return { code: 1, message: SERVER_MESSAGES.loggedOut };
    },
  );

  app.post<{ Body: { userLevel: UserLevel; code?: string | null } }>(
    '/api/TrainManningData',
    {
      preHandler: app.authenticate,
      schema: {
        body: {
          type: 'object', required: ['userLevel'], additionalProperties: false,
          properties: {
            userLevel: { type: 'string', enum: [...USER_LEVELS] },
            code: { type: ['string', 'null'], maxLength: 20 },
          },
        },
      },
    },
    async (request): Promise<TrainItem[]> => {
      const u = signedIn(request);
      const { userLevel } = request.body;
      const code = request.body.code?.trim().toUpperCase() || null;
      if (!code && userLevel !== 'SU' && userLevel !== 'RO') {
        throw new HttpError(400, `Invalid code: required for level ${userLevel}`, [{ field: 'code', reason: `required for level ${userLevel}` }]);
      }
      const allowed = allowedScope(u, options.suMobiles);
      const requested = levelScope(userLevel, code);
      if (!(await scopeWithin(db, requested, allowed))) throw new HttpError(403, SERVER_MESSAGES.scopeDenied);
      const effective = isEffectiveSu(u, options.suMobiles) ? allowed : userLevel === 'RO' ? allowed : requested;
      return (await trainsInScope(db, effective)).map((train_no) => ({ train_no }));
    },
  );

  // ---- Test hooks: only with HHT_TEST_HOOKS=1 (refused in production by the config) ----
  if (config.testHooks) {
    const hookValue = async (kind: 'captcha' | 'otp', key: string): Promise<string> => {
      const row = (await db.query<{ value: string }>('SELECT value FROM auth_test_hook_values WHERE kind = $1 AND key = $2', [kind, key])).rows[0];
      if (!row) throw new HttpError(404, `No ${kind} for ${key}`);
      return row.value;
    };
    const params = (name: string) => ({
      type: 'object', required: [name], properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } },
    });
    app.post<{ Body: { advanceMs: number } }>(
      '/api/test-hooks/clock',
      {
        schema: {
          body: {
            type: 'object', required: ['advanceMs'], additionalProperties: false,
            properties: { advanceMs: { type: 'integer', minimum: 0, maximum: 86_400_000 } },
          },
        },
      },
      async (request) => {
        testOffsetMs += request.body.advanceMs;
        return { offsetMs: testOffsetMs };
      },
    );
    app.get<{ Params: { captchaId: string } }>('/api/test-hooks/captcha/:captchaId', { schema: { params: params('captchaId') } }, async (request) => ({
      answer: await hookValue('captcha', request.params.captchaId),
    }));
    app.get<{ Params: { userId: string } }>('/api/test-hooks/otp/:userId', { schema: { params: params('userId') } }, async (request) => ({
      otp: await hookValue('otp', request.params.userId.trim().toUpperCase()),
    }));
  }
}
