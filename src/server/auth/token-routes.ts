import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../plugins/errors';
import { AUTH_LIMITS, SERVER_MESSAGES, type TokenPair } from '../../shared/auth-contract';
import { bearer, checkXsrf, sessionInvalid, signedIn } from './authenticate';
import { iso, type AuthContext } from './context';
import { randomToken, tokenHash } from './secrets';
import { loadSession } from './sessions';
import { auditSignIn } from '../audit/events';

/** Refresh-token rotation (reuse revokes the session, but a lost answer may be asked again) and logout. */
export function tokenRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;

  /** Marks a live refresh token used, naming its successor; its session, or null when unknown, expired or used. */
  const rotate = async (h: string, next: string, t: Date): Promise<string | null> =>
    (
      await db.query<{ session_id: string }>(
        `UPDATE auth_refresh_tokens SET used_at = $2, replaced_by = $3
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING session_id`,
        [h, iso(t), next],
      )
    ).rows[0]?.session_id ?? null;

  /**
   * An already-used token. Used within the grace time, with the successor its rotation gave still unused, that
   * answer was lost (a reload or a dropped connection mid-refresh): the successor is retired and the session answered
   * again (one statement, so of two such retries only one wins). Otherwise someone holds a copy: the session ends for
   * everyone ('reused'). null: an unknown token.
   */
  const answerAgain = async (h: string, next: string, t: Date): Promise<string | 'reused' | null> => {
    const again = await db.query<{ session_id: string }>(
      `WITH old AS (SELECT session_id, replaced_by FROM auth_refresh_tokens WHERE token_hash = $1 AND used_at >= $2),
            retired AS (UPDATE auth_refresh_tokens s SET used_at = $3 FROM old
                         WHERE s.token_hash = old.replaced_by AND s.used_at IS NULL RETURNING old.session_id)
       UPDATE auth_refresh_tokens o SET replaced_by = $4 FROM retired WHERE o.token_hash = $1 RETURNING o.session_id`,
      [h, iso(new Date(t.getTime() - AUTH_LIMITS.refreshReuseGraceMs)), iso(t), next],
    );
    const answered = again.rows[0]?.session_id;
    if (answered !== undefined) return answered;
    const old = (await db.query<{ session_id: string; used_at: Date | null }>('SELECT session_id, used_at FROM auth_refresh_tokens WHERE token_hash = $1', [h])).rows[0];
    if (!old || old.used_at === null) return null;
    await db.query(`UPDATE auth_sessions SET revoked_at = $2, revoke_reason = 'refresh_reuse' WHERE session_id = $1 AND revoked_at IS NULL`, [
      old.session_id, iso(t),
    ]);
    ctx.sessionCache.forget(old.session_id);
    await ctx.sessionCache.fence(db);
    return 'reused';
  };

  app.post('/api/refreshToken', async (request, reply): Promise<TokenPair | FastifyReply> => {
    const token = bearer(request);
    if (!token) throw new HttpError(403, SERVER_MESSAGES.noToken);
    checkXsrf(request);
    const t = ctx.now();
    const h = tokenHash(token);
    const refreshToken = randomToken(32);
    const next = tokenHash(refreshToken);
    const sessionId = (await rotate(h, next, t)) ?? (await answerAgain(h, next, t));
    if (sessionId === 'reused') {
      const owner = await db.query<{ user_id: string }>(
        'SELECT s.user_id FROM auth_refresh_tokens r JOIN auth_sessions s ON s.session_id = r.session_id WHERE r.token_hash = $1', [h],
      );
      auditSignIn(request, 'forced_logout', owner.rows[0]?.user_id ?? '', { reason: 'refresh token reused' });
      return sessionInvalid(reply);
    }
    if (sessionId === null) throw new HttpError(403, SERVER_MESSAGES.noToken);
    const s = await loadSession(ctx, sessionId, true);
    if (s.state === 'invalid') return sessionInvalid(reply);
    if (s.state === 'expired') throw new HttpError(403, SERVER_MESSAGES.noToken);
    await db.query('INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      next, sessionId, iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs)),
    ]);
    return { accessToken: await ctx.tokens.sign(s.row.user_id, sessionId, t), refreshToken };
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
        u.sessionId, iso(ctx.now()),
      ]);
      // Ends here at once, and the other processes have been told (database notification) before the user is answered.
      ctx.sessionCache.forget(u.sessionId);
      await ctx.sessionCache.fence(db);
      auditSignIn(request, 'sign_out', u.userId);
      return { code: 1, message: SERVER_MESSAGES.loggedOut };
    },
  );
}
