import { corridorStops } from './corridors';
import { zoneOfDivision } from './geography';
import { nationalTrains } from './national';
import type { TrainSpec, TrainType } from './train-spec';

export type { TrainSpec, TrainType };

/**
 * The train catalogue. Each scale carries the trains whose tier is at or below its level, so a larger
 * scale adds trains (and data) without changing the ones a smaller scale has.
 */
export type SeedScale = 'tiny' | 'small' | 'medium' | 'large' | 'national';
export const SCALES: readonly SeedScale[] = ['tiny', 'small', 'medium', 'large', 'national'];
const SCALE_TIER: Record<SeedScale, number> = { tiny: 0, small: 1, medium: 2, large: 3, national: 4 };

export const DAILY = 'YYYYYYY';

/** Consists as 'CLASS xCOUNT' groups; coach ids follow the class prefix (H, A, B, M, S, C, E). */
const CONSISTS: Record<TrainType, string> = {
  RAJDHANI: '1A x1,2A x5,3A x11',
  DURONTO: '1A x1,2A x4,3A x9',
  SHATABDI: 'EC x1,CC x9',
  VANDE_BHARAT: 'EC x2,CC x12',
  SUPERFAST: '1A x1,2A x2,3A x6,3E x2,SL x8',
  MAIL_EXP: '2A x1,3A x4,3E x1,SL x10',
};

