/** Time source injected into the app, so tests can control 'now' (OTP expiry, rolling window, train strip). */
export interface Clock {
  now(): Date;
  /** The same time in ms since 1970, where a clock can give it without making a Date (an audit entry per call). */
  nowMs?(): number;
}

/** The time of a clock in ms since 1970. */
export function clockMs(clock: Clock): number {
  return clock.nowMs ? clock.nowMs() : clock.now().getTime();
}

export const systemClock: Clock = { now: () => new Date(), nowMs: () => Date.now() };

/** A clock that tests move by hand. */
export function manualClock(start: Date): Clock & { set(d: Date): void; advance(ms: number): void } {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = d.getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/**
 * A clock the test hooks move forward (HHT_TEST_HOOKS=1 only): the base clock plus an offset. Whatever follows the
 * clock (the live feed) registers to run after each move, so a test sees the data of the new time at once.
 */
export interface ShiftableClock extends Clock {
  /** Moves the clock forward and waits for what follows it; returns the total offset (ms). */
  advance(ms: number): Promise<number>;
  onAdvance(listener: () => Promise<unknown>): void;
}

export function shiftableClock(base: Clock): ShiftableClock {
  let offset = 0;
  const listeners: (() => Promise<unknown>)[] = [];
  return {
    now: () => new Date(clockMs(base) + offset),
    nowMs: () => clockMs(base) + offset,
    advance: async (ms) => {
      offset += ms;
      for (const listener of listeners) await listener();
      return offset;
    },
    onAdvance: (listener) => {
      listeners.push(listener);
    },
  };
}

export function isShiftable(clock: Clock): clock is ShiftableClock {
  return typeof (clock as Partial<ShiftableClock>).advance === 'function' && typeof (clock as Partial<ShiftableClock>).onAdvance === 'function';
}

/** Calendar date in India (IST, UTC+5:30), as 'YYYY-MM-DD': railway days are Indian days. */
export function istDate(d: Date): string {
  return new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}
