import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { withoutPersonalFields } from '../../src/server/audit/redact';
import { sentFilters, sentFiltersJson } from '../../src/server/audit/plugin';
import { PortalFileEvents } from '../../src/server/audit/file-events';
import { AuditTrail, entryHead, type EntryHead } from '../../src/server/audit/trail';
import type { AuditEvent } from '../../src/server/audit/actions';
import type { Db } from '../../src/server/db';
import { copyValue } from '../../src/server/db/copy-text';

describe('audit and metrics settings', () => {
  it('keeps 180 days by default, more when asked, and refuses less', () => {
    expect(loadConfig({}).ops.auditRetentionDays).toBe(180);
    expect(loadConfig({ HHT_AUDIT_RETENTION_DAYS: '400' }).ops.auditRetentionDays).toBe(400);
    expect(() => loadConfig({ HHT_AUDIT_RETENTION_DAYS: '179' })).toThrow(/HHT_AUDIT_RETENTION_DAYS must be a whole number from 180/);
    expect(() => loadConfig({ HHT_AUDIT_FLUSH_MS: '5000' })).toThrow(ConfigError);
  });

  it('has the trail on and the metrics port off unless set', () => {
    const c = loadConfig({});
    expect(c.ops.audit).toBe(true);
    expect(c.ops.metricsPort).toBeUndefined();
    expect(loadConfig({ HHT_METRICS_PORT: '9464', HHT_AUDIT: 'off' }).ops).toMatchObject({ metricsPort: 9464, audit: false });
    expect(() => loadConfig({ HHT_METRICS_PORT: 'x' })).toThrow(/HHT_METRICS_PORT/);
    expect(() => loadConfig({ HHT_AUDIT: 'maybe' })).toThrow(/HHT_AUDIT must be/);
  });
});

describe('personal fields', () => {
  it('drops any key naming a name, mobile or phone, at any depth, and lists what it dropped', () => {
    const { value, removed } = withoutPersonalFields({
      trainNo: '12952', pnr: '8123456789', psgnName: 'R KUMAR', mobileNo: '9876543210', nested: { passengerName: 'X', coach: 'B1' }, phone: '1',
    });
    expect(value).toEqual({ trainNo: '12952', pnr: '8123456789', nested: { coach: 'B1' } });
    expect(removed.sort()).toEqual(['mobileNo', 'passengerName', 'phone', 'psgnName']);
  });
});

describe('the details of a report call', () => {
  it('are written as sentFilters would have them, whether or not the body could be taken as it is', () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { trainNo: '12952', startDate: '2026-03-14' });
    const bodies: unknown[] = [
      { trainNo: '12952', startDate: '2026-03-14', cls: '3A' }, // the usual call: taken as it is
      query, // a GET's query (no prototype)
      {}, undefined, null, 'text', [1, 2], 42,
      { trainNo: '12952', psgnName: 'R KUMAR' }, // a personal key: removed
      { note: 'the name of the train' }, // the word only in a value: copied the long way, the same text
      { pnrs: Array.from({ length: 150 }, (_, i) => String(i)) }, // an array past 100 items
      { text: 'x'.repeat(250) }, // a string past 200 characters
      { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: 1 } } } } } } } } } }, // past 8 levels
      { a: [[[[[[[1]]]]]]] }, // 8 brackets: taken as it is
      { hindi: 'यात्री', emoji: '😀', quote: '"', back: '\\', u: undefined, n: null },
    ];
    const figures = { rows: 12, ms: 3, served: 'hit', none: undefined, empty: null };
    for (const body of bodies) expect(sentFiltersJson(body, figures), JSON.stringify(body)).toBe(JSON.stringify(sentFilters(body, figures)));
    expect(JSON.parse(sentFiltersJson(bodies[0], figures))).toEqual({ filters: bodies[0], rows: 12, ms: 3, served: 'hit', empty: null });
  });
});