const TRAINS: TrainSpec[] = [
  // tier 0: scale tiny (tests) - DLI and BCT run daily, MAS twice a week
  { no: '12002', name: 'New Delhi - Rani Kamlapati Shatabdi Express', type: 'SHATABDI', corridor: 'DLI_MAS', from: 'NDLS', to: 'RKMP', dep: '06:00', div: 'DLI', days: DAILY, tier: 0, tinyConsist: 'CC x1,EC x1' },
  { no: '12951', name: 'Mumbai Central - New Delhi Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_BCT', from: 'MMCT', to: 'NDLS', dep: '17:00', div: 'BCT', days: DAILY, tier: 0, tinyConsist: '2A x1,3A x1' },
  { no: '12269', name: 'MGR Chennai Central - Hazrat Nizamuddin Duronto Express', type: 'DURONTO', corridor: 'DLI_MAS', from: 'MAS', to: 'NDLS', dep: '06:35', div: 'MAS', days: 'NYNNYNN', tier: 0, tinyConsist: '2A x1,3A x1', alias: { NDLS: 'NZM' } },
  // tier 1: scale small (default)
  { no: '12621', name: 'Tamil Nadu Express', type: 'SUPERFAST', corridor: 'DLI_MAS', from: 'MAS', to: 'NDLS', dep: '22:00', div: 'MAS', days: DAILY, tier: 1 },
  { no: '12137', name: 'Punjab Mail', type: 'MAIL_EXP', corridor: 'CSMT_FZR', from: 'CSMT', to: 'FZR', dep: '19:35', div: 'BB', days: DAILY, tier: 1 },
  { no: '22439', name: 'New Delhi - Shri Mata Vaishno Devi Katra Vande Bharat Express', type: 'VANDE_BHARAT', corridor: 'DLI_SVDK', from: 'NDLS', to: 'SVDK', dep: '06:00', div: 'DLI', days: 'YNYYYYY', tier: 1 },
  // tier 2: scale medium
  { no: '12301', name: 'Howrah - New Delhi Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_HWH', from: 'HWH', to: 'NDLS', dep: '16:50', div: 'HWH', days: 'YYYYYNY', tier: 2 },
  { no: '12259', name: 'Sealdah - New Delhi Duronto Express', type: 'DURONTO', corridor: 'DLI_SDAH', from: 'SDAH', to: 'NDLS', dep: '18:35', div: 'SDAH', days: 'NNYNYNY', tier: 2 },
  { no: '12011', name: 'New Delhi - Kalka Shatabdi Express', type: 'SHATABDI', corridor: 'NDLS_KLK', from: 'NDLS', to: 'KLK', dep: '07:40', div: 'DLI', days: DAILY, tier: 2 },
  { no: '12004', name: 'New Delhi - Lucknow Swarna Shatabdi Express', type: 'SHATABDI', corridor: 'NDLS_LKO', from: 'NDLS', to: 'LKO', dep: '06:10', div: 'LKO', days: DAILY, tier: 2 },
  { no: '12009', name: 'Mumbai Central - Ahmedabad Shatabdi Express', type: 'SHATABDI', corridor: 'BCT_ADI', from: 'MMCT', to: 'ADI', dep: '06:20', div: 'BCT', days: 'YYYYYYN', tier: 2 },
  { no: '12123', name: 'Deccan Queen', type: 'SUPERFAST', corridor: 'CSMT_SC', from: 'CSMT', to: 'PUNE', dep: '17:10', div: 'PUNE', days: DAILY, tier: 2, consist: 'EC x1,CC x6' },
  { no: '12309', name: 'Rajendra Nagar Patna - New Delhi Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_RJPB', from: 'RJPB', to: 'NDLS', dep: '19:10', div: 'DNR', days: DAILY, tier: 2 },
  { no: '12433', name: 'Chennai Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_MAS', from: 'MAS', to: 'NDLS', dep: '06:10', div: 'MAS', days: 'NNYNNYN', tier: 2, alias: { NDLS: 'NZM' } },
  { no: '12017', name: 'New Delhi - Dehradun Shatabdi Express', type: 'SHATABDI', corridor: 'NDLS_DDN', from: 'NDLS', to: 'DDN', dep: '06:45', div: 'MB', days: DAILY, tier: 2 },
  // tier 3: scale large
  { no: '12952', name: 'New Delhi - Mumbai Central Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_BCT', from: 'NDLS', to: 'MMCT', dep: '16:55', div: 'BCT', days: DAILY, tier: 3 },
  { no: '12302', name: 'New Delhi - Howrah Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_HWH', from: 'NDLS', to: 'HWH', dep: '16:50', div: 'HWH', days: 'YYYYNYY', tier: 3 },
  { no: '12001', name: 'Rani Kamlapati - New Delhi Shatabdi Express', type: 'SHATABDI', corridor: 'DLI_MAS', from: 'RKMP', to: 'NDLS', dep: '15:15', div: 'DLI', days: DAILY, tier: 3 },
  { no: '12622', name: 'Tamil Nadu Express', type: 'SUPERFAST', corridor: 'DLI_MAS', from: 'NDLS', to: 'MAS', dep: '21:05', div: 'MAS', days: DAILY, tier: 3 },
  { no: '12138', name: 'Punjab Mail', type: 'MAIL_EXP', corridor: 'CSMT_FZR', from: 'FZR', to: 'CSMT', dep: '21:55', div: 'BB', days: DAILY, tier: 3 },
  { no: '22440', name: 'Shri Mata Vaishno Devi Katra - New Delhi Vande Bharat Express', type: 'VANDE_BHARAT', corridor: 'DLI_SVDK', from: 'SVDK', to: 'NDLS', dep: '15:00', div: 'DLI', days: 'YNYYYYY', tier: 3 },
  { no: '12012', name: 'Kalka - New Delhi Shatabdi Express', type: 'SHATABDI', corridor: 'NDLS_KLK', from: 'KLK', to: 'NDLS', dep: '17:45', div: 'DLI', days: DAILY, tier: 3 },
  { no: '12003', name: 'Lucknow - New Delhi Swarna Shatabdi Express', type: 'SHATABDI', corridor: 'NDLS_LKO', from: 'LKO', to: 'NDLS', dep: '15:35', div: 'LKO', days: DAILY, tier: 3 },
  { no: '12010', name: 'Ahmedabad - Mumbai Central Shatabdi Express', type: 'SHATABDI', corridor: 'BCT_ADI', from: 'ADI', to: 'MMCT', dep: '15:10', div: 'BCT', days: 'YYYYYYN', tier: 3 },
  { no: '12124', name: 'Deccan Queen', type: 'SUPERFAST', corridor: 'CSMT_SC', from: 'PUNE', to: 'CSMT', dep: '07:15', div: 'PUNE', days: DAILY, tier: 3, consist: 'EC x1,CC x6' },
  { no: '12310', name: 'New Delhi - Rajendra Nagar Patna Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_RJPB', from: 'NDLS', to: 'RJPB', dep: '17:10', div: 'DNR', days: DAILY, tier: 3 },
  { no: '12953', name: 'August Kranti Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_BCT', from: 'MMCT', to: 'NDLS', dep: '17:40', div: 'BCT', days: DAILY, tier: 3, alias: { NDLS: 'NZM' } },
  { no: '12954', name: 'August Kranti Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_BCT', from: 'NDLS', to: 'MMCT', dep: '16:50', div: 'BCT', days: DAILY, tier: 3, alias: { NDLS: 'NZM' } },
  { no: '12115', name: 'Siddheshwar Express', type: 'MAIL_EXP', corridor: 'CSMT_SC', from: 'CSMT', to: 'SUR', dep: '22:50', div: 'SUR', days: DAILY, tier: 3 },
  { no: '12116', name: 'Siddheshwar Express', type: 'MAIL_EXP', corridor: 'CSMT_SC', from: 'SUR', to: 'CSMT', dep: '22:20', div: 'SUR', days: DAILY, tier: 3 },
  { no: '12701', name: 'Hussainsagar Express', type: 'SUPERFAST', corridor: 'CSMT_SC', from: 'CSMT', to: 'SC', dep: '21:45', div: 'SC', days: DAILY, tier: 3 },
  { no: '12635', name: 'Vaigai Express', type: 'SUPERFAST', corridor: 'MS_CAPE', from: 'MS', to: 'MDU', dep: '13:40', div: 'MDU', days: DAILY, tier: 3, consist: '3A x1,CC x6' },
  { no: '12633', name: 'Kanniyakumari Express', type: 'SUPERFAST', corridor: 'MS_CAPE', from: 'MS', to: 'CAPE', dep: '17:20', div: 'MDU', days: DAILY, tier: 3 },
  { no: '12634', name: 'Kanniyakumari Express', type: 'SUPERFAST', corridor: 'MS_CAPE', from: 'CAPE', to: 'MS', dep: '17:20', div: 'MDU', days: DAILY, tier: 3 },
  { no: '12675', name: 'Kovai Express', type: 'SUPERFAST', corridor: 'MAS_TVC', from: 'MAS', to: 'CBE', dep: '14:30', div: 'SA', days: DAILY, tier: 3, consist: '3A x1,CC x8' },
  { no: '12601', name: 'Mangaluru Mail', type: 'MAIL_EXP', corridor: 'MAS_MAQ', from: 'MAS', to: 'MAQ', dep: '20:15', div: 'PGT', days: DAILY, tier: 3 },
  { no: '12602', name: 'Mangaluru Mail', type: 'MAIL_EXP', corridor: 'MAS_MAQ', from: 'MAQ', to: 'MAS', dep: '13:30', div: 'PGT', days: DAILY, tier: 3 },
  { no: '12695', name: 'Chennai - Thiruvananthapuram Superfast Express', type: 'SUPERFAST', corridor: 'MAS_TVC', from: 'MAS', to: 'TVC', dep: '15:35', div: 'TVC', days: DAILY, tier: 2 },
  { no: '12623', name: 'Thiruvananthapuram Mail', type: 'MAIL_EXP', corridor: 'MAS_TVC', from: 'MAS', to: 'TVC', dep: '19:45', div: 'TPJ', days: DAILY, tier: 3 },
  { no: '12381', name: 'Poorva Express', type: 'SUPERFAST', corridor: 'DLI_HWH', from: 'HWH', to: 'NDLS', dep: '08:15', div: 'HWH', days: 'NNYYNNY', tier: 3 },
  { no: '12393', name: 'Sampoorna Kranti Express', type: 'SUPERFAST', corridor: 'DLI_RJPB', from: 'RJPB', to: 'NDLS', dep: '17:40', div: 'DNR', days: DAILY, tier: 3 },
  { no: '12311', name: 'Kalka Mail', type: 'MAIL_EXP', corridor: 'DLI_HWH', from: 'HWH', to: 'NDLS', dep: '19:40', div: 'HWH', days: DAILY, tier: 3 },
  { no: '12313', name: 'Sealdah Rajdhani Express', type: 'RAJDHANI', corridor: 'DLI_SDAH', from: 'SDAH', to: 'NDLS', dep: '16:50', div: 'SDAH', days: DAILY, tier: 3 },
  { no: '12397', name: 'Mahabodhi Express', type: 'SUPERFAST', corridor: 'DLI_HWH', from: 'GAYA', to: 'NDLS', dep: '14:15', div: 'DDU', days: DAILY, tier: 3 },
  { no: '12321', name: 'Howrah - Mumbai Mail', type: 'MAIL_EXP', corridor: 'DLI_HWH', from: 'HWH', to: 'DDU', dep: '21:55', div: 'ASN', days: DAILY, tier: 3 },
  { no: '12555', name: 'Gorakhdham Express', type: 'SUPERFAST', corridor: 'DLI_HWH', from: 'DHN', to: 'NDLS', dep: '11:05', div: 'DHN', days: 'YNYNYNN', tier: 3 },
  { no: '12615', name: 'Grand Trunk Express', type: 'MAIL_EXP', corridor: 'DLI_MAS', from: 'MAS', to: 'NDLS', dep: '18:50', div: 'MAS', days: DAILY, tier: 3 },
  { no: '12616', name: 'Grand Trunk Express', type: 'MAIL_EXP', corridor: 'DLI_MAS', from: 'NDLS', to: 'MAS', dep: '16:10', div: 'MAS', days: DAILY, tier: 3 },
  { no: '12721', name: 'Dakshin Express', type: 'SUPERFAST', corridor: 'DLI_MAS', from: 'KZJ', to: 'NDLS', dep: '23:00', div: 'NGP', days: DAILY, tier: 3, alias: { KZJ: 'SC' } },
  { no: '12903', name: 'Golden Temple Mail', type: 'MAIL_EXP', corridor: 'DLI_BCT', from: 'MMCT', to: 'NDLS', dep: '19:05', div: 'RTM', days: DAILY, tier: 3 },
  { no: '12925', name: 'Paschim Express', type: 'SUPERFAST', corridor: 'DLI_BCT', from: 'MMCT', to: 'NDLS', dep: '11:25', div: 'BRC', days: DAILY, tier: 3, alias: { MMCT: 'BDTS' } },
  { no: '12933', name: 'Karnavati Express', type: 'SUPERFAST', corridor: 'BCT_ADI', from: 'MMCT', to: 'ADI', dep: '13:40', div: 'ADI', days: DAILY, tier: 3 },
  { no: '12471', name: 'Swaraj Express', type: 'SUPERFAST', corridor: 'DLI_SVDK', from: 'NDLS', to: 'SVDK', dep: '20:05', div: 'FZR', days: 'YNYNNYN', tier: 3 },
  { no: '12013', name: 'Amritsar Shatabdi Express', type: 'SHATABDI', corridor: 'DLI_SVDK', from: 'NDLS', to: 'JAT', dep: '16:30', div: 'UMB', days: DAILY, tier: 3 },
  { no: '22221', name: 'CSMT - Hazrat Nizamuddin Rajdhani Express', type: 'RAJDHANI', corridor: 'CSMT_FZR', from: 'CSMT', to: 'NDLS', dep: '16:00', div: 'BSL', days: 'YNYNYNY', tier: 3, alias: { NDLS: 'NZM' } },
  { no: '12961', name: 'Avantika Express', type: 'SUPERFAST', corridor: 'DLI_BCT', from: 'MMCT', to: 'RTM', dep: '19:15', div: 'RTM', days: DAILY, tier: 3 },
  { no: '20901', name: 'Mumbai Central - Gandhinagar Capital Vande Bharat Express', type: 'VANDE_BHARAT', corridor: 'BCT_ADI', from: 'MMCT', to: 'ADI', dep: '06:00', div: 'BCT', days: 'YYNYYYY', tier: 3 },
  { no: '20633', name: 'Kasaragod - Thiruvananthapuram Vande Bharat Express', type: 'VANDE_BHARAT', corridor: 'MAS_TVC', from: 'ERS', to: 'TVC', dep: '07:10', div: 'TVC', days: 'YYYNYYY', tier: 3 },
  { no: '12639', name: 'Brindavan Express', type: 'SUPERFAST', corridor: 'MAS_TVC', from: 'MAS', to: 'SA', dep: '07:50', div: 'MAS', days: DAILY, tier: 3, consist: '3A x1,CC x7' },
];

