import { describe, expect, it } from 'vitest';
import { CUSTOM_PLAN_RUNS, PreparedPlans } from '../../src/server/db/prepared-plans';

/** The first CUSTOM_PLAN_RUNS executions of a statement in a session, each taking `ms`. */
function firstRuns(p: PreparedPlans, name: string, ms: number): void {
  for (let run = 1; run <= CUSTOM_PLAN_RUNS; run += 1) expect(p.note(name, run, ms)).toBe(false);
}

describe('prepared report statements: which keep running prepared', () => {
  it('a statement whose later executions stay as fast keeps running prepared', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'a', 2);
    for (let run = CUSTOM_PLAN_RUNS + 1; run < 40; run += 1) p.note('a', run, run % 7 === 0 ? 2.9 : 1.1);
    expect(p.allowed('a')).toBe(true);
    expect(p.unprepared()).toEqual([]);
  });

  it('one execution far slower than the first ones (a wrong generic plan) makes it unprepared at once', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'manning', 80);
    expect(p.note('manning', CUSTOM_PLAN_RUNS + 1, 1900)).toBe(true);
    expect(p.allowed('manning')).toBe(false);
    expect(p.allowed('other')).toBe(true);
    expect(p.unprepared()).toEqual(['manning']);
  });

  it('later executions somewhat slower over a few runs make it unprepared; one noisy run does not', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'summary', 150);
    expect(p.note('summary', 6, 400)).toBe(false); // one run: could be the machine
    expect(p.allowed('summary')).toBe(true);
    expect(p.note('summary', 7, 210)).toBe(true); // both later runs at least 1.4x the first ones
    expect(p.allowed('summary')).toBe(false);
  });

  it('one slow run among normal ones keeps it prepared', () => {
    const p = new PreparedPlans();
    firstRuns(p, 'q', 150);
    expect(p.note('q', 6, 400)).toBe(false);
    expect(p.note('q', 7, 160)).toBe(false);
    expect(p.note('q', 8, 150)).toBe(false);
    expect(p.allowed('q')).toBe(true);
  });

  it('the first executions of other sessions count as first ones, not as later ones', () => {
    const p = new PreparedPlans();
    firstRuns(p, 's', 10);
    firstRuns(p, 's', 12); // a second session's own first five
    expect(p.note('s', 6, 11)).toBe(false);
    expect(p.note('s', 7, 12)).toBe(false);
    expect(p.allowed('s')).toBe(true);
  });
});
