import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Db } from '../db';
import type { ReportRegistry } from '../reports/registry';
import { publicReport } from '../routes/reports';
import { ROUTE_DOCS, REPORT_ANSWER, OFFICER_REFUSALS } from './route-docs';
import { exampleBatch } from './example-batch';
import type { Schema } from './schema-helpers';

export const OPENAPI_PATH = '/api/openapi.json';

/** "METHOD /path/{param}": the key of a route in ROUTE_DOCS and of an operation in the document. */
export const routeKey = (method: string, url: string): string => `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;

/**
 * Registers @fastify/swagger before any route, so every route's own schema (what Fastify validates with) goes into
 * the document, completed from ROUTE_DOCS (purpose, answers, refusals, and the request parts a route checks by hand).
 * The additions are for the document only: they never change how a route validates or serialises.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'IR-HHT Portal API',
        version: '2.1.0',
        description:
          'Reports for officers (bearer access token from the sign-in steps; changes also need the X-XSRF-TOKEN header matching the XSRF-TOKEN cookie) and the device sync API for hand-held terminals (bearer device credential). Every refusal answers JSON {error, message, fields?}.',
      },
      components: {
        securitySchemes: {
          officer: { type: 'http', scheme: 'bearer', description: 'Access token of an officer\'s session (VerifyOtp, refreshToken)' },
          device: { type: 'http', scheme: 'bearer', description: 'A device\'s sync credential (POST /api/hht/credentials/issue)' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      const doc = ROUTE_DOCS[routeKey(method, url)];
      const own = (schema ?? {}) as FastifySchema & Record<string, unknown>;
      if (!doc) return { schema: own, url };
      const merged: Record<string, unknown> = { ...own, summary: doc.summary, tags: doc.tags, response: doc.response };
      if (!own.body && doc.body) merged.body = doc.body;
      if (!own.querystring && doc.querystring) merged.querystring = doc.querystring;
      if (!own.params && doc.params) merged.params = doc.params;
      if (doc.security) merged.security = [{ [doc.security]: [] }];
      return { schema: merged as FastifySchema, url };
    },
  });
}

interface Operation {
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown }> };
  [key: string]: unknown;
}
type Paths = Record<string, Record<string, Operation>>;

/**
 * GET /api/openapi.json: the document, with one path per report endpoint of the catalogue. Public (a terminal vendor
 * reads it before holding any account); with an officer's bearer token it also carries an example batch made from
 * this server's data (device, beat and passenger ids are not for strangers).
 */
export function openApiRoute(app: FastifyInstance, deps: { db: Db; registry: ReportRegistry }): void {
  app.get(OPENAPI_PATH, async (request, reply) => {
    if (request.headers.authorization !== undefined) {
      // The same check as every protected route: a bad or expired token gets the usual 401/403.
      await app.authenticate(request, reply);
      if (reply.sent) return undefined;
    }
    // Our own generated object; the library's types know no report paths, so it is read as plain JSON here.
    const doc = structuredClone(app.swagger()) as unknown as { paths: Paths; [key: string]: unknown };
    for (const r of deps.registry.all()) {
      const pub = publicReport(r, 'en');
      for (const view of r.views) {
        const path = `/api/${view.endpoint}`;
        const columns = Object.fromEntries(view.columns.map((c) => [c.field, { description: `${c.headerName}${c.type ? ` (${c.type})` : ''}` }]));
        const answer = { ...REPORT_ANSWER, properties: { ...(REPORT_ANSWER.properties as Record<string, Schema>), rows: { type: 'array', items: { type: 'object', properties: columns } } } };
        const responses = Object.fromEntries(
          Object.entries({ 200: answer, ...OFFICER_REFUSALS }).map(([status, s]) => {
            const { description, content, ...schema } = s as Schema & { description?: string; content?: unknown };
            return [status, content ? { description, content } : { description: description ?? 'The rows of the filter', content: { 'application/json': { schema } } }];
          }),
        );
        const op: Operation = {
          summary: `${r.definition.title}${view.tabId ? ` - ${r.definition.tabs?.find((t) => t.id === view.tabId)?.label ?? view.tabId}` : ''}`,
          description: r.definition.description,
          tags: ['Report catalogue'],
          security: [{ officer: [] }],
          responses,
        };
        if (view.method === 'POST') op.requestBody = { content: { 'application/json': { schema: pub.filter.schema as Schema } } };
        doc.paths[path] = { ...(doc.paths[path] ?? {}), [view.method.toLowerCase()]: op };
      }
    }
    const example = request.sessionUser ? await exampleBatch(deps.db, app.clock.now()).catch(() => undefined) : undefined;
    const sync = doc.paths['/api/hht/sync']?.post?.requestBody?.content['application/json'];
    if (sync && example) {
      sync.example = example.batch;
      (doc.paths['/api/hht/sync']?.post as Operation).description =
        `The example is a batch of device ${example.deviceId} on this server's data: issue that device a credential and send it as it is.`;
    }
    return doc;
  });
}
