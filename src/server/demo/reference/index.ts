import { DIVISIONS, LOBBIES, OFFICES, STATIONS, ZONES } from './geography';
import { buildStaff, type Staff } from './staff';
import { trainsFor, type SeedScale, type Train } from './trains';

export type { SeedScale, Train } from './trains';
export { SCALES } from './trains';

/** Everything that does not depend on a date: a pure function of the scale. */
export interface Reference {
  scale: SeedScale;
  trains: Train[];
  staff: Staff;
  /** Position of each train among its division's trains: spreads the TTE roster without clashes. */
  slotInDivision: Map<string, number>;
  trainsInDivision: Map<string, number>;
  /** Table name -> rows, in load order (parents first). */
  tables: [string, Record<string, unknown>[]][];
}

export function buildReference(scale: SeedScale): Reference {
  const trains = trainsFor(scale);
  const staff = buildStaff(scale, trains);
  const slotInDivision = new Map<string, number>();
  const perDiv = new Map<string, number>();
  for (const t of trains) {
    const n = perDiv.get(t.row.div_code) ?? 0;
    slotInDivision.set(t.row.train_no, n);
    perDiv.set(t.row.div_code, n + 1);
  }
  const tables: [string, Record<string, unknown>[]][] = [
    ['zones', ZONES.map((r) => ({ ...r }))],
    ['divisions', DIVISIONS.map((r) => ({ ...r }))],
    ['stations', STATIONS.map((r) => ({ ...r }))],
    ['lobbies', LOBBIES.map((r) => ({ ...r }))],
    ['offices', OFFICES.map((r) => ({ ...r }))],
    ['trains', trains.map((t) => ({ ...t.row }))],
    ['train_stops', trains.flatMap((t) => t.stops.map((s) => ({ ...s })))],
    ['train_consist', trains.flatMap((t) => t.consist.map((c) => ({ ...c })))],
    ['ttes', staff.ttes.map((t) => ({ ...t }))],
    ['devices', staff.devices.map((d) => ({ ...d }))],
  ];
  return { scale, trains, staff, slotInDivision, trainsInDivision: perDiv, tables };
}
