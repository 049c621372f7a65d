import type { FastifyInstance } from 'fastify';
import { HttpError } from '../plugins/errors';
import type { AuthContext } from './context';

/** Test hooks (only registered with HHT_TEST_HOOKS=1, which the config refuses in production). */
export function testHookRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const hookValue = async (kind: 'captcha' | 'otp', key: string): Promise<string> => {
    const row = (await ctx.db.query<{ value: string }>('SELECT value FROM auth_test_hook_values WHERE kind = $1 AND key = $2', [kind, key])).rows[0];
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
    async (request) => ({ offsetMs: await ctx.advanceClock(request.body.advanceMs), now: ctx.now().toISOString() }),
  );
  app.get<{ Params: { captchaId: string } }>('/api/test-hooks/captcha/:captchaId', { schema: { params: params('captchaId') } }, async (request) => ({
    answer: await hookValue('captcha', request.params.captchaId),
  }));
  app.get<{ Params: { userId: string } }>('/api/test-hooks/otp/:userId', { schema: { params: params('userId') } }, async (request) => ({
    otp: await hookValue('otp', request.params.userId.trim().toUpperCase()),
  }));
}
