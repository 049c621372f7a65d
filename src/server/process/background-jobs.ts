import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db';
import { fillWindow } from '../db/seed';
import { maintainPartitions } from '../db/partitions';
import { istDate, isShiftable, type Clock } from '../clock';
import { startLiveFeed } from '../hht/start';
import { startRollupAuditor } from './rollup-auditor';
import { isLive, seedOptions, type LogLine } from './startup';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/**
 * Timers that must run in ONE server process only (worker #1, or the single process): the midnight roll of the
 * demo window, the run-date partitions (made ahead, dropped past HHT_RETENTION_DAYS), the live HHT feed and the
 * rollup auditor. With
 * HHT_WORKERS > 1 the others only answer HTTP requests.
 */
export function startBackgroundJobs(db: Db, config: Config, log: LogLine, errors: FastifyBaseLogger, clock: Clock): BackgroundJobs {
  // Partitions: at start and after each midnight roll. Retention drops whole run dates older than the setting.
  const partitionJob = (): Promise<void> =>
    maintainPartitions(db, istDate(clock.now()), config.retentionDays)
      .then(({ made, dropped }) => {
        if (made > 0) log(`partitions: ${made} made ahead`);
        if (dropped.length > 0) log(`retention: run dates ${dropped[0]} to ${dropped[dropped.length - 1]} dropped (HHT_RETENTION_DAYS=${config.retentionDays})`);
      })
      .catch((err: unknown) => errors.error({ err }, 'partition maintenance failed'));
  let partitionRun = partitionJob();
  // The window rolls: at each midnight (IST) generate the runs of the new tomorrow.
  let midnightTimer: NodeJS.Timeout | undefined;
  const scheduleMidnight = (): void => {
    const now = clock.now();
    const ist = new Date(now.getTime() + 330 * 60_000);
    const nextIstMidnight = Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate() + 1) - 330 * 60_000;
    midnightTimer = setTimeout(() => {
      const roll = config.seed === 'demo'
        ? fillWindow(db, seedOptions(config, log)).catch((err: unknown) => errors.error({ err }, 'rolling window fill failed'))
        : Promise.resolve();
      partitionRun = roll.then(partitionJob);
      scheduleMidnight();
    }, nextIstMidnight - now.getTime() + 1000);
    midnightTimer.unref();
  };
  scheduleMidnight();
  // The live HHT feed releases planned records as their sync time passes (its lease also keeps a second process
  // from releasing at the same time, should one ever run it).
  const feed = isLive(config) ? startLiveFeed(db, clock, errors) : undefined;
  // Test hooks moving the clock: the feed releases what became due before the hook answers.
  // A second tick: the first may be a release already running from before the move.
  if (feed && isShiftable(clock)) clock.onAdvance(async () => (await feed.tick()) + (await feed.tick()));
  // The rollups are the database's (triggers, dirty set); the auditor checks a few runs at a time against the raw rows.
  const auditor = startRollupAuditor(db, log, (err: unknown) => errors.error({ err }, 'rollup audit failed'));

  return {
    stop: async () => {
      clearTimeout(midnightTimer);
      await feed?.stop();
      await auditor.stop();
      await partitionRun;
    },
  };
}
