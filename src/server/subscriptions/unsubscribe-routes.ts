import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db';
import type { ReportRegistry } from '../reports/registry';
import type { UnsubscribeTokens } from '../mail/unsubscribe-token';
import { reportTitle } from '../mail/attachment';
import { UNSUBSCRIBE_PAGE } from '../mail/texts';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A plain page in both languages (English, then Hindi), readable without the portal's scripts or styles. */
function page(reply: FastifyReply, status: number, parts: { en: { title: string; body: string }; hi: { title: string; body: string } }, form?: { action: string; en: string; hi: string }): FastifyReply {
  const section = (lang: 'en' | 'hi'): string =>
    `<section lang="${lang}"><h1>${escapeHtml(parts[lang].title)}</h1><p>${escapeHtml(parts[lang].body)}</p></section>`;
  const button = form
    ? `<form method="post" action="${escapeHtml(form.action)}"><button type="submit">${escapeHtml(form.en)} / <span lang="hi">${escapeHtml(form.hi)}</span></button></form>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.en.title)} / ${escapeHtml(parts.hi.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1f2933}
h1{font-size:1.4rem}section+section{border-top:1px solid #ccd;margin-top:1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-top:1rem}</style>
</head><body><main>${section('en')}${section('hi')}${button}</main></body></html>`;
  return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/**
 * The unsubscribe link of every subscription mail (and its List-Unsubscribe header): no sign-in, the signed token
 * names the subscription. GET shows a confirmation with a button, so a mail scanner opening links unsubscribes
 * no one; POST (the button, or a mail program's one-click List-Unsubscribe-Post) deletes the subscription.
 */
export async function unsubscribeRoutes(app: FastifyInstance, deps: { db: Db; registry: ReportRegistry; tokens: UnsubscribeTokens }): Promise<void> {
  const { db, registry, tokens } = deps;
  const subscriptionOf = async (token: unknown): Promise<{ id: number; title: { en: string; hi: string }; userId: string; reportId: string | null } | null> => {
    const id = tokens.read(token);
    if (id === null) return null;
    const r = await db.query<{ user_id: string; target: string; report_id: string | null; tab: string | null }>(
      'SELECT user_id, target, report_id, tab FROM mail_subscriptions WHERE id = $1',
      [id],
    );
    const row = r.rows[0];
    if (!row) return null;
    const report = row.report_id ? registry.get(row.report_id) : undefined;
    const title = report
      ? { en: reportTitle(report, row.tab, 'en'), hi: reportTitle(report, row.tab, 'hi') }
      : row.target === 'dashboard'
        ? { en: 'Dashboard', hi: 'डैशबोर्ड' }
        : { en: row.report_id ?? '', hi: row.report_id ?? '' };
    return { id, title, userId: row.user_id, reportId: row.report_id };
  };
  const invalid = (reply: FastifyReply): FastifyReply => page(reply, 404, UNSUBSCRIBE_PAGE.invalid);
  const querystring = { type: 'object', properties: { t: { type: 'string', maxLength: 100 } } } as const;

  await app.register(async (scope) => {
    // The page's button posts an empty HTML form; mail programs post 'List-Unsubscribe=One-Click' (RFC 8058).
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => done(null, body));

    scope.get<{ Querystring: { t?: string } }>('/api/mail/unsubscribe', { schema: { querystring } }, async (request, reply) => {
      const sub = await subscriptionOf(request.query.t);
      if (!sub) return invalid(reply);
      const c = UNSUBSCRIBE_PAGE.confirm;
      return page(
        reply,
        200,
        { en: { title: c.en.title, body: c.en.body(sub.title.en) }, hi: { title: c.hi.title, body: c.hi.body(sub.title.hi) } },
        { action: `/api/mail/unsubscribe?t=${encodeURIComponent(request.query.t ?? '')}`, en: c.en.button, hi: c.hi.button },
      );
    });

    scope.post<{ Querystring: { t?: string } }>('/api/mail/unsubscribe', { schema: { querystring } }, async (request, reply) => {
      const sub = await subscriptionOf(request.query.t);
      if (!sub) return invalid(reply);
      await db.query('DELETE FROM mail_subscriptions WHERE id = $1', [sub.id]);
      request.server.audit.record({
        action: 'subscription_changed', userId: sub.userId, ip: request.ip, report: sub.reportId, details: { change: 'unsubscribed by mail link', subscription: sub.id },
      });
      const d = UNSUBSCRIBE_PAGE.done;
      return page(reply, 200, { en: { title: d.en.title, body: d.en.body(sub.title.en) }, hi: { title: d.hi.title, body: d.hi.body(sub.title.hi) } });
    });
  });
}
