import type { Train } from './reference';
import { allotBerths } from './run/allotments';
import { assignBeats } from './run/beats';
import { bookingPhaseRows } from './run/booking-phase';
import { seatBookings } from './run/bookings';
import { markOnBoard, swapBerths } from './run/checks';
import { registerComplaints } from './run/complaints';
import { startRun, type RunContext } from './run/context';
import { reportDeficiencies } from './run/deficiencies';
import { issueEfts } from './run/efts';
import { numberEvents } from './run/events';
import type { RunRows } from './run/rows';
import { rosterStaff } from './run/staff';
import { fileTdrs } from './run/tdrs';
import { releaseVacantBerths } from './run/vacancies';

// The names other code imports from this path (the loader, the live feed's plan, national-scale seeding, tests).
export { addDays, dateOfIndex, dayIndex, runIdOf, runsOn, weekdayMon0 } from './run/calendar';
export { isHastyAllotmentRun } from './run/allotments';
export type { RunContext } from './run/context';
export { berthType } from './run/fares';
export { emptyRunRows, RUN_TABLES, type Row, type RunRows } from './run/rows';

/**
 * Generates one run. `charted` is false for runs after 'today' (booking phase). The steps share one random
 * stream, so their order is part of the data: changing it changes every run.
 */
export function generateRun(ctx: RunContext, train: Train, date: string, charted: boolean): RunRows {
  const run = startRun(ctx, train, date, charted);
  seatBookings(run);
  if (!charted) {
    bookingPhaseRows(run);
    return run.out;
  }
  assignBeats(run);
  markOnBoard(run);
  swapBerths(run);
  allotBerths(run);
  releaseVacantBerths(run);
  issueEfts(run);
  numberEvents(run);
  fileTdrs(run);
  reportDeficiencies(run);
  registerComplaints(run);
  rosterStaff(run);
  run.out.passengers = run.psgns.map((p) => p.row);
  return run.out;
}
