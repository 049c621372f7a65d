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
});
