import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import type { Clock } from '../clock';
import { startFeed, type Feed } from './feed';

/** The server's one call to start the live feed: releases at once (catch-up after a restart), then every 15 s. */
export function startLiveFeed(db: Db, clock: Clock, logger: FastifyBaseLogger): Feed {
  const feed = startFeed({ db, clock, log: (line) => logger.info(line) });
  feed.tick().catch((err: unknown) => logger.error({ err }, 'hht feed: catch-up failed'));
  return feed;
}
