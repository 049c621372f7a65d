import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { withoutPersonalFields } from '../../src/server/audit/redact';
import { PortalFileEvents } from '../../src/server/audit/file-events';
import { AuditTrail } from '../../src/server/audit/trail';
import type { AuditEvent } from '../../src/server/audit/actions';
import type { Db } from '../../src/server/db';
import { copyValue, parseCopyLine } from '../../src/server/db/copy-text';

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

describe('audit trail queue', () => {
  it('writes nothing on the request path, keeps entries when the database fails, and writes them later', async () => {
    let fail = true;
    const written: unknown[][] = [];
    const tx = {
      query: async (sql: string, params?: readonly unknown[]) => {
        if (sql.startsWith('INSERT')) {
          if (fail) throw new Error('database down');
          written.push([...(params?.[1] as unknown[])]);
        }
        return { rows: [] };
      },
      exec: async () => undefined,
    };
    // Not PostgreSQL (no driver named): partitions through query, entries through a transaction's INSERT.
    const db = { query: tx.query, transaction: async <T>(fn: (q: typeof tx) => Promise<T>) => fn(tx) } as unknown as Db; // only these two are used
    const errors: unknown[] = [];
    const trail = new AuditTrail({ db, flushMs: 1000, now: () => new Date('2026-03-15T06:30:00Z'), enabled: true, onError: (e) => errors.push(e) });
    trail.record({ action: 'sign_in', userId: 'A' });
    trail.record({ action: 'sign_out', userId: 'A' });
    expect(trail.queued).toBe(2);
    await trail.flush();
    expect(errors).toHaveLength(1);
    expect(trail.queued).toBe(2);
    fail = false;
    await trail.close();
    expect(written).toEqual([['sign_in', 'sign_out']]);
    expect(trail.queued).toBe(0);
    const off = new AuditTrail({ db, flushMs: 1000, now: () => new Date(), enabled: false, onError: () => undefined });
    off.record({ action: 'sign_in' });
    expect(off.queued).toBe(0);
  });

  /** A database whose trail INSERTs fail while `fail(nth insert)` says so, keeping each written batch's user ids. */
  function flakyDb(fail: (nth: number) => boolean): { db: Db; written: string[][] } {
    const written: string[][] = [];
    let n = 0;
    const tx = {
      query: async (sql: string, params?: readonly unknown[]) => {
        if (sql.startsWith('INSERT')) {
          n += 1;
          if (fail(n)) throw new Error('database down');
          written.push([...(params?.[2] as string[])]);
        }
        return { rows: [] };
      },
      exec: async () => undefined,
    };
    const db = { query: tx.query, transaction: async <T>(fn: (q: typeof tx) => Promise<T>) => fn(tx) } as unknown as Db; // only these two are used
    return { db, written };
  }

  it('puts back what a failed batch left, in order, ahead of entries recorded since', async () => {
    const { db, written } = flakyDb((nth) => nth === 2); // the second batch of the first flush fails
    const trail = new AuditTrail({ db, flushMs: 1000, now: () => new Date('2026-03-15T06:30:00Z'), enabled: true, onError: () => undefined });
    for (let i = 0; i < 6_000; i += 1) trail.record({ action: 'report_run', userId: `U${i}` });
    await trail.flush();
    expect(written.flat()).toHaveLength(5_000); // the first batch
    expect(trail.queued).toBe(1_000);
    trail.record({ action: 'report_run', userId: 'LATER' });
    await trail.close();
    const ids = written.flat();
    expect(ids).toHaveLength(6_001);
    expect(ids.slice(4_998, 5_002)).toEqual(['U4998', 'U4999', 'U5000', 'U5001']);
    expect(ids.at(-1)).toBe('LATER');
    expect(trail.counts).toMatchObject({ written: 6_001, dropped: 0, failedFlushes: 1 });
  });

  it('writes each entry at its own time to the millisecond, and makes the partitions of every month it falls in', async () => {
    const at: unknown[] = [];
    const partitions: unknown[][] = [];
    const tx = {
      query: async (sql: string, params?: readonly unknown[]) => {
        if (sql.startsWith('INSERT')) at.push(...(params?.[0] as unknown[]));
        if (sql.includes('audit_ensure_partitions')) partitions.push([...(params ?? [])]);
        return { rows: [] };
      },
      exec: async () => undefined,
    };
    const db = { query: tx.query, transaction: async <T>(fn: (q: typeof tx) => Promise<T>) => fn(tx) } as unknown as Db; // only these two are used
    const trail = new AuditTrail({ db, flushMs: 1000, now: () => new Date(), enabled: true, onError: (e) => { throw e; } });
    const times = ['2026-03-31T23:59:59.999Z', '2026-04-01T00:00:00.000Z', '2026-04-01T00:00:00.007Z', '2026-03-31T23:59:59.050Z', '2026-04-01T00:00:01.090Z'];
    for (const t of times) trail.record({ action: 'sign_in', at: new Date(t) });
    await trail.flush();
    expect(at).toEqual(times);
    expect(partitions).toEqual([['2026-03-01', '2026-04-01']]);
    trail.record({ action: 'sign_in', at: new Date('2026-04-02T10:00:00.100Z') });
    await trail.close();
    expect(partitions).toHaveLength(1); // April's partition is known to be there
  });

  it('keeps the newest 100,000 entries while the database is down, counting the oldest it dropped', async () => {
    let down = true;
    const { db, written } = flakyDb(() => down);
    const trail = new AuditTrail({ db, flushMs: 1000, now: () => new Date('2026-03-15T06:30:00Z'), enabled: true, onError: () => undefined });
    for (let i = 0; i < 150_000; i += 1) {
      trail.record({ action: 'report_run', userId: `U${i}` });
      if (i % 40_000 === 39_999) await trail.flush(); // fails: what it took goes back
    }
    expect(trail.queued).toBeLessThanOrEqual(100_000);
    expect(trail.queued + trail.counts.dropped).toBe(150_000);
    down = false;
    await trail.close();
    const ids = written.flat();
    expect(ids.at(-1)).toBe('U149999');
    expect(ids[0]).toBe(`U${trail.counts.dropped}`); // the oldest dropped, the rest kept in order
    expect(ids).toHaveLength(150_000 - trail.counts.dropped);
  });
});

describe('COPY text', () => {
  it('reads back every value as copyValue wrote it', () => {
    const values = ['plain', 'tab\there', 'line\nbreak\r', 'back\\slash \\N', 'हिंदी', '', null, '{"a":"x\\ty"}'];
    expect(parseCopyLine(values.map(copyValue).join('\t'))).toEqual(values);
  });
});

