import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../plugins/errors';
import { AUTH_LIMITS, SERVER_MESSAGES, type TokenPair } from '../../shared/auth-contract';
import { bearer, checkXsrf, sessionInvalid, signedIn } from './authenticate';
import { iso, type AuthContext } from './context';
import { randomToken, tokenHash } from './secrets';
import { loadSession } from './sessions';
import { auditSignIn } from '../audit/events';

/**
 * Two refreshes of one token this close together are one client refreshing twice at once (two tabs, a retry racing
 * the first request), not a lost answer asked again: both answers stay valid.
 */
const CONCURRENT_REFRESH_MS = 5_000;

/** Refresh-token rotation (reuse revokes the session, but a lost answer may be asked again) and logout. */
export function tokenRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;

  const expiry = (t: Date): string => iso(new Date(t.getTime() + AUTH_LIMITS.refreshTokenTtlMs));

  /**
   * Marks a live refresh token used and stores its successor, in one statement: a second refresh of the same token
   * (waiting on the row's lock meanwhile) finds the successor already there. Its session, or null when the token is
   * unknown, expired or used.
   */
  const rotate = async (h: string, next: string, t: Date): Promise<string | null> =>
    (
      await db.query<{ session_id: string }>(
        `WITH used AS (UPDATE auth_refresh_tokens SET used_at = $2, replaced_by = $3
                        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING session_id)
         INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at)
         SELECT $3, session_id, $2, $4 FROM used RETURNING session_id`,
        [h, iso(t), next, expiry(t)],
      )
    ).rows[0]?.session_id ?? null;

  /**
   * An already-used token. Used moments ago (CONCURRENT_REFRESH_MS) and its successor not used yet: a second tab or a
   * retry refreshed at the same time; it gets a successor of its own and the first keeps its one, so whichever answer
   * the client keeps works.
   * Used within the grace time, with the successor its rotation gave still unused: that answer was lost (a reload or
   * a dropped connection mid-refresh), so the successor is retired and the session answered again (one statement,
   * so of two such retries only one wins). Otherwise someone holds a copy: the session ends for everyone ('reused').
   * null: an unknown token.
   */
  const answerAgain = async (h: string, next: string, t: Date): Promise<string | 'reused' | null> => {
    const concurrent = await db.query<{ session_id: string }>(
      `INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at)
       SELECT $2, o.session_id, $3, $4 FROM auth_refresh_tokens o JOIN auth_refresh_tokens s ON s.token_hash = o.replaced_by
       WHERE o.token_hash = $1 AND o.used_at >= $5 AND s.used_at IS NULL RETURNING session_id`,
      [h, next, iso(t), expiry(t), iso(new Date(t.getTime() - CONCURRENT_REFRESH_MS))],
    );
    const sibling = concurrent.rows[0]?.session_id;
    if (sibling !== undefined) return sibling;
    const again = await db.query<{ session_id: string }>(
      `WITH old AS (SELECT session_id, replaced_by FROM auth_refresh_tokens WHERE token_hash = $1 AND used_at >= $2),
            retired AS (UPDATE auth_refresh_tokens s SET used_at = $3 FROM old
                         WHERE s.token_hash = old.replaced_by AND s.used_at IS NULL RETURNING old.session_id),
            answered AS (UPDATE auth_refresh_tokens o SET replaced_by = $4 FROM retired WHERE o.token_hash = $1 RETURNING o.session_id)
       INSERT INTO auth_refresh_tokens (token_hash, session_id, created_at, expires_at)
       SELECT $4, session_id, $3, $5 FROM answered RETURNING session_id`,
      [h, iso(new Date(t.getTime() - AUTH_LIMITS.refreshReuseGraceMs)), iso(t), next, expiry(t)],
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
