import type { UserProfile } from '../../shared/profile';

/** The signed-in user as stored in the database: the only source of row scope (never the request). */
export interface SessionUser extends UserProfile {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate preHandler of the auth plugin. */
    sessionUser?: SessionUser;
  }
  interface FastifyInstance {
    /** preHandler for protected routes: 401/403 per spec section 8, then sets request.sessionUser. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}
