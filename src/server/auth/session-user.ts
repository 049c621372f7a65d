import type { UserLevel } from '../../shared/constants';

/** The signed-in user as stored in the database: the only source of row scope (never the request). */
export interface SessionUser {
  userId: string;
  sessionId: string;
  name: string;
  designation: string;
  userLevel: UserLevel;
  rlyCode: string | null;
  divCode: string | null;
  lobbyCode: string | null;
  offCode: string | null;
  offType: string | null;
  mobileNo: string;
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
