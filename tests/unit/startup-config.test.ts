import { spawnSync } from 'node:child_process';
import { LogSmsSender } from '../../src/server/auth/sms';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    encoding: 'utf8',
    env: { ...process.env, HHT_DATA_DIR: '.tmp/never-used', ...env },
    timeout: 60_000,
  });

describe('start-up with bad configuration', () => {
  it('PORT=abc stops with one clear line and no stack trace', () => {
    const r = start({ PORT: 'abc' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual(['IR-HHT Portal cannot start: PORT must be a whole number from 0 to 65535, got "abc"']);
  }, 60_000);

  it('an unreachable DATABASE_URL stops with one clear line naming it, without the password', () => {
    const r = start({ DATABASE_URL: 'postgresql://hht:secret@127.0.0.1:1/hht' });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^IR-HHT Portal cannot start: cannot connect to DATABASE_URL postgresql:\/\/127\.0\.0\.1:1\/hht \(.*ECONNREFUSED/);
    expect(r.stderr).not.toContain('secret');
  }, 60_000);

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: '99999', HHT_SEED: 'lots', NODE_ENV: 'production', HHT_TEST_HOOKS: '1' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535, got "99999"',
        'HHT_SEED must be "demo" or "none", got "lots"',
        'HHT_TEST_HOOKS=1 is refused when NODE_ENV=production',
        'HHT_JWT_SECRET must be set when NODE_ENV=production',
      ]);
    }
  });

  it('checks the export settings and reads good ones', () => {
    expect(() => loadConfig({ HHT_EXPORT_BATCH_ROWS: '0', HHT_MAX_EXPORTS: 'many' })).toThrow(
      'HHT_EXPORT_BATCH_ROWS must be a whole number from 1 to 50000, got "0"; HHT_MAX_EXPORTS must be a whole number from 1 to 64, got "many"',
    );
    const c = loadConfig({ HHT_EXPORT_BATCH_ROWS: '250', HHT_MAX_EXPORTS: '2' });
    expect([c.exportBatchRows, c.maxExports]).toEqual([250, 2]);
    expect([loadConfig({}).exportBatchRows, loadConfig({}).maxExports]).toEqual([1000, 4]);
  });

  it('checks the report sessions\' work_mem and reads a good one', () => {
    for (const bad of ['16', '0MB', '2048MB', '16 MB', '1GB']) {
      expect(() => loadConfig({ HHT_REPORT_WORK_MEM: bad })).toThrow(`HHT_REPORT_WORK_MEM must be from 1MB to 1024MB (e.g. 16MB), got "${bad}"`);
    }
    expect(loadConfig({ HHT_REPORT_WORK_MEM: '64MB' }).reportWorkMem).toBe('64MB');
    expect(loadConfig({}).reportWorkMem).toBe('16MB');
  });

  it('checks the replica settings and reads good ones', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgresql://r1/hht', DATABASE_REPLICA_MAX_LAG_MS: 'soon' })).toThrow(
      'DATABASE_REPLICA_URLS is set but DATABASE_URL is not (replicas follow a PostgreSQL primary); DATABASE_REPLICA_MAX_LAG_MS must be a whole number from 0 to 600000, got "soon"',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://p/hht', DATABASE_REPLICA_URLS: 'postgresql://r1/hht,mysql://r2' })).toThrow(
      'DATABASE_REPLICA_URLS entry 2 must start with postgres:// or postgresql://',
    );
    const c = loadConfig({ DATABASE_URL: 'postgresql://p/hht', DATABASE_REPLICA_URLS: ' postgresql://r1/hht , postgres://r2/hht,', DATABASE_REPLICA_MAX_LAG_MS: '0' });
    expect([c.databaseReplicaUrls, c.replicaMaxLagMs]).toEqual([['postgresql://r1/hht', 'postgres://r2/hht'], 0]);
    expect([loadConfig({}).databaseReplicaUrls, loadConfig({}).replicaMaxLagMs]).toEqual([[], 2000]);
  });
});

describe('the demo SMS log line', () => {
  it('names the user with the OTP and masks the number', async () => {
    const lines: string[] = [];
    await new LogSmsSender((l) => lines.push(l)).send('9876543210', '123456 is your IR-HHT Portal login OTP', 'HHTDIV');
    expect(lines).toEqual(['OTP SMS for HHTDIV to 98******10: 123456 is your IR-HHT Portal login OTP']);
  });
});
