import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db';
import { isShiftable } from '../clock';
import type { ReportRegistry } from '../reports/registry';
import { WatchedJson } from '../meta/watched-json';
import { checkDashboard } from '../meta/dashboard';
import type { DashboardConfig } from '../../shared/dashboard';
import { createMailSender, type MailSender } from '../mail/sender';
import { UnsubscribeTokens } from '../mail/unsubscribe-token';
import { subscriptionRoutes } from './routes';
import { unsubscribeRoutes } from './unsubscribe-routes';

/**
 * E-mail subscriptions: their API, the unsubscribe page and the sender. Every server process runs a sender; the
 * database lease lets one of them mail at a time (mail/sender.ts). With HHT_SMTP_URL unset nothing is sent and new
 * subscriptions are refused.
 */
export async function registerSubscriptions(
  app: FastifyInstance,
  deps: { db: Db; config: Config; registry: ReportRegistry; suMobiles: readonly string[]; signingSecret: string },
): Promise<void> {
  const { db, config, registry, suMobiles } = deps;
  const tokens = new UnsubscribeTokens(deps.signingSecret);
  const log = { info: (m: string) => app.log.info(m), error: (m: string) => app.log.error(m) };
  const dashboard = new WatchedJson<DashboardConfig>({
    rootDir: config.rootDir, file: 'dashboard.json', schemaFile: 'schemas/dashboard.schema.json', crossCheck: checkDashboard, log,
  });
  dashboard.load();
  dashboard.watch();

  subscriptionRoutes(app, { db, config, registry, suMobiles });
  await unsubscribeRoutes(app, { db, registry, tokens });

  const sender = createMailSender({
    db, config, clock: app.clock, registry, suMobiles, tokens,
    dashboard: () => dashboard.get(),
    audit: (e) => app.audit.record(e),
    log: (line) => app.log.info(line),
  });
  app.decorate('mailSender', sender);
  // Test hooks moving the clock: what fell due is mailed before the hook answers.
  if (isShiftable(app.clock)) app.clock.onAdvance(() => sender.tick());
  app.addHook('onClose', async () => {
    await sender.stop();
    dashboard.close();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's subscription sender (tests tick it by hand). */
    mailSender: MailSender;
  }
}
