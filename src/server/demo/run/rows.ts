/**
 * One train run's rows. The complete form is a pure function of (scale, train, start date); a run that has
 * not been charted yet (start date after 'today') is the booking-phase view of the same data: the same PNRs
 * and passengers as booked, no chart, no on-board activity.
 */
export type Row = Record<string, unknown>;

export interface RunRows {
  train_runs: Row[];
  run_coaches: Row[];
  beats: Row[];
  pnrs: Row[];
  passengers: Row[];
  checking_events: Row[];
  vacant_berths: Row[];
  reallocations: Row[];
  efts: Row[];
  digital_payments: Row[];
  tdrs: Row[];
  coach_deficiencies: Row[];
  complaints: Row[];
  dynamic_fares: Row[];
  onboard_staff: Row[];
  dropped_etickets: Row[];
}

/** Load order: parents before children. */
export const RUN_TABLES: (keyof RunRows)[] = [
  'train_runs',
  'run_coaches',
  'beats',
  'pnrs',
  'passengers',
  'checking_events',
  'vacant_berths',
  'reallocations',
  'efts',
  'digital_payments',
  'tdrs',
  'coach_deficiencies',
  'complaints',
  'dynamic_fares',
  'onboard_staff',
  'dropped_etickets',
];

export function emptyRunRows(): RunRows {
  const rows = {} as RunRows;
  for (const t of RUN_TABLES) rows[t] = [];
  return rows;
}
