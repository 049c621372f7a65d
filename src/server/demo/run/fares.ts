// Berth layouts by class: position within a bay/row -> berth type.
const LAYOUT: Record<string, string[]> = {
  '1A': ['LB', 'UB', 'LB', 'UB'],
  '2A': ['LB', 'UB', 'LB', 'UB', 'SL', 'SU'],
  '3A': ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  '3E': ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  SL: ['LB', 'MB', 'UB', 'LB', 'MB', 'UB', 'SL', 'SU'],
  CC: ['WS', 'MS', 'AS', 'AS', 'WS'],
  EC: ['WS', 'AS', 'AS', 'WS'],
  '2S': ['WS', 'MS', 'AS', 'AS', 'MS', 'WS'],
};

export function berthType(cls: string, berthNo: number): string {
  const layout = LAYOUT[cls] ?? LAYOUT.SL ?? [];
  return layout[(berthNo - 1) % layout.length] ?? 'LB';
}

// Rupees per km (roughly the published base fares) and the minimum charge per class.
const RATE: Record<string, number> = { '1A': 3.4, '2A': 2.0, '3A': 1.45, '3E': 1.3, SL: 0.55, CC: 1.2, EC: 2.4, '2S': 0.35 };
const MIN_FARE: Record<string, number> = { '1A': 1200, '2A': 700, '3A': 500, '3E': 450, SL: 180, CC: 300, EC: 600, '2S': 60 };
export const AC = new Set(['1A', '2A', '3A', '3E', 'CC', 'EC']);
/** Side-lower berths sold as RAC (two passengers each) per coach of a class, when the train is full. */
export const RAC_BERTHS: Record<string, number> = { SL: 4, '3A': 2, '3E': 2, '2A': 1 };

export function fareFor(cls: string, km: number, premium: boolean): number {
  const base = Math.max(MIN_FARE[cls] ?? 200, km * (RATE[cls] ?? 1)) * (premium ? 1.3 : 1) + (AC.has(cls) ? 60 : 20);
  return Math.round(base / 5) * 5;
}
