/**
 * The OpenAPI document at /api/openapi.json, fetched from a listening server: it validates (swagger-parser), lists
 * every route of the app with its purpose, answers and refusals, every report endpoint of the catalogue, and its
 * sync example batch is accepted by the server as it stands.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TEST_DRIVERS, type TestDb } from '../support/db';
import { cloneSeededTestDb } from '../support/seeded';
import { buildTestApp } from '../support/app';
import { loginAs, type SignedIn } from '../support/login';
import { manualClock } from '../../src/server/clock';
import { ROUTE_DOCS } from '../../src/server/openapi/route-docs';
import { OPENAPI_PATH, routeKey } from '../../src/server/openapi/plugin';
import { EXTRAS_USERS, insertExtrasUsers, istNoon } from './extras-users';

interface Operation {
  summary?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown>; example?: unknown }> };
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

describe.each(TEST_DRIVERS)('OpenAPI document on %s', (driver) => {
  let t: TestDb & { today: string };
  let app: FastifyInstance;
  let base: string;
  let su: SignedIn;
  let doc: Doc;

  beforeAll(async () => {
    t = await cloneSeededTestDb(driver);
    app = await buildTestApp(t.db, { clock: manualClock(istNoon(t.today)) });
    await insertExtrasUsers(t.db);
    su = await loginAs(app, EXTRAS_USERS.su.userId);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}${OPENAPI_PATH}`, { headers: su.headers() });
    expect(res.status).toBe(200);
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('is public, without the example made from the data unless an officer asks', async () => {
    const res = await fetch(`${base}${OPENAPI_PATH}`);
    expect(res.status).toBe(200);
    const open = (await res.json()) as Doc;
    expect(Object.keys(open.paths).sort()).toEqual(Object.keys(doc.paths).sort());
    expect(open.paths['/api/hht/sync']?.post?.requestBody?.content['application/json']?.example).toBeUndefined();
    expect(doc.paths['/api/hht/sync']?.post?.requestBody?.content['application/json']?.example).toBeDefined();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('lists every route of the app with its purpose, its answer and its refusals', () => {
    const problems: string[] = [];
    const routes = new Set<string>();
    for (const r of app.routeList) {
      if (r.method === 'HEAD' || !r.url.startsWith('/api')) continue;
      const key = routeKey(r.method, r.url);
      routes.add(key);
      const [method, path] = key.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      if (!op) {
        problems.push(`${key}: not in the document`);
        continue;
      }
      const statuses = Object.keys(op.responses ?? {});
      if (!op.summary) problems.push(`${key}: no summary`);
      if (!statuses.some((s) => /^2/.test(s)) || !statuses.some((s) => /^[45]/.test(s))) problems.push(`${key}: answers ${statuses.join(', ')}`);
      for (const [status, answer] of Object.entries(op.responses ?? {})) {
        if (!answer.content || Object.values(answer.content).some((c) => c.schema === undefined)) problems.push(`${key} ${status}: no schema`);
      }
    }
    // And nothing documented that the app does not serve.
    for (const key of Object.keys(ROUTE_DOCS)) if (!routes.has(key)) problems.push(`${key}: documented but no such route`);
    expect(problems).toEqual([]);
  });

  it('lists every report endpoint of the catalogue with its filter schema', () => {
    const missing: string[] = [];
    for (const r of app.reports.all()) {
      for (const v of r.views) {
        const op = doc.paths[`/api/${v.endpoint}`]?.[v.method.toLowerCase()];
        if (!op) missing.push(v.endpoint);
        else if (v.method === 'POST') expect(op.requestBody?.content['application/json']?.schema).toHaveProperty('properties');
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every sync record type, and its example batch is one the server accepts', async () => {
    const content = doc.paths['/api/hht/sync']?.post?.requestBody?.content['application/json'];
    const schema = content?.schema as { properties: { records: { items: { oneOf: { title: string }[] } } } };
    expect(schema.properties.records.items.oneOf.map((s) => s.title)).toEqual([
      'CHECK', 'ALLOTMENT', 'SIGN_ON', 'SIGN_OFF', 'TWR', 'EFT', 'BERTH_RELEASE', 'DEFICIENCY', 'DEFICIENCY_CLOSE', 'TDR_REMARK',
    ]);
    const example = content?.example as { batchId: string; records: { type: string; beatId: number }[] };
    expect(example.records.length).toBeGreaterThanOrEqual(2);
    // The example is what the document's own schema allows.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addFormat('date-time', true);
    const validate = ajv.compile(content?.schema as object);
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);

    // Sent as it stands, with a credential of the device it names.
    const deviceId = /device (\S+) on this server/.exec(String((doc.paths['/api/hht/sync']?.post as { description?: string }).description))?.[1];
    expect(deviceId).toBeDefined();
    const issued = await fetch(`${base}/api/hht/credentials/issue`, {
      method: 'POST', headers: { ...su.headers(), 'content-type': 'application/json' }, body: JSON.stringify({ deviceId }),
    });
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    const sent = await fetch(`${base}/api/hht/sync`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(example),
    });
    const answer = (await sent.json()) as { stored?: number; received?: number };
    expect(sent.status, JSON.stringify(answer)).toBe(200);
    expect(answer).toMatchObject({ received: example.records.length, stored: example.records.length });
  });
});
