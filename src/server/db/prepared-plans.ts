/**
 * Which report statements keep running prepared (pg-driver.ts). PostgreSQL plans a prepared statement's first five
 * executions in a session for their values (custom plans), then may switch to one generic plan when it estimates
 * that plan no dearer; on skewed data that estimate can be badly wrong (a national TTE Manning went from 80 ms to
 * 1.9 s). So the time of each statement's executions is kept per process, and when its later executions look slower
 * than its first ones, a trial decides: the next executions alternate unprepared and prepared, and the statement
 * runs unprepared from then on only if its prepared executions are clearly slower than the unprepared ones.
 *
 * Only executions that ran alone in this process are timed (begin/end): under load every execution slows down,
 * prepared or not, and single times spread so widely that comparing them unprepared the load bench's light report
 * in the middle of its load (two server processes at 50 connections each on two cores). The cost: while a process
 * is never without a report query under way, a wrong generic plan is not caught until it has a quiet moment.
 *
 * A statement whose first runs alone take HEAVY_MS or more is not prepared again at all: its planning (at most about
 * a millisecond for our reports) is then a few per cent of its time, while a wrong generic plan for it costs seconds
 * (national TTE Manning: 190 ms custom, 4.1 s on the sixth run), and the guard could only notice after one such run.
 */

/** Executions per session PostgreSQL plans for their values before it may choose a generic plan. */
export const CUSTOM_PLAN_RUNS = 5;
/** Later executions compared before a trial starts; one much slower execution starts it at once. */
export const LATER_RUNS_TO_JUDGE = 2;
/** Pairs (one unprepared, one prepared) a trial compares, unless two pairs already show a gross difference. */
export const TRIAL_PAIRS = 5;
/** Executions after a trial that kept the statement prepared before another trial may start. */
export const TRIAL_COOLDOWN = 100;
const KEEP = 20;
/** First runs (alone, planned for their values) whose lower time decides whether a statement is heavy. */
export const HEAVY_RUNS = 2;
/** A statement this slow in its first runs gains nothing worth a wrong generic plan's risk from being prepared. */
export const HEAVY_MS = 50;

/** The middle value; of an even count the lower one, so one slow run among two does not decide. */
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

/** `slow` is grossly slower than `fast`: what a wrong generic plan costs, far beyond any measurement noise. */
const grossly = (slow: number, fast: number): boolean => slow > 10 * fast + 50;

interface PlanTimes {
  /** The baseline: first executions in their sessions (custom plans), or the prepared runs of the last trial. */
  first: number[];
  later: number[];
  unprepared: boolean;
  /** The prepared run that started the trial is kept apart: it was picked for being slow. */
  trial: { trigger: number; usual: number; prepared: number[]; unprepared: number[] } | undefined;
  /** Executions still to go before another trial may start. */
  cooldown: number;
}

export type ExecutionKind = 'prepared' | 'unprepared';

export class PreparedPlans {
  private readonly records = new Map<string, PlanTimes>();
  /** Report queries under way in this process, and how many have started: whether an execution ran alone. */
  private running = 0;
  private started = 0;

  /** An execution starts; give its token to end(). */
  begin(): number {
    this.running += 1;
    this.started += 1;
    return this.running === 1 ? this.started : -1;
  }

  /** An execution ended: true when it was the only report query of this process from its start to its end. */
  end(token: number): boolean {
    const solo = token === this.started && this.running === 1;
    this.running -= 1;
    return solo;
  }

  /**
   * How the statement's next execution runs: unprepared once decided; during a trial, unprepared in turn with
   * prepared, starting unprepared, and only when nothing else runs (a run that overlaps others is not timed).
   */
  next(name: string): ExecutionKind {
    const r = this.records.get(name);
    if (!r) return 'prepared';
    if (r.unprepared) return 'unprepared';
    return r.trial && this.running === 0 && r.trial.unprepared.length <= r.trial.prepared.length ? 'unprepared' : 'prepared';
  }

  /** Whether the statement may run prepared at all (false once decided). */
  allowed(name: string): boolean {
    return this.records.get(name)?.unprepared !== true;
  }

  /**
   * Notes one execution: `run` is a prepared execution's number in its session (1-based; ignored for unprepared
   * ones), `ms` what it took, `kind` how it ran (next()), `solo` whether it was the only report query this process
   * had under way from its start to its end (end()); others are not timed. Returns true when this made the statement
   * unprepared from now on.
   */
  note(name: string, run: number, ms: number, kind: ExecutionKind = 'prepared', solo = true): boolean {
    if (!solo) return false;
    let r = this.records.get(name);
    if (!r) {
      r = { first: [], later: [], unprepared: false, trial: undefined, cooldown: 0 };
      this.records.set(name, r);
    }
    if (r.unprepared) return false;
    if (r.trial) return this.noteTrial(r, ms, kind);
    if (kind === 'unprepared') return false; // not asked for by a trial (a session out of room): nothing to compare
    const list = run <= CUSTOM_PLAN_RUNS ? r.first : r.later;
    list.push(ms);
    if (list.length > KEEP) list.shift();
    if (list === r.first && r.first.length === HEAVY_RUNS && r.later.length === 0 && median(r.first) >= HEAVY_MS) {
      r.unprepared = true; // heavy: decided before PostgreSQL may switch any session to a generic plan (run 6)
      return true;
    }
    if (run <= CUSTOM_PLAN_RUNS || r.first.length === 0) return false;
    if (r.cooldown > 0) {
      r.cooldown -= 1;
      return false;
    }
    const usual = median(r.first);
    // Much slower at once (perhaps a wrong generic plan), or slower over a few runs (not one noisy moment).
    if (grossly(ms, usual) || (r.later.length >= LATER_RUNS_TO_JUDGE && median(r.later) > 1.25 * usual + 1)) {
      r.trial = { trigger: ms, usual, prepared: [], unprepared: [] };
    }
    return false;
  }

  private noteTrial(r: PlanTimes, ms: number, kind: ExecutionKind): boolean {
    const trial = r.trial;
    if (!trial) return false;
    trial[kind].push(ms);
    const pairs = Math.min(trial.prepared.length, trial.unprepared.length);
    // A wrong generic plan (1.9 s against 80 ms): the first unprepared run, as quick as the first runs were, decides.
    // Otherwise (the machine busy with other processes) every prepared run, the trigger too, must be grossly slower
    // than every unprepared one over two pairs, or slower by half in the median of TRIAL_PAIRS pairs.
    const quiet = kind === 'unprepared' && trial.unprepared.length === 1 && ms <= 2 * trial.usual + 5 && grossly(trial.trigger, ms);
    const gross =
      quiet || (trial.unprepared.length >= 2 && grossly(Math.min(trial.trigger, ...trial.prepared), Math.max(...trial.unprepared)));
    const worse = gross || (pairs >= TRIAL_PAIRS && median(trial.prepared) > 1.5 * median(trial.unprepared) + 1);
    if (worse) {
      r.unprepared = true;
      r.trial = undefined;
      return true;
    }
    if (pairs >= TRIAL_PAIRS) {
      // Kept prepared: what it costs now (under the present load) is the new baseline.
      r.trial = undefined;
      r.first = [...trial.prepared];
      r.later = [];
      r.cooldown = TRIAL_COOLDOWN;
    }
    return false;
  }

  /** Statements this process no longer prepares (for logs and tests). */
  unprepared(): string[] {
    return [...this.records].filter(([, r]) => r.unprepared).map(([name]) => name);
  }
}