function catalogue(): TrainSpec[] {
  const seen = new Set<string>();
  for (const t of TRAINS) {
    if (seen.has(t.no)) throw new Error(`train ${t.no} listed twice`);
    seen.add(t.no);
  }
  return TRAINS;
}

export interface TrainRow {
  train_no: string;
  name: string;
  train_type: TrainType;
  src_station: string;
  dest_station: string;
  zone_code: string;
  div_code: string;
  run_days: string;
  dynamic_fare: boolean;
}

export interface StopRow {
  train_no: string;
  seq: number;
  station_code: string;
  arr_time: string | null;
  dep_time: string | null;
  day_no: number;
  distance_km: number;
  halt_min: number;
}

export interface ConsistRow {
  train_no: string;
  seq: number;
  coach_id: string;
  class: string;
  capacity: number;
}

/** A train with its timetable and consist, plus minutes from departure for each stop (for timestamps). */
export interface Train {
  row: TrainRow;
  stops: StopRow[];
  /** Minutes after departure from the source at which the train reaches / leaves each stop. */
  arrMin: number[];
  depMin: number[];
  depClock: number; // minutes after midnight of the start date
  consist: ConsistRow[];
}

export const CLASS_PREFIX: Record<string, string> = { '1A': 'H', '2A': 'A', '3A': 'B', '3E': 'M', SL: 'S', CC: 'C', EC: 'E', '2S': 'D' };
export const CLASS_CAPACITY: Record<string, number> = { '1A': 24, '2A': 54, '3A': 72, '3E': 83, SL: 72, CC: 78, EC: 56, '2S': 108 };
const SPEED_KMPH: Record<TrainType, number> = {
  RAJDHANI: 82,
  DURONTO: 80,
  SHATABDI: 84,
  VANDE_BHARAT: 88,
  SUPERFAST: 60,
  MAIL_EXP: 54,
};
const PREMIUM: ReadonlySet<TrainType> = new Set(['RAJDHANI', 'SHATABDI', 'DURONTO', 'VANDE_BHARAT']);

