import type { FastifyInstance } from 'fastify';
import { HttpError } from '../plugins/errors';
import { WatchedJson } from '../meta/watched-json';
import { checkDashboard } from '../meta/dashboard';
import { checkReleaseNotes } from '../meta/release-notes';
import type { DashboardConfig } from '../../shared/dashboard';
import type { ReleaseNotes } from '../../shared/release-notes';
import { localizeDashboard, parseAcceptLanguage } from '../../shared/definitions/localize';

/**
 * GET /api/meta/dashboard (dashboard.json) and GET /api/meta/whatsnew (docs/release-notes.json): both validated
 * by their schema at load and on change; a broken edit is logged and the last good version keeps being served.
 */
export function metaRoutes(app: FastifyInstance, deps: { rootDir: string }): void {
  const log = { info: (m: string) => app.log.info(m), error: (m: string) => app.log.error(m) };
  const dashboard = new WatchedJson<DashboardConfig>({
    rootDir: deps.rootDir, file: 'dashboard.json', schemaFile: 'schemas/dashboard.schema.json', crossCheck: checkDashboard, log,
  });
  const notes = new WatchedJson<ReleaseNotes>({
    rootDir: deps.rootDir, file: 'docs/release-notes.json', schemaFile: 'schemas/release-notes.schema.json', crossCheck: checkReleaseNotes, log,
  });
  for (const f of [dashboard, notes]) {
    f.load();
    f.watch();
  }
  app.addHook('onClose', async () => {
    dashboard.close();
    notes.close();
  });

  // Card titles, captions and chart labels in the request's language (Accept-Language: hi or en).
  app.get('/api/meta/dashboard', { preHandler: app.authenticate }, async (request, reply): Promise<DashboardConfig> => {
    const d = dashboard.get();
    if (!d) throw new HttpError(503, 'The dashboard is not available: dashboard.json has errors (see the server log)');
    void reply.header('vary', 'Accept-Language');
    return { cards: localizeDashboard(d.cards, d.hi, parseAcceptLanguage(request.headers['accept-language'])) };
  });

  app.get('/api/meta/whatsnew', { preHandler: app.authenticate }, async (): Promise<ReleaseNotes> => {
    const n = notes.get();
    if (!n) throw new HttpError(503, 'Release notes are not available: docs/release-notes.json has errors (see the server log)');
    return { releases: n.releases };
  });
}
