import type { FastifyInstance } from 'fastify';
import { HttpError } from '../plugins/errors';
import { SERVER_MESSAGES, type ProfileResponse, type TrainItem } from '../../shared/auth-contract';
import { USER_LEVELS, type UserLevel } from '../../shared/constants';
import { encryptJson } from '../../shared/crypto';
import type { UserProfile } from '../../shared/profile';
import { signedIn } from './authenticate';
import type { AuthContext } from './context';
import { allowedScope, isEffectiveSu, levelScope, scopeWithin, trainsInScope } from './scope';
import { isEmailAddress } from '../../shared/subscriptions';

/** The signed-in user's profile (encrypted) and train list (spec section 6 scope). */
export function profileRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db, config, options } = ctx;
  app.get('/api/userprofile', { preHandler: app.authenticate }, async (request): Promise<ProfileResponse> => {
    const u = signedIn(request);
    const profile: UserProfile = {
      name: u.name, designation: u.designation, userLevel: u.userLevel, rlyCode: u.rlyCode, lobbyCode: u.lobbyCode,
      divCode: u.divCode, offCode: u.offCode, offType: u.offType, mobileNo: u.mobileNo,
    };
    return { encryptedProfile: encryptJson(profile, config.payloadKey) };
  });

  // The e-mail address subscriptions are mailed to: the officer's own, kept apart from the spec's encrypted profile.
  app.get('/api/profile/email', { preHandler: app.authenticate }, async (request): Promise<{ email: string | null }> => {
    const r = await db.query<{ email: string | null }>('SELECT email FROM users WHERE user_id = $1', [signedIn(request).userId]);
    return { email: r.rows[0]?.email ?? null };
  });
  app.put<{ Body: { email: string | null } }>(
    '/api/profile/email',
    {
      preHandler: app.authenticate,
      schema: { body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email: { type: ['string', 'null'], maxLength: 254 } } } },
    },
    async (request): Promise<{ email: string | null }> => {
      const email = request.body.email?.trim() || null;
      if (email !== null && !isEmailAddress(email)) {
        throw new HttpError(400, 'email is not a valid e-mail address', [{ field: 'email', reason: 'is not a valid e-mail address (name@example.gov.in)' }]);
      }
      await db.query('UPDATE users SET email = $2 WHERE user_id = $1', [signedIn(request).userId, email]);
      return { email };
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
}
