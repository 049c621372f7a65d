/**
 * Authenticated request cost: the token check reads session, user and
 * profile in ONE statement. Interleaved in one loop, medians of each:
 *  - GET /api/userprofile with a valid token (token check + the one statement + encrypting the profile),
 *  - the same statement run directly on the database (the floor),
 *  - GET /api/userprofile without a token (the request path with no database work).
 * Standalone: `npx tsx tests/bench/auth-round-trip.ts [--database-url URL]`; also the last section of `npm run bench`.
 */
import { pathToFileURL } from 'node:url';
import { buildApp } from '../../src/server/app';
import { openDb } from '../../src/server/db';
import { migrate } from '../../src/server/db/migrate';
import { USER_COLUMNS } from '../../src/server/auth/context';
import { testConfig } from '../support/app';
import { countingDb } from '../support/counting-db';
import { insertUser, loginAs } from '../support/login';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function benchAuthRoundTrip(databaseUrl?: string, rounds = 300): Promise<void> {
  const raw = await openDb({ databaseUrl, dataDir: null });
  await migrate(raw);
  const counter = countingDb(raw);
  const app = await buildApp({ config: testConfig({ databaseUrl }), db: counter.db });
  await app.ready();
  await insertUser(raw, { userId: 'BENCHAUTH', userLevel: 'DA', rlyCode: 'NR', divCode: 'DLI' });
  const s = await loginAs(app, 'BENCHAUTH');
  const sid = (await raw.query<{ session_id: string }>('SELECT session_id FROM auth_sessions WHERE user_id = $1 AND revoked_at IS NULL', ['BENCHAUTH'])).rows[0]?.session_id;
  const sql = `SELECT s.session_id, s.revoked_at, s.expires_at, ${USER_COLUMNS}
                 FROM auth_sessions s JOIN users u ON u.user_id = s.user_id WHERE s.session_id = $1`;
  const signed: number[] = [];
  const direct: number[] = [];
  const stranger: number[] = [];
  let statements = 0;
  for (let i = 0; i < rounds; i++) {
    counter.reset();
    let t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/userprofile', headers: s.headers() });
    signed.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`userprofile: ${res.statusCode}`);
    statements = Math.max(statements, counter.count());
    t0 = performance.now();
    await raw.query(sql, [sid]);
    direct.push(performance.now() - t0);
    t0 = performance.now();
    await app.inject({ method: 'GET', url: '/api/userprofile' });
    stranger.push(performance.now() - t0);
  }
  console.log(`\n# Authenticated request (${raw.driver}, ${rounds} interleaved rounds)`);
  console.log('| request | median ms |\n|---|---:|');
  console.log(`| GET /api/userprofile with token (${statements} statement) | ${median(signed).toFixed(3)} |`);
  console.log(`| the session+user statement alone | ${median(direct).toFixed(3)} |`);
  console.log(`| GET /api/userprofile without token (403, no SQL) | ${median(stranger).toFixed(3)} |`);
  await app.close();
  await raw.close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--database-url');
  await benchAuthRoundTrip(i >= 0 ? process.argv[i + 1] : undefined);
}
