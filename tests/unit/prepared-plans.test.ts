import { describe, expect, it } from 'vitest';
import { CUSTOM_PLAN_RUNS, HEAVY_MS, HEAVY_RUNS, PreparedPlans, TRIAL_COOLDOWN, TRIAL_PAIRS } from '../../src/server/db/prepared-plans';

/** The first CUSTOM_PLAN_RUNS executions of a statement in a session, each taking `ms`. */
function firstRuns(p: PreparedPlans, name: string, ms: number): void {
  for (let run = 1; run <= CUSTOM_PLAN_RUNS; run += 1) {
    expect(p.next(name)).toBe('prepared');
    expect(p.note(name, run, ms)).toBe(false);
  }
}

/**
 * Runs executions as the driver does (next() says how) until `count` are done or the statement is unprepared;
 * `ms(kind)` is what each takes. Returns the kinds in order.
 */
function drive(p: PreparedPlans, name: string, fromRun: number, count: number, ms: (kind: 'prepared' | 'unprepared') => number): string[] {
  const kinds: string[] = [];
  let run = fromRun;
  for (let i = 0; i < count; i += 1) {
    const kind = p.next(name);
    kinds.push(kind);
    p.note(name, kind === 'prepared' ? run++ : 0, ms(kind), kind);
  }
  return kinds;
}