function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function buildConsist(trainNo: string, text: string): ConsistRow[] {
  const rows: ConsistRow[] = [];
  for (const group of text.split(',')) {
    const [cls, countText] = group.trim().split(' x') as [string, string];
    const count = Number.parseInt(countText, 10);
    const prefix = CLASS_PREFIX[cls];
    const capacity = CLASS_CAPACITY[cls];
    if (!prefix || !capacity) throw new Error(`unknown class ${cls} in ${trainNo}`);
    for (let i = 1; i <= count; i++) {
      rows.push({ train_no: trainNo, seq: rows.length + 1, coach_id: `${prefix}${i}`, class: cls, capacity });
    }
  }
  return rows;
}

export function buildTrain(spec: TrainSpec, scale: SeedScale): Train {
  let route = corridorStops(spec.corridor);
  const a = route.findIndex((s) => s.code === spec.from);
  const b = route.findIndex((s) => s.code === spec.to);
  if (a < 0 || b < 0) throw new Error(`train ${spec.no}: ${spec.from}/${spec.to} not on ${spec.corridor}`);
  route = a < b ? route.slice(a, b + 1) : route.slice(b, a + 1).reverse();
  const origin = route[0]?.km ?? 0;
  const premium = PREMIUM.has(spec.type);
  // Premium trains stop only at major stations; the ends always stay.
  route = route.filter((s, i) => i === 0 || i === route.length - 1 || !premium || s.major);

  const [h, m] = spec.dep.split(':').map((x) => Number.parseInt(x, 10)) as [number, number];
  const depClock = h * 60 + m;
  const speed = SPEED_KMPH[spec.type];
  const stops: StopRow[] = [];
  const arrMin: number[] = [];
  const depMin: number[] = [];
  let t = 0;
  let prevKm = 0;
  route.forEach((s, i) => {
    const km = Math.abs(s.km - origin);
    const last = i === route.length - 1;
    if (i > 0) t += Math.round(((km - prevKm) / speed) * 60 / 5) * 5; // timetables use 5-minute steps
    const halt = i === 0 || last ? 0 : premium ? 5 : km > 400 && i % 3 === 0 ? 10 : 2 + (i % 2) * 3;
    const arr = i === 0 ? null : t;
    const dep = last ? null : t + halt;
    arrMin.push(arr ?? t);
    depMin.push(dep ?? t);
    const dayNo = Math.floor((depClock + (arr ?? t)) / 1440) + 1;
    stops.push({
      train_no: spec.no,
      seq: i + 1,
      station_code: spec.alias?.[s.code] ?? s.code,
      arr_time: arr === null ? null : hhmm(depClock + arr),
      dep_time: dep === null ? null : hhmm(depClock + dep),
      day_no: dayNo,
      distance_km: km,
      halt_min: halt,
    });
    t += halt;
    prevKm = km;
  });

  const consistText = scale === 'tiny' && spec.tinyConsist ? spec.tinyConsist : (spec.consist ?? CONSISTS[spec.type]);
  const first = stops[0];
  const lastStop = stops[stops.length - 1];
  if (!first || !lastStop) throw new Error(`train ${spec.no} has no route`);
  return {
    row: {
      train_no: spec.no,
      name: spec.name,
      train_type: spec.type,
      src_station: first.station_code,
      dest_station: lastStop.station_code,
      zone_code: zoneOfDivision(spec.div),
      div_code: spec.div,
      run_days: spec.days,
      dynamic_fare: spec.type === 'RAJDHANI' || spec.type === 'SHATABDI' || spec.type === 'DURONTO',
    },
    stops,
    arrMin,
    depMin,
    depClock,
    consist: buildConsist(spec.no, consistText),
  };
}

export function trainsFor(scale: SeedScale): Train[] {
  const tier = SCALE_TIER[scale];
  const specs = catalogue().filter((t) => t.tier <= tier);
  // National scale: the catalogue's real trains plus generated ones up to the national daily volume.
  if (scale === 'national') specs.push(...nationalTrains(new Set(specs.map((t) => t.no))));
  return specs.map((t) => buildTrain(t, scale));
}
