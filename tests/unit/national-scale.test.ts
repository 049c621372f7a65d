import { describe, expect, it } from 'vitest';
import { buildReference } from '../../src/server/demo/reference';
import { NATIONAL_PAIRS } from '../../src/server/demo/reference/national';
import { nationalPnr } from '../../src/server/demo/national';
import { runsOn } from '../../src/server/demo/runs';
import { copyValue } from '../../src/server/db/copy-text';
import { formatProgress } from '../../src/server/demo/progress';
import { MIN_RETENTION_DAYS, loadConfig, ConfigError } from '../../src/server/config';
import { WINDOW_PAST } from '../../src/server/demo';

describe('national scale catalogue', () => {
  const ref = buildReference('national');
  const large = buildReference('large');

  it('keeps every large-scale train and adds generated up/down pairs with unique 5-digit numbers', () => {
    const numbers = ref.trains.map((t) => t.row.train_no);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of numbers) expect(n).toMatch(/^\d{5}$/);
    for (const t of large.trains) expect(numbers).toContain(t.row.train_no);
    expect(ref.trains.length).toBe(large.trains.length + 2 * NATIONAL_PAIRS);
  });

  it('runs about 3,000 trains a day, spread over every zone and train type', () => {
    for (const date of ['2026-11-16', '2026-11-22']) {
      const runs = ref.trains.filter((t) => runsOn(t, date));
      expect(runs.length).toBeGreaterThan(2_900);
      expect(runs.length).toBeLessThan(3_400);
    }
    const zones = new Map<string, number>();
    const types = new Map<string, number>();
    for (const t of ref.trains) {
      zones.set(t.row.zone_code, (zones.get(t.row.zone_code) ?? 0) + 1);
      types.set(t.row.train_type, (types.get(t.row.train_type) ?? 0) + 1);
    }
    expect([...zones.keys()].sort()).toEqual(['CR', 'ECR', 'ER', 'NCR', 'NR', 'SCR', 'SR', 'WCR', 'WR']);
    for (const n of zones.values()) expect(n).toBeGreaterThan(30);
    expect(types.size).toBe(6);
    // Mail/express and superfast trains are most of the reserved services, premium ones a minority.
    expect((types.get('MAIL_EXP') ?? 0) + (types.get('SUPERFAST') ?? 0)).toBeGreaterThan(ref.trains.length * 0.7);
  });

  it('is a pure function of the scale', () => {
    const again = buildReference('national');
    expect(again.trains.map((t) => [t.row.train_no, t.row.run_days, t.stops.length, t.consist.length])).toEqual(
      ref.trains.map((t) => [t.row.train_no, t.row.run_days, t.stops.length, t.consist.length]),
    );
  });
});

describe('national PNRs', () => {
  it('are 10 digits and unique over days, train slots and sequences', () => {
    const seen = new Set<string>();
    for (const day of [9_800, 9_801, 9_800 + 1_199]) {
      for (const train of [0, 1, 99, 100, 3_658]) {
        for (const seq of [1, 2, 1_999]) {
          const pnr = nationalPnr(day, train, seq);
          expect(pnr).toMatch(/^\d{10}$/);
          expect(seen.has(pnr)).toBe(false);
          seen.add(pnr);
        }
      }
    }
  });

  it('refuse a train slot or sequence beyond their range', () => {
    expect(() => nationalPnr(1, 4_000, 1)).toThrow(/out of range/);
    expect(() => nationalPnr(1, 1, 2_000)).toThrow(/out of range/);
  });
});

describe('COPY text values', () => {
  it('escapes text, writes NULL, booleans and arrays', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue(undefined)).toBe('\\N');
    expect(copyValue(true)).toBe('true');
    expect(copyValue(12.5)).toBe('12.5');
    expect(copyValue('a\tb\nc\\d')).toBe('a\\tb\\nc\\\\d');
    expect(copyValue(['B1', 'A"1'])).toBe('{"B1","A\\"1"}'.replace(/\\/g, '\\\\'));
    expect(copyValue({ a: 1 })).toBe('{"a":1}');
    expect(() => copyValue(() => 1)).toThrow(/cannot COPY/);
  });
});

describe('load progress line', () => {
  it('shows share, rows, rate and ETA', () => {
    const line = formatProgress({ runs: 750, totalRuns: 3_000, rows: 1_000_000, passengers: 500_000, seconds: 20, label: 'day 1/7 2026-11-16' });
    expect(line).toContain('25.0%');
    expect(line).toContain('750/3,000 runs');
    expect(line).toContain('50,000 rows/s');
    expect(line).toContain('ETA 1 min 0 s');
  });
});

describe('HHT_RETENTION_DAYS', () => {
  it('keeps at least the demo window', () => {
    expect(MIN_RETENTION_DAYS).toBe(WINDOW_PAST + 1);
    expect(loadConfig({ HHT_RETENTION_DAYS: '45' }).retentionDays).toBe(45);
    expect(loadConfig({}).retentionDays).toBeUndefined();
    expect(() => loadConfig({ HHT_RETENTION_DAYS: '7' })).toThrow(ConfigError);
    let problems: string[] = [];
    try {
      loadConfig({ HHT_RETENTION_DAYS: 'ten' });
    } catch (err) {
      if (err instanceof ConfigError) problems = err.problems;
    }
    expect(problems.join(' ')).toContain('HHT_RETENTION_DAYS must be a whole number from 31');
  });
});
