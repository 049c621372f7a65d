/**
 * Which report statements keep running prepared (pg-driver.ts). PostgreSQL plans a prepared statement's first five
 * executions in a session for their values (custom plans), then may switch to one generic plan when it estimates
 * that plan no dearer; on skewed data that estimate can be badly wrong (a national TTE Manning went from 80 ms to
 * 1.9 s). So the time of each statement's executions is kept per process: once its later executions (possibly
 * generic) are clearly slower than its first ones, it runs unprepared (planned for its values every time) in every
 * session of this process from then on.
 */

/** Executions per session PostgreSQL plans for their values before it may choose a generic plan. */
export const CUSTOM_PLAN_RUNS = 5;
/** Later executions compared before deciding; one much slower execution decides at once. */
const LATER_RUNS_TO_JUDGE = 2;
const KEEP = 20;

/** The middle value; of an even count the lower one, so one slow run among two does not decide. */
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

interface PlanTimes {
  first: number[];
  later: number[];
  unprepared: boolean;
}

export class PreparedPlans {
  private readonly records = new Map<string, PlanTimes>();

  /** Whether the statement may run prepared. */
  allowed(name: string): boolean {
    return this.records.get(name)?.unprepared !== true;
  }

  /**
   * Notes one prepared execution: `run` is its number in its session (1-based), `ms` what it took. Returns true when
   * this made the statement unprepared from now on.
   */
  note(name: string, run: number, ms: number): boolean {
    let r = this.records.get(name);
    if (!r) {
      r = { first: [], later: [], unprepared: false };
      this.records.set(name, r);
    }
    if (r.unprepared) return false;
    const list = run <= CUSTOM_PLAN_RUNS ? r.first : r.later;
    list.push(ms);
    if (list.length > KEEP) list.shift();
    if (run <= CUSTOM_PLAN_RUNS || r.first.length === 0) return false;
    const usual = median(r.first);
    // Much slower at once (a wrong generic plan), or slower over a few runs (not one noisy moment).
    const worse = ms > 10 * usual + 50 || (r.later.length >= LATER_RUNS_TO_JUDGE && median(r.later) > 1.25 * usual + 1);
    if (worse) r.unprepared = true;
    return worse;
  }

  /** Statements this process no longer prepares (for logs and tests). */
  unprepared(): string[] {
    return [...this.records].filter(([, r]) => r.unprepared).map(([name]) => name);
  }
}
