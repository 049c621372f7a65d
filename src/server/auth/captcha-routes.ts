import type { FastifyInstance } from 'fastify';
import { AUTH_LIMITS, type CaptchaResponse } from '../../shared/auth-contract';
import { drawCaptcha } from './captcha';
import { iso, type AuthContext } from './context';
import { randomToken } from './secrets';

/** GET /api/captcha: a new single-use picture captcha (answer stored hashed). */
export function captchaRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { db } = ctx;
  app.get('/api/captcha', { onRequest: ctx.rateLimited('captcha') }, async (): Promise<CaptchaResponse> => {
    const t = ctx.now();
    const pic = drawCaptcha();
    const captchaId = randomToken(18);
    await db.query('INSERT INTO auth_captchas (captcha_id, answer_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      captchaId, ctx.hash('captcha', pic.answer), iso(t), iso(new Date(t.getTime() + AUTH_LIMITS.captchaTtlMs)),
    ]);
    await ctx.saveTestHookValue(db, 'captcha', captchaId, pic.answer);
    // Housekeeping of state nobody can use any more.
    const hourAgo = iso(new Date(t.getTime() - 3_600_000));
    await db.query('DELETE FROM auth_captchas WHERE expires_at < $1', [hourAgo]);
    await db.query('DELETE FROM auth_rate_counters WHERE window_start < $1', [hourAgo]);
    await db.query(`DELETE FROM auth_test_hook_values WHERE kind = 'captcha' AND created_at < $1`, [hourAgo]);
    await db.query('DELETE FROM auth_login_grants WHERE granted_at < $1', [hourAgo]);
    await db.query('DELETE FROM auth_lockouts WHERE locked_until < $1', [hourAgo]);
    await db.query('DELETE FROM auth_captcha_failures WHERE last_failed_at < $1 AND (locked_until IS NULL OR locked_until < $1)', [hourAgo]);
    return { captchaId, imageDataUrl: pic.imageDataUrl };
  });
}
