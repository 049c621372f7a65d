import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, TEST_DRIVERS, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { FEEDBACK_LIMITS, validateFeedback } from '../../src/shared/feedback';

describe.each(TEST_DRIVERS)('feedback on %s', (driver) => {
  let t: TestDb;
  let app: FastifyInstance;
  let user: SignedIn;

  beforeAll(async () => {
    t = await createTestDb(driver);
    app = await buildTestApp(t.db);
    await insertUser(t.db, { userId: 'XFEED', userLevel: 'DU', rlyCode: 'NR', divCode: 'DLI' });
    user = await loginAs(app, 'XFEED');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const send = (payload: unknown, s: SignedIn | null = user) =>
    app.inject({ method: 'POST', url: '/api/dashboard-feedback', headers: s?.headers() ?? {}, payload: payload as object });
  const stored = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback')).rows[0]?.n);

  it('stores feedback with the user and time and answers 201 with a reference', async () => {
    const res = await send({ category: 'Performance', rating: 4, message: '  The EFT report is slow for a month of data.  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ id: string; message: string }>();
    expect(body.id).toMatch(/^FB-\d{6}$/);
    expect(body.message).toContain(body.id);
    const row = (await t.db.query<{ user_id: string; category: string; rating: number; message: string; submitted_at: unknown }>(
      'SELECT user_id, category, rating, message, submitted_at FROM feedback ORDER BY feedback_id DESC LIMIT 1',
    )).rows[0];
    expect(row).toMatchObject({ user_id: 'XFEED', category: 'Performance', rating: 4, message: 'The EFT report is slow for a month of data.' });
    expect(Math.abs(new Date(String(row?.submitted_at instanceof Date ? row.submitted_at.toISOString() : row?.submitted_at)).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('accepts the message limits exactly and refuses one character beyond', async () => {
    expect((await send({ category: 'Other', rating: 1, message: 'x'.repeat(FEEDBACK_LIMITS.messageMin) })).statusCode).toBe(201);
    expect((await send({ category: 'Other', rating: 5, message: 'y'.repeat(FEEDBACK_LIMITS.messageMax) })).statusCode).toBe(201);
    const before = await stored();
    for (const message of ['x'.repeat(FEEDBACK_LIMITS.messageMin - 1), `   ${'z'.repeat(9)}   `, 'y'.repeat(FEEDBACK_LIMITS.messageMax + 1)]) {
      const res = await send({ category: 'Other', rating: 3, message });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual(['message']);
    }
    expect(await stored()).toBe(before);
  });

  it('refuses bad ratings, categories and unknown fields with 400 naming them', async () => {
    for (const rating of [0, 6, 3.5, '4']) {
      const res = await send({ category: 'Login', rating, message: 'The OTP came late today.' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[0].field).toBe('rating');
    }
    const cat = await send({ category: 'Complaint', rating: 3, message: 'The OTP came late today.' });
    expect(cat.json().fields[0].field).toBe('category');
    const extra = await send({ category: 'Login', rating: 3, message: 'The OTP came late today.', userId: 'SOMEONE' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().fields[0].field).toBe('userId');
    const none = await send({});
    expect(none.json().fields.map((f: { field: string }) => f.field).sort()).toEqual(['category', 'message', 'rating']);
  });

  it('needs a session and the XSRF header', async () => {
    expect((await send({ category: 'Login', rating: 3, message: 'The OTP came late today.' }, null)).statusCode).toBe(403);
    const { 'x-xsrf-token': _x, ...headers } = user.headers();
    const res = await app.inject({ method: 'POST', url: '/api/dashboard-feedback', headers, payload: { category: 'Login', rating: 3, message: 'The OTP came late today.' } });
    expect(res.statusCode).toBe(403);
  });

  it('applies the same rules on the client side (shared validator)', () => {
    expect(validateFeedback({ category: 'Suggestion', rating: 5, message: 'Add a chart of EFTs.' })).toEqual({});
    const errs = validateFeedback({ category: 'x', rating: 0, message: ' short ' });
    expect(Object.keys(errs).sort()).toEqual(['category', 'message', 'rating']);
    expect(errs.message).toContain('5 so far');
  });
});
