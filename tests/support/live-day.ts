/**
 * A live day for API tests: the tiny seed made live at a time of SEED_TODAY (IST), an app on a movable clock, and the
 * live feed among the background jobs on that clock, as a server process runs them. Moving the clock (the test hook)
 * lets the feed release what became due on the way.
 */
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from './db';
import { SEED_TODAY } from './seeded';
import { buildTestApp, testConfig } from './app';
import { ensureSeeded } from '../../src/server/demo';
import { manualClock } from '../../src/server/clock';
import { insertDemoUsers } from '../../src/server/auth/demo-users';
import { startBackgroundJobs, type BackgroundJobs } from '../../src/server/process/background-jobs';
import type { DriverName } from '../../src/server/db';

/** How long a live day's setup and each of its steps may take (the seed, the feed catching up). */
export const LIVE_DAY_TIMEOUT_MS = 900_000;

/** hh:mm IST on SEED_TODAY. */
export const istToday = (hhmm: string): Date => new Date(`${SEED_TODAY}T${hhmm}:00+05:30`);

export interface LiveDay {
  readonly t: TestDb;
  /** The app now (a restart makes a new one). */
  readonly app: FastifyInstance;
  /** Moves the app's clock forward to hh:mm IST today (never back); the feed releases what fell due. */
  moveTo(hhmm: string): Promise<void>;
  /** A new server process on the same database, with its own feed, at the same clock time. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const CONFIG = { seed: 'demo' as const, feed: true };

export async function startLiveDay(driver: DriverName, startHhmm: string): Promise<LiveDay> {
  const t = await createTestDb(driver);
  await ensureSeeded(t.db, { scale: 'tiny', today: SEED_TODAY, liveAt: istToday(startHhmm), log: () => undefined });
  await insertDemoUsers(t.db);
  const start = async (at: Date): Promise<{ app: FastifyInstance; jobs: BackgroundJobs }> => {
    const app = await buildTestApp(t.db, { clock: manualClock(at), config: CONFIG });
    return { app, jobs: startBackgroundJobs(t.db, testConfig(CONFIG), () => undefined, app.log, app.clock) };
  };
  let server = await start(istToday(startHhmm));
  return {
    t,
    get app() {
      return server.app;
    },
    moveTo: async (hhmm) => {
      const to = istToday(hhmm);
      const ahead = to.getTime() - server.app.clock.now().getTime();
      if (ahead > 0) {
        const moved = await server.app.inject({ method: 'POST', url: '/api/test-hooks/clock', payload: { advanceMs: ahead } });
        if (moved.statusCode !== 200) throw new Error(`moving the clock to ${hhmm} IST: ${moved.statusCode} ${moved.body}`);
      }
      if (server.app.clock.now().getTime() !== to.getTime()) throw new Error(`the clock is at ${server.app.clock.now().toISOString()}, not ${hhmm} IST`);
    },
    restart: async () => {
      const at = server.app.clock.now();
      await server.jobs.stop();
      await server.app.close();
      server = await start(at);
    },
    stop: async () => {
      await server.jobs.stop();
      await server.app.close();
      await t.drop();
    },
  };
}