describe('prepared report statements: which keep running prepared', () => {
  it('a statement whose later executions stay as fast keeps running prepared, and no trial runs', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'a', 2);
    const kinds = drive(p, 'a', CUSTOM_PLAN_RUNS + 1, 40, () => 1.1);
    expect(kinds.every((k) => k === 'prepared')).toBe(true);
    expect(p.unprepared()).toEqual([]);
  });

  it(`a statement whose first ${HEAVY_RUNS} runs alone take ${HEAVY_MS} ms or more is unprepared before any generic plan`, () => {
    const p = new PreparedPlans();
    expect(p.note('manning', 1, 190)).toBe(false);
    expect(p.note('manning', 1, 5, 'prepared', false)).toBe(false); // overlapped: not timed
    expect(p.note('manning', 2, 185)).toBe(true);
    expect(p.next('manning')).toBe('unprepared');
    expect(p.unprepared()).toEqual(['manning']);
    // One slow first run (a cold cache) among quick ones is not heavy; nor is a statement just under the line.
    expect(p.note('cold', 1, 900)).toBe(false);
    expect(p.note('cold', 2, 4)).toBe(false);
    expect(p.note('edge', 1, HEAVY_MS - 1)).toBe(false);
    expect(p.note('edge', 2, HEAVY_MS + 10)).toBe(false);
    firstRuns(p, 'later', 2);
    expect(p.note('later', CUSTOM_PLAN_RUNS + 1, HEAVY_MS * 2)).toBe(false); // later runs are the guard's, not this rule's
    expect(p.unprepared()).toEqual(['manning']);
  });

  it('a wrong generic plan: the first unprepared run, as quick as the first runs, decides', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'manning', 30);
    expect(p.note('manning', CUSTOM_PLAN_RUNS + 1, 1900)).toBe(false); // a trial starts
    expect(p.next('manning')).toBe('unprepared');
    expect(p.note('manning', 0, 32, 'unprepared')).toBe(true);
    expect(p.next('manning')).toBe('unprepared');
  });

  it('executions that overlapped other report queries are not timed: load decides nothing', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'light', 1.8);
    for (let run = CUSTOM_PLAN_RUNS + 1; run < 60; run += 1) expect(p.note('light', run, 30 + (run % 5) * 40, 'prepared', false)).toBe(false);
    expect(p.next('light')).toBe('prepared'); // no trial began
    expect(p.allowed('light')).toBe(true);
  });

  it('a trial runs unprepared only when nothing else runs in the process', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'q', 30);
    p.note('q', CUSTOM_PLAN_RUNS + 1, 1900); // a trial starts
    const other = p.begin();
    expect(p.next('q')).toBe('prepared'); // another query is under way: this run would not be timed
    p.end(other);
    expect(p.next('q')).toBe('unprepared');
  });

  it('begin/end tell an execution that ran alone from one that overlapped another', () => {
    const p = new PreparedPlans();
    const a = p.begin();
    expect(p.end(a)).toBe(true);
    const b = p.begin();
    const c = p.begin(); // starts while b runs
    expect(p.end(c)).toBe(false);
    expect(p.end(b)).toBe(false);
    const d = p.begin();
    const e = p.begin(); // starts and ends within d
    expect(p.end(e)).toBe(false);
    expect(p.end(d)).toBe(false);
    expect(p.end(p.begin())).toBe(true);
  });

  it('a wrong generic plan when the unprepared run is slow too (other processes busy): one more pair decides', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'manning', 30);
    expect(p.note('manning', CUSTOM_PLAN_RUNS + 1, 1900)).toBe(false); // a trial starts
    expect(p.next('manning')).toBe('unprepared');
    expect(p.note('manning', 0, 170, 'unprepared')).toBe(false); // over twice the first runs: not quiet, no decision
    expect(p.next('manning')).toBe('prepared');
    expect(p.note('manning', CUSTOM_PLAN_RUNS + 2, 2600)).toBe(false);
    expect(p.next('manning')).toBe('unprepared');
    expect(p.note('manning', 0, 175, 'unprepared')).toBe(true); // 1.9-2.6 s prepared against 170-175 ms unprepared
    expect(p.allowed('manning')).toBe(false);
    expect(p.next('manning')).toBe('unprepared');
    expect(p.allowed('other')).toBe(true);
    expect(p.unprepared()).toEqual(['manning']);
  });

  it('later executions somewhat slower, and the trial shows unprepared runs clearly faster: unprepared', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'summary', 40);
    p.note('summary', 6, 100); // one run: could be the machine
    expect(p.next('summary')).toBe('prepared');
    p.note('summary', 7, 65); // two later runs at 1.6x and more: a trial
    const kinds = drive(p, 'summary', 8, 2 * TRIAL_PAIRS, (k) => (k === 'prepared' ? 65 : 40));
    expect(kinds.slice(0, 4)).toEqual(['unprepared', 'prepared', 'unprepared', 'prepared']);
    expect(p.allowed('summary')).toBe(false);
  });

  it('everything slower because the machine is loaded: the trial finds unprepared no faster, it stays prepared', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'light', 1.8);
    // Two server processes busy on two cores: every execution 15-20x its quiet time, prepared or not.
    let i = 0;
    const loaded = (k: 'prepared' | 'unprepared'): number => (k === 'prepared' ? 30 : 34) + (i++ % 3) * 4;
    const kinds = drive(p, 'light', CUSTOM_PLAN_RUNS + 1, 2 + 2 * TRIAL_PAIRS + TRIAL_COOLDOWN, loaded);
    expect(p.allowed('light')).toBe(true);
    expect(p.unprepared()).toEqual([]);
    // One trial of TRIAL_PAIRS unprepared runs, then the loaded times are the baseline: no trial after it.
    expect(kinds.filter((k) => k === 'unprepared')).toHaveLength(TRIAL_PAIRS);
  });

  it('a trial ignores runs that overlapped others: a quick unprepared one among them decides nothing', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'light', 1.8);
    p.note('light', CUSTOM_PLAN_RUNS + 1, 160); // a trial
    expect(p.note('light', 0, 3, 'unprepared', false)).toBe(false); // overlapped: not counted
    expect(p.next('light')).toBe('unprepared'); // the trial still waits for its first unprepared run
    expect(p.note('light', 0, 12, 'unprepared')).toBe(false); // alone, but not as quick as the first runs
    expect(p.note('light', CUSTOM_PLAN_RUNS + 2, 6)).toBe(false);
    expect(p.note('light', 0, 5, 'unprepared')).toBe(false); // the prepared runs were not grossly slower after all
    expect(p.allowed('light')).toBe(true);
  });

  it('one slow run among normal ones keeps it prepared without a trial', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'q', 40);
    p.note('q', 6, 100);
    p.note('q', 7, 45);
    p.note('q', 8, 40);
    expect(p.next('q')).toBe('prepared');
    expect(p.allowed('q')).toBe(true);
  });

  it('the first executions of other sessions count as first ones, not as later ones', () => {
    const p = new PreparedPlans();
    firstRuns(p, 's', 10);
    firstRuns(p, 's', 12); // a second session's own first five
    p.note('s', 6, 11);
    p.note('s', 7, 12);
    expect(p.next('s')).toBe('prepared');
  });

  it('an unprepared execution no trial asked for (a session out of room) changes nothing', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'x', 5);
    expect(p.note('x', 0, 500, 'unprepared')).toBe(false);
    expect(p.next('x')).toBe('prepared');
  });
});
