import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDb, type TestDb } from '../support/db';
import { buildTestApp } from '../support/app';
import { insertUser, loginAs, type SignedIn } from '../support/login';
import { RELEASE_NAME, VERSION_LABEL } from '../../src/shared/constants';
import { compareVersions, type ReleaseNotes } from '../../src/shared/release-notes';
import { WatchedJson } from '../../src/server/meta/watched-json';
import { checkReleaseNotes } from '../../src/server/meta/release-notes';

const quiet = { info: () => undefined, error: () => undefined };

describe('whats new', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let user: SignedIn;

  beforeAll(async () => {
    t = await createTestDb('pglite');
    app = await buildTestApp(t.db);
    await insertUser(t.db, { userId: 'XNEWS', userLevel: 'LU', rlyCode: 'NR', divCode: 'DLI', lobbyCode: 'NDLS' });
    user = await loginAs(app, 'XNEWS');
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  it('serves the repository release notes newest first with v2.1.0 on top', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/meta/whatsnew' })).statusCode).toBe(403);
    const res = await app.inject({ method: 'GET', url: '/api/meta/whatsnew', headers: user.headers() });
    expect(res.statusCode).toBe(200);
    const { releases } = res.json<ReleaseNotes>();
    expect(releases.length).toBeGreaterThanOrEqual(3);
    expect(releases[0]).toMatchObject({ version: VERSION_LABEL, name: RELEASE_NAME });
    expect(releases[0]?.changes.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < releases.length; i += 1) expect(compareVersions(releases[i - 1]?.version ?? '', releases[i]?.version ?? '')).toBeGreaterThan(0);
  });

  it('refuses out-of-order or malformed notes and keeps the last good version', () => {
    const root = mkdtempSync(join(tmpdir(), 'hht-notes-'));
    try {
      mkdirSync(join(root, 'docs'));
      cpSync('schemas', join(root, 'schemas'), { recursive: true });
      const good = readFileSync('docs/release-notes.json', 'utf8');
      writeFileSync(join(root, 'docs/release-notes.json'), good);
      const notes = new WatchedJson<ReleaseNotes>({
        rootDir: root, file: 'docs/release-notes.json', schemaFile: 'schemas/release-notes.schema.json', crossCheck: checkReleaseNotes, log: quiet,
      });
      expect(notes.load()).toEqual([]);
      const parsed = JSON.parse(good) as ReleaseNotes;
      const swapped = { ...parsed, releases: [parsed.releases[1], parsed.releases[0], ...parsed.releases.slice(2)] };
      writeFileSync(join(root, 'docs/release-notes.json'), JSON.stringify(swapped));
      const problems = notes.load();
      expect(problems[0]).toMatchObject({ file: 'docs/release-notes.json', pointer: '/releases/1/version' });
      expect(notes.get()?.releases[0]?.version).toBe(VERSION_LABEL);
      writeFileSync(join(root, 'docs/release-notes.json'), JSON.stringify({ releases: [{ ...parsed.releases[0], tag: 'x', date: '2026-13-01' }] }));
      const bad = notes.load();
      expect(bad.map((p) => p.pointer).sort()).toEqual(['/releases/0', '/releases/0/date']);
      expect(bad.find((p) => p.pointer === '/releases/0')?.reason).toContain('tag');
      expect(notes.get()?.releases).toHaveLength(parsed.releases.length);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('what the release notes promise', () => {
  const notes = JSON.parse(readFileSync('docs/release-notes.json', 'utf8')) as ReleaseNotes;
  const texts = notes.releases.flatMap((r) => r.changes.map((c) => c.text));

  it('counts the themes the settings panel really has', () => {
    const themes = JSON.parse(readFileSync('themes/themes.json', 'utf8')) as { groups: { themes: unknown[] }[] };
    const count = themes.groups.reduce((n, g) => n + g.themes.length, 0);
    const claims = texts.flatMap((t) => [...t.matchAll(/(\d+) themes/g)].map((m) => Number(m[1])));
    expect(claims.length).toBeGreaterThan(0);
    for (const n of claims) expect(n).toBe(count);
  });
});
