import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../plugins/errors';
import { SERVER_MESSAGES, XSRF_COOKIE, type TokenExpiredBody } from '../../shared/auth-contract';
import type { AuthContext } from './context';
import { randomToken } from './secrets';
import { loadSession } from './sessions';
import type { SessionUser } from './session-user';

export function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** Sends the 401 of a superseded/revoked session: text body, as the client expects (spec section 8). */
export function sessionInvalid(reply: FastifyReply): FastifyReply {
  return reply.code(401).type('text/plain; charset=utf-8').send(SERVER_MESSAGES.sessionInvalid);
}

/** XSRF double submit: every state-changing request under a session repeats the cookie in a header. */
export function checkXsrf(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const cookie = request.cookies[XSRF_COOKIE];
  const header = request.headers['x-xsrf-token'];
  if (!cookie || typeof header !== 'string' || header !== cookie) throw new HttpError(403, SERVER_MESSAGES.xsrf);
}

/** The signed-in user a protected route handler runs for (set by authenticate). */
export function signedIn(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new HttpError(403, SERVER_MESSAGES.noToken);
  return request.sessionUser;
}

/** XSRF cookie on every API response of a browser that has none, and app.authenticate for protected routes. */
export function registerAuthenticate(app: FastifyInstance, ctx: AuthContext): void {
  // Synchronous (done): it runs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/') && !request.cookies[XSRF_COOKIE]) {
      reply.setCookie(XSRF_COOKIE, randomToken(24), { path: '/', sameSite: 'strict', secure: ctx.config.production, httpOnly: false });
    }
    done();
  });

  const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearer(request);
    if (!token) throw new HttpError(403, SERVER_MESSAGES.noToken);
    const check = await ctx.tokens.verify(token, ctx.now());
    if (!check.ok) {
      if (check.reason === 'expired') {
        const body: TokenExpiredBody = { code: 'TOKEN_EXPIRED', message: SERVER_MESSAGES.tokenExpired };
        await reply.code(401).send(body);
        return;
      }
      throw new HttpError(403, SERVER_MESSAGES.noToken);
    }
    const s = await loadSession(ctx, check.claims.sid);
    if (s.state === 'invalid' || (s.state === 'ok' && s.row.user_id !== check.claims.sub)) {
      await sessionInvalid(reply);
      return;
    }
    if (s.state === 'expired') throw new HttpError(403, SERVER_MESSAGES.noToken);
    checkXsrf(request);
    const u = s.row;
    request.sessionUser = {
      userId: u.user_id, sessionId: u.session_id, name: u.name, designation: u.designation, userLevel: u.user_level,
      rlyCode: u.rly_code, divCode: u.div_code, lobbyCode: u.lobby_code, offCode: u.off_code, offType: u.off_type,
      mobileNo: u.mobile_no,
    };
  };
  app.decorate('authenticate', authenticate);

  // Protected routes name app.authenticate as a preValidation or preHandler hook; it is moved to onRequest here,
  // so the token is checked before the body is parsed or validated: a stranger gets 403, never a 400 that
  // tells what the route accepts. Done once for every route, including those other modules add later.
  app.addHook('onRoute', (route) => {
    for (const stage of ['preValidation', 'preHandler'] as const) {
      const hooks = route[stage];
      const list = Array.isArray(hooks) ? hooks : hooks ? [hooks] : [];
      if (!list.includes(authenticate)) continue;
      route[stage] = list.filter((h) => h !== authenticate);
      const onRequest = route.onRequest;
      route.onRequest = [...(Array.isArray(onRequest) ? onRequest : onRequest ? [onRequest] : []), authenticate];
    }
  });
}
