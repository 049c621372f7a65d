import type { RunBuild } from './context';

/**
 * Booking phase (a run not charted yet): the chart is not prepared, so the current status is the booked one
 * and only confirmed bookings hold a berth.
 */
export function bookingPhaseRows(run: RunBuild): void {
  const { out, psgns } = run;
  for (const p of psgns) {
    const booked = String(p.row.booking_status);
    p.row.current_status = booked;
    if (booked !== 'CNF') {
      p.row.coach_id = null;
      p.row.berth_no = null;
      p.row.berth_type = null;
    }
  }
  out.passengers = psgns.map((p) => p.row);
}
