import { describe, expect, it } from 'vitest';
import { clockMs, manualClock, shiftableClock, systemClock } from '../../src/server/clock';

describe('a clock read as a number (clockMs)', () => {
  it('is the time of now() on a clock that gives no number of its own', () => {
    const clock = manualClock(new Date('2026-03-15T06:30:00.042Z'));
    expect(clock.nowMs).toBeUndefined();
    expect(clockMs(clock)).toBe(Date.UTC(2026, 2, 15, 6, 30, 0, 42));
    clock.advance(1_000);
    expect(clockMs(clock)).toBe(Date.UTC(2026, 2, 15, 6, 30, 1, 42));
  });

  it('moves with a shifted clock exactly as its Date does', async () => {
    const base = manualClock(new Date('2026-03-15T06:30:00Z'));
    const clock = shiftableClock(base);
    await clock.advance(90 * 60_000);
    expect(clockMs(clock)).toBe(Date.UTC(2026, 2, 15, 8, 0));
    expect(clockMs(clock)).toBe(clock.now().getTime());
    base.advance(5);
    expect(clockMs(clock)).toBe(clock.now().getTime());
    expect(clockMs(clock)).toBe(Date.UTC(2026, 2, 15, 8, 0, 0, 5));
  });

  it('is the system time on the system clock', () => {
    const before = Date.now();
    const ms = clockMs(systemClock);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});
