/**
 * `?nearest=earlier` on a report call: the nearest earlier date on which the same filter has rows in the user's
 * scope, compared with asking the report itself day by day; refused with a 400 naming the parameter where the report
 * has no single date, or for another value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { cloneSeededTestDb } from '../support/seeded';
import type { TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { manualClock } from '../../src/server/clock';
import { daysBefore } from '../../src/shared/definitions/date-field';
import { NEAREST_DAYS_BACK } from '../../src/server/reports/nearest-date';

describe('the nearest earlier date with rows', () => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  const users: Record<string, SignedIn> = {};

  beforeAll(async () => {
    t = await cloneSeededTestDb('pglite');
    await insertDemoUsers(t.db);
    app = await buildTestApp(t.db, { clock: manualClock(new Date(`${t.today}T12:00:00+05:30`)) });
    for (const u of ['HHTSU', 'HHTDIV']) users[u] = await loginAs(app, u);
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  const call = (user: string, url: string, payload: object) => app.inject({ method: 'POST', url, headers: users[user]!.headers(), payload });
  const total = async (user: string, endpoint: string, filter: object): Promise<number> => {
    const res = await call(user, `/api/${endpoint}`, filter);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ total: number }>().total;
  };

  /** The reference: the report asked day by day, backwards from the day before `from`. */
  async function byHand(user: string, endpoint: string, filter: Record<string, string>, field: string): Promise<{ date: string; count: number } | null> {
    for (let back = 1; back <= NEAREST_DAYS_BACK; back++) {
      const date = daysBefore(filter[field]!, back);
      const n = await total(user, endpoint, { ...filter, [field]: date });
      if (n > 0) return { date, count: n };
    }
    return null;
  }

  it.each([
    ['HHTSU', 'getZeroBooking', 'startDate'],
    ['HHTDIV', 'getZeroBooking', 'startDate'],
    ['HHTSU', 'AllocationException', 'startDate'],
  ])('as %s on %s: the day the report itself first has rows, with its count', async (user, endpoint, field) => {
    // From a few days into the seeded window, so that earlier days hold data and later ones are skipped.
    const filter = { [field]: daysBefore(t.today, 3) };
    const expected = await byHand(user, endpoint, filter, field);
    expect(expected, 'the seeded data has an earlier day with rows').not.toBeNull();
    const res = await call(user, `/api/${endpoint}?nearest=earlier`, filter);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ nearest: expected ? { field, ...expected } : null });
  }, 120_000);

  it('answers null when no earlier day has rows', async () => {
    const res = await call('HHTSU', '/api/getZeroBooking?nearest=earlier', { startDate: daysBefore(t.today, 400) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ nearest: null });
  }, 60_000);

  it('refuses a report over a date range, and any other value, naming the parameter', async () => {
    const range = await call('HHTSU', '/api/trainWorkingReport?nearest=earlier', {});
    expect(range.statusCode).toBe(400);
    expect(range.json<{ fields: { field: string }[] }>().fields.map((f) => f.field)).toEqual(['nearest']);
    const other = await call('HHTSU', '/api/getZeroBooking?nearest=later', { startDate: t.today });
    expect(other.statusCode).toBe(400);
    expect(other.json<{ fields: { field: string }[] }>().fields.map((f) => f.field)).toEqual(['nearest']);
  });
});