describe('portal file events', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('records a file when first loaded, when changed, when refused and when removed, each once', () => {
    root = mkdtempSync(join(tmpdir(), 'hht-files-'));
    mkdirSync(join(root, 'reports'));
    writeFileSync(join(root, 'reports', 'a.json'), '{"id":"a"}');
    writeFileSync(join(root, 'menu.json'), '{}');
    const got: AuditEvent[] = [];
    const events = new PortalFileEvents(root, (e) => got.push(e));
    const actions = (): string[] => got.splice(0).map((e) => `${e.action} ${String(e.details?.file)}`);

    events.check(new Map());
    expect(actions()).toEqual(['definition_loaded reports/a.json', 'definition_loaded menu.json']);
    events.check(new Map());
    expect(actions()).toEqual([]);
    writeFileSync(join(root, 'reports', 'a.json'), '{"id":"a","title":"A"}');
    events.check(new Map());
    expect(actions()).toEqual(['definition_changed reports/a.json']);
    writeFileSync(join(root, 'reports', 'a.json'), '{"id":');
    events.check(new Map([['reports/a.json', '/: bad JSON']]));
    const refused = got[0];
    expect(actions()).toEqual(['definition_refused reports/a.json']);
    expect(refused?.details).toMatchObject({ reason: '/: bad JSON', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(refused?.report).toBe('a');
    rmSync(join(root, 'reports', 'a.json'));
    events.check(new Map());
    expect(actions()).toEqual(['definition_changed reports/a.json']);
  });
});

/** An entry as the audit_trail view reads it (migration 041): [at, action, user_id, user_level, report, ip, details]. */
type StoredEntry = [string, string, string | null, string | null, string | null, string | null, Record<string, unknown>];

/**
 * A stored batch's entries (INSERT parameter 5) in the whole form, as the view audit_trail reads them (migration
 * 042): an entry [at, place, figures] is its batch's head at that place (parameter 6) with the figures added to its
 * details.
 */
function wholeEntries(params: readonly unknown[]): StoredEntry[] {
  const heads = params[5] === null ? [] : (JSON.parse(String(params[5])) as unknown[][]);
  return (JSON.parse(String(params[4])) as unknown[][]).map((e) => {
    if (typeof e[1] !== 'number') return e as StoredEntry;
    const head = heads[e[1]];
    if (!head) throw new Error(`entry ${JSON.stringify(e)} names no head of its batch`);
    return [e[0], ...head.slice(0, 5), { ...(head[5] as object), ...(e[2] as object) }] as StoredEntry;
  });
}

/**
 * A database whose trail INSERTs fail while `fail(nth insert)` says so; keeps each written batch's parameters and
 * entries. A failed INSERT fails its transaction, so the batches it already wrote are not kept either.
 */
function flakyDb(
  fail: (nth: number, params: readonly unknown[]) => boolean | Error = () => false,
): { db: Db; batches: unknown[][]; entries: () => StoredEntry[]; partitions: unknown[][] } {
  const batches: unknown[][] = [];
  const partitions: unknown[][] = [];
  let n = 0;
  const query = async (sql: string, params?: readonly unknown[]) => {
    if (sql.includes('audit_ensure_partitions')) partitions.push([...(params ?? [])]);
    if (sql.startsWith('INSERT')) {
      n += 1;
      const failure = fail(n, params ?? []);
      if (failure) throw failure === true ? new Error('database down') : failure;
      // Copied as a driver sends them: the trail may reuse a batch's buffer once its INSERT has settled.
      batches.push((params ?? []).map((p) => (Buffer.isBuffer(p) ? Buffer.from(p) : p)));
    }
    return { rows: [] };
  };
  const transaction = async <T>(fn: (q: { query: typeof query }) => Promise<T>): Promise<T> => {
    const mark = batches.length;
    try {
      return await fn({ query });
    } catch (err) {
      batches.length = mark;
      throw err;
    }
  };
  const db = { query, transaction } as unknown as Db; // only these two are used
  return { db, batches, partitions, entries: () => batches.flatMap(wholeEntries) };
}

describe('audit trail queue', () => {
  it('writes nothing on the request path, keeps entries when the database fails, and writes them later', async () => {
    let fail = true;
    const { db, batches, entries } = flakyDb(() => fail);
    const errors: unknown[] = [];
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => errors.push(e) });
    trail.record({ action: 'sign_in', userId: 'A', ip: '10.0.0.1', details: { how: 'password' } });
    trail.record({ action: 'sign_out', userId: 'A', userLevel: 'SU' });
    expect(trail.queued).toBe(2);
    await trail.flush();
    expect(errors).toHaveLength(1);
    expect(trail.queued).toBe(2);
    fail = false;
    await trail.close();
    expect(entries()).toEqual([
      ['2026-03-15T06:30:00.000Z', 'sign_in', 'A', null, null, '10.0.0.1', { how: 'password' }],
      ['2026-03-15T06:30:00.000Z', 'sign_out', 'A', 'SU', null, null, {}],
    ]);
    expect(batches.map((b) => b.slice(0, 4))).toEqual([['2026-03-15T06:30:00.000Z', '2026-03-15T06:30:00.000Z', 2, ['A']]]);
    expect(trail.queued).toBe(0);
    const off = new AuditTrail({ db, flushMs: 1000, nowMs: () => Date.now(), enabled: false, onError: () => undefined });
    off.record({ action: 'sign_in' });
    expect(off.queued).toBe(0);
  });

  it('stores 1,000 entries a batch, with their first and last times, count and distinct users', async () => {
    const { db, batches, entries } = flakyDb();
    let ms = Date.parse('2026-03-15T06:30:00Z');
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => (ms += 7), enabled: true, onError: (e) => { throw e; } });
    for (let i = 0; i < 2_500; i += 1) trail.record({ action: 'report_run', userId: i % 3 === 0 ? null : `U${i % 4}`, report: 'r' });
    await trail.close();
    expect(batches.map((b) => b[2])).toEqual([1_000, 1_000, 500]);
    const all = entries();
    expect(all).toHaveLength(2_500);
    for (const [k, b] of batches.entries()) {
      const mine = all.slice(k * 1_000, k * 1_000 + 1_000);
      expect(b[0]).toBe(mine[0]?.[0]);
      expect(b[1]).toBe(mine.at(-1)?.[0]);
      expect([...(b[3] as string[])].sort()).toEqual([...new Set(mine.map((e) => e[2]).filter((u) => u !== null))].sort());
    }
  });

  it('keeps the text of every value as recorded, Hindi, quotes and control characters included; NUL becomes U+FFFD', async () => {
    const { db, entries } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => { throw e; } });
    const odd = 'हिंदी "q" \\ back\ttab\nline 😀';
    trail.record({ action: 'sign_in_failed', userId: `X\u0000Y`, report: odd, details: { filters: { v: odd, nul: 'a\u0000b', lit: '\\u0000' } } });
    await trail.close();
    expect(entries()).toEqual([
      ['2026-03-15T06:30:00.000Z', 'sign_in_failed', 'X\uFFFDY', null, odd, null, { filters: { v: odd, nul: 'a\uFFFDb', lit: '\\u0000' } }],
    ]);
  });

  it('puts back what a failed flush took, in order, ahead of entries recorded since', async () => {
    const { db, entries } = flakyDb((nth) => nth === 2); // the second batch of the first flush fails, and with it the first
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: () => undefined });
    for (let i = 0; i < 6_000; i += 1) trail.record({ action: 'report_run', userId: `U${i}` });
    await trail.flush();
    expect(entries()).toHaveLength(0);
    expect(trail.queued).toBe(6_000);
    trail.record({ action: 'report_run', userId: 'LATER' });
    await trail.close();
    const ids = entries().map((e) => e[2]);
    expect(ids).toHaveLength(6_001);
    expect(ids.slice(4_998, 5_002)).toEqual(['U4998', 'U4999', 'U5000', 'U5001']);
    expect(ids.at(-1)).toBe('LATER');
    expect(trail.counts).toMatchObject({ written: 6_001, dropped: 0, failedFlushes: 1 });
  });

  it('writes each entry at its own time to the millisecond, each batch within one month, and makes the partitions', async () => {
    const { db, batches, entries, partitions } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => Date.now(), enabled: true, onError: (e) => { throw e; } });
    const times = ['2026-03-31T23:59:59.999Z', '2026-04-01T00:00:00.000Z', '2026-04-01T00:00:00.007Z', '2026-03-31T23:59:59.050Z', '2026-04-01T00:00:01.090Z'];
    for (const t of times) trail.record({ action: 'sign_in', at: new Date(t) });
    await trail.flush();
    expect(entries().map((e) => e[0])).toEqual(times);
    expect(batches.map((b) => [b[0], b[1], b[2]])).toEqual([
      [times[0], times[0], 1],
      [times[1], times[2], 2],
      [times[3], times[3], 1],
      [times[4], times[4], 1],
    ]);
    expect(partitions).toEqual([['2026-03-01', '2026-04-01']]);
    trail.record({ action: 'sign_in', at: new Date('2026-04-02T10:00:00.100Z') });
    await trail.close();
    expect(partitions).toHaveLength(1); // April's partition is known to be there
  });

  it('gives up only a batch the database refuses as data, writing the others, instead of retrying it for ever', async () => {
    // A batch holding user BAD is refused (SQLSTATE 22021, as an invalid byte would be), every time it is sent.
    const refusal = Object.assign(new Error('invalid byte sequence'), { code: '22021' });
    const { db, entries } = flakyDb((_, params) => ((params[3] as string[]).includes('BAD') ? refusal : false));
    const errors: unknown[] = [];
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => errors.push(e) });
    for (let i = 0; i < 3_000; i += 1) trail.record({ action: 'report_run', userId: i === 1_500 ? 'BAD' : `U${i}` });
    await trail.flush();
    const ids = entries().map((e) => e[2]);
    expect(ids).toHaveLength(2_000);
    expect([ids[0], ids[999], ids[1_000], ids[1_999]]).toEqual(['U0', 'U999', 'U2000', 'U2999']);
    expect(trail.counts).toMatchObject({ written: 2_000, refused: 1_000, dropped: 0, failedFlushes: 0 });
    expect(trail.queued).toBe(0);
    expect(errors).toEqual([refusal]);
  });

  it('keeps an entry whose given time PostgreSQL cannot store at the server\'s time', async () => {
    const { db, entries } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => { throw e; } });
    trail.record({ action: 'sign_in', userId: 'NAN', at: new Date(Number.NaN) });
    trail.record({ action: 'sign_in', userId: 'BC', at: new Date('-010000-01-01T00:00:00Z') });
    await trail.close();
    expect(entries().map((e) => [e[0], e[2]])).toEqual([['2026-03-15T06:30:00.000Z', 'NAN'], ['2026-03-15T06:30:00.000Z', 'BC']]);
  });

  it('writes an entry made of a kept head and its figures as record() writes the whole entry, the head once a batch', async () => {
    const { db, batches } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00.042Z').getTime(), enabled: true, onError: (e) => { throw e; } });
    const odd = { v: 'हिंदी "q" \\ 😀', nul: 'a\u0000b', psgnName: 'R KUMAR' };
    const fields = { action: 'report_run', userId: 'X\u0000Y', userLevel: 'DIV', report: 'r', ip: '10.0.0.1' } as const;
    // Figures as JSON.stringify writes them: a count that is not a whole number as it is, or null when not finite; how
    // it was served escaped as JSON, and UTF-8 when not ASCII.
    const calls = [
      [{ trainNo: '12952' }, { rows: 3, ms: 12, served: 'hit' }],
      [odd, { rows: null, ms: 0, served: 'computed' }],
      [{ trainNo: '12952' }, { rows: 2.5, ms: 1234567, served: 'यात्री "q" \\ \u0001' }],
      [odd, { rows: Number.NaN, ms: 7, served: 'a\u0000b' }],
      [{}, { rows: -4, ms: 2 ** 53 + 2, served: '' }],
    ] as const;
    for (const [body, figures] of [...calls, ...calls]) {
      trail.record({ ...fields, detailsJson: sentFiltersJson(body, figures) });
      const text = JSON.stringify(body);
      let head = trail.findHead(text, fields.report, fields.userId, fields.userLevel, fields.ip);
      if (!head) trail.keepHead(text, fields.report, fields.userId, fields.userLevel, fields.ip, (head = entryHead(fields, sentFiltersJson(body, {}))));
      trail.recordCall(head, figures.rows, figures.ms, figures.served);
    }
    await trail.close();
    const params = batches[0] ?? [];
    const entries = wholeEntries(params);
    expect(entries).toHaveLength(20);
    for (let k = 0; k < 20; k += 2) expect(JSON.stringify(entries[k + 1])).toBe(JSON.stringify(entries[k]));
    expect(entries[3]).toEqual(['2026-03-15T06:30:00.042Z', 'report_run', 'X\uFFFDY', 'DIV', 'r', '10.0.0.1',
      { filters: { v: odd.v, nul: 'a\uFFFDb' }, removedFields: ['psgnName'], rows: null, ms: 0, served: 'computed' }]);
    expect(entries[5]?.[6]).toEqual({ filters: { trainNo: '12952' }, rows: 2.5, ms: 1234567, served: 'यात्री "q" \\ \u0001' });
    expect(entries[7]?.[6]).toMatchObject({ rows: null, ms: 7, served: 'a\uFFFDb' });
    expect(entries[9]?.[6]).toEqual({ filters: {}, rows: -4, ms: 2 ** 53 + 2, served: '' });
    // Each head is in the batch once, named by its place by every entry that uses it; those entries hold only figures.
    const stored = JSON.parse(String(params[4])) as unknown[][];
    expect(stored.filter((_, k) => k % 2 === 1).map((e) => e[1])).toEqual([0, 1, 0, 1, 2, 0, 1, 0, 1, 2]);
    expect(stored[1]?.[2]).toEqual({ rows: 3, ms: 12, served: 'hit' });
    expect((JSON.parse(String(params[5])) as unknown[]).length).toBe(3);
    expect(params[3]).toEqual(['X\uFFFDY']);
  });

  it('reuses a batch\'s buffer only once its INSERT has settled', async () => {
    // A database that holds each INSERT's bytes as sent (no copy) until the test lets it answer.
    const held: { sent: Buffer; copy: Buffer }[] = [];
    let answer: () => void = () => undefined;
    const query = async (sql: string, params?: readonly unknown[]) => {
      if (sql.startsWith('INSERT')) {
        const sent = params?.[4] as Buffer;
        held.push({ sent, copy: Buffer.from(sent) });
        await new Promise<void>((r) => (answer = r));
      }
      return { rows: [] };
    };
    const db = { query, transaction: async <T>(fn: (q: { query: typeof query }) => Promise<T>) => fn({ query }) } as unknown as Db;
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => { throw e; } });
    const head = entryHead({ action: 'report_run', userId: 'A' }, '{"filters":{}}');
    const fill = (rows: number): void => {
      for (let k = 0; k < 1_000; k += 1) trail.recordCall(head, rows, k, 'hit');
    };
    fill(1);
    const first = trail.flush();
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // Batches made while the first INSERT is under way get buffers of their own.
    fill(2);
    fill(3);
    expect(held[0]?.sent.equals(held[0].copy)).toBe(true);
    answer();
    await first;
    // Now the written batch's buffer is free: the next batches may take it, and the bytes sent must not matter any more.
    const second = trail.flush();
    for (let k = 0; k < 2; k += 1) {
      await vi.waitFor(() => expect(held).toHaveLength(2 + k));
      answer();
    }
    await second;
    fill(4);
    const third = trail.flush();
    await vi.waitFor(() => expect(held).toHaveLength(4));
    answer();
    await third;
    const rows = held.map((h) => (JSON.parse(h.copy.toString()) as [string, number, { rows: number }][]).map((e) => e[2].rows));
    expect(rows.map((r) => [r.length, new Set(r).size, r[0]])).toEqual([[1000, 1, 1], [1000, 1, 2], [1000, 1, 3], [1000, 1, 4]]);
    // The fourth batch was written into the third one's buffer, the last one freed.
    expect(held[3]?.sent.buffer).toBe(held[2]?.sent.buffer);
    expect(held[0]?.sent.buffer).not.toBe(held[1]?.sent.buffer);
  });

  it('writes a head again into the next batch, at its place there', async () => {
    const { db, batches } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: (e) => { throw e; } });
    const heads = ['A', 'B'].map((u) => entryHead({ action: 'report_run', userId: u }, '{"filters":{}}'));
    const [a, b] = heads as [EntryHead, EntryHead];
    trail.recordCall(a, 1, 0, 'hit');
    await trail.flush();
    trail.recordCall(b, 2, 0, 'hit');
    trail.recordCall(a, 3, 0, 'hit');
    // 1,000 entries fill a batch: the 1,001st starts another, whose heads start again at place 0.
    for (let k = 0; k < 998; k += 1) trail.recordCall(b, 4, 0, 'hit');
    trail.recordCall(a, 5, 0, 'hit');
    await trail.close();
    expect(batches.map((p) => (JSON.parse(String(p[5])) as unknown[][]).map((h) => h[1]))).toEqual([['A'], ['B', 'A'], ['A']]);
    expect(batches.map((p) => p[3])).toEqual([['A'], ['B', 'A'], ['A']]);
    expect(batches.flatMap(wholeEntries).map((e) => [e[2], e[6].rows])).toEqual([
      ['A', 1], ['B', 2], ['A', 3], ...Array.from({ length: 998 }, () => ['B', 4]), ['A', 5],
    ]);
  });

  it('finds the head kept for the same request text and fields only, and starts again past 4,096', () => {
    const { db } = flakyDb();
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => Date.now(), enabled: true, onError: () => undefined });
    let made = 0;
    const keep = (text: string, who: readonly (string | null)[]): EntryHead => {
      made += 1;
      const head = entryHead({ action: 'report_run', userId: `U${made}` }, '{"filters":{}}');
      trail.keepHead(text, who[0] ?? null, who[1] ?? null, who[2] ?? null, who[3] ?? null, head);
      return head;
    };
    const find = (text: string, who: readonly (string | null)[]): EntryHead | undefined => trail.findHead(text, who[0] ?? null, who[1] ?? null, who[2] ?? null, who[3] ?? null);
    const who: (string | null)[] = ['r', 'U', 'SU', '10.0.0.1'];
    expect(find('{"a":1}', who)).toBeUndefined();
    const first = keep('{"a":1}', who);
    // Equal strings, not the same string objects: a request's text and fields are new strings every time.
    expect(find(JSON.stringify({ a: 1 }), who.map((w) => (w === null ? null : ` ${w}`.slice(1))))).toBe(first);
    for (let k = 0; k < who.length; k += 1) {
      const other = [...who];
      other[k] = null;
      expect(find('{"a":1}', other)).toBeUndefined();
      keep('{"a":1}', other);
    }
    expect(find('{"a":1}', who)).toBe(first);
    expect(find('{"a":2}', who)).toBeUndefined();
    expect(made).toBe(5);
    for (let k = 0; made < 4_096; k += 1) keep(`{"b":${k}}`, who);
    expect(find('{"a":1}', who)).toBe(first); // still kept: 4,096 heads
    keep('{"c":1}', who); // the 4,097th: every head is dropped first
    expect(find('{"a":1}', who)).toBeUndefined();
    expect(find('{"c":1}', who)).toBeDefined();
  });

  it('keeps the newest 100,000 entries while the database is down, counting the oldest it dropped', async () => {
    let down = true;
    const { db, entries } = flakyDb(() => down);
    const trail = new AuditTrail({ db, flushMs: 1000, nowMs: () => new Date('2026-03-15T06:30:00Z').getTime(), enabled: true, onError: () => undefined });
    for (let i = 0; i < 150_000; i += 1) {
      trail.record({ action: 'report_run', userId: `U${i}` });
      if (i % 40_000 === 39_999) await trail.flush(); // fails: what it took goes back
    }
    expect(trail.queued).toBeLessThanOrEqual(100_000);
    expect(trail.queued + trail.counts.dropped).toBe(150_000);
    down = false;
    await trail.close();
    const ids = entries().map((e) => e[2]);
    expect(ids.at(-1)).toBe('U149999');
    expect(ids[0]).toBe(`U${trail.counts.dropped}`); // the oldest dropped, the rest kept in order
    expect(ids).toHaveLength(150_000 - trail.counts.dropped);
  });
});

/** The values of one line of COPY text, as PostgreSQL reads it: \N is NULL, a backslash escapes the next character. */
function readCopyLine(line: string): (string | null)[] {
  const unescaped: Record<string, string> = { t: '\t', n: '\n', r: '\r' };
  return line.split('\t').map((f) => (f === '\\N' ? null : f.replace(/\\(.)/g, (_, c: string) => unescaped[c] ?? c)));
}

describe('COPY text', () => {
  it('reads back every value as copyValue wrote it', () => {
    const values = ['plain', 'tab\there', 'line\nbreak\r', 'back\\slash \\N', 'हिंदी', '', null, '{"a":"x\\ty"}'];
    expect(readCopyLine(values.map(copyValue).join('\t'))).toEqual(values);
  });
});
