import type { FastifyInstance } from 'fastify';
import { registerAuthenticate } from './authenticate';
import { captchaRoutes } from './captcha-routes';
import { createAuthContext, type AuthDeps } from './context';
import { loginRoutes } from './login-routes';
import { otpRoutes } from './otp-routes';
import { profileRoutes } from './profile-routes';
import { testHookRoutes } from './test-hooks';
import { tokenRoutes } from './token-routes';

export type { AuthDeps } from './context';

/**
 * Sign-in and session, one file per concern: XSRF cookie and app.authenticate, captcha, password step, OTP step,
 * token refresh and logout, profile and train list, and (with HHT_TEST_HOOKS=1) the test hooks.
 */
export async function registerAuth(app: FastifyInstance, deps: AuthDeps): Promise<void> {
  const ctx = createAuthContext(app, deps);
  await ctx.sessionCache.start(deps.db);
  app.addHook('onClose', async () => ctx.sessionCache.stop());
  registerAuthenticate(app, ctx);
  captchaRoutes(app, ctx);
  loginRoutes(app, ctx);
  otpRoutes(app, ctx);
  tokenRoutes(app, ctx);
  profileRoutes(app, ctx);
  if (deps.config.testHooks) testHookRoutes(app, ctx);
}
