import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The text of a JSON body as received (null without one): the audit trail knows a report call's filters by it. */
    jsonText: string | null;
  }
}

/**
 * JSON bodies parsed by Fastify's own parser, with the same refusals (__proto__ and constructor.prototype keys are a
 * 400), their text kept on the request. A repeated report call is then recognised by its text alone, without writing
 * its parsed filters out again (audit/events.ts).
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.decorateRequest('jsonText', null);
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8'); // a string: parseAs above
    request.jsonText = text;
    parse(request, text, done);
  });
}
