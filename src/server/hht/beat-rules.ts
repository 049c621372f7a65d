import type { HhtRecord, HhtRecordType } from '../../shared/hht-sync';
import { parseDeviceTime } from './validate';

/** What the database says about a beat a batch names (references.ts reads it once per batch). */
export interface BeatFacts {
  runId: number;
  /** The coaches the beat's TTE works. */
  coaches: readonly string[];
  /** The run's scheduled departure from its first station, ms since the epoch. */
  scheduledStart: number;
  /** Berths (seats) of each coach of the run. */
  capacity: ReadonlyMap<string, number>;
}

/**
 * Where a passenger is as stored, and the moves already stored (allotments and shifts, each with the coach it left):
 * a terminal may sync a check made before a move that another terminal synced first.
 */
export interface PassengerCoach {
  coach: string | null;
  /** Stored moves, earliest first; undefined when not looked up (the stored coach alone decided). */
  moves?: readonly { at: number; from: string | null }[];
}

/** The passenger's coach at a device time: the coach left by the first stored move after it, else the stored one. */
export function coachAt(p: PassengerCoach, at: number | null): string | null {
  const next = at === null ? undefined : p.moves?.find((m) => m.at > at);
  return next ? next.from : p.coach;
}

/** A record with the moment it reached the server (the feed: its planned sync time). */
type Synced = HhtRecord & { syncTime: string };

const DAY_MS = 86_400_000;

/** The times a record carries, by field name (payments' times are added per payment). */
const TIME_FIELDS: Record<HhtRecordType, readonly string[]> = {
  CHECK: ['deviceTime'],
  ALLOTMENT: ['at'],
  SIGN_ON: ['at'],
  SIGN_OFF: ['at'],
  TWR: ['at'],
  EFT: ['issuedAt'],
  BERTH_RELEASE: ['at'],
  DEFICIENCY: ['reportedAt', 'closedAt'],
  DEFICIENCY_CLOSE: ['closedAt'],
  TDR_REMARK: [],
};

const list = (coaches: readonly string[]): string => coaches.join(', ');

/**
 * The rules a record of a known beat must meet beyond its shape (docs/hht-sync.md, "What a record must mean"):
 * every coach it names is one of its beat's coaches, a berth lies within its coach, and every time lies between the
 * run's scheduled start less a day and the moment of the sync plus the device clock tolerance.
 * `psgnCoaches`: each passenger's stored coach (null: no berth yet) and, where looked up, its stored moves, for a
 * CHECK that names only the passenger: the passenger must be in one of the beat's coaches at the check's device time.
 */
export function checkBeatRules(
  records: readonly Synced[],
  beats: ReadonlyMap<number, BeatFacts>,
  psgnCoaches: ReadonlyMap<string, PassengerCoach>,
  skewMs: number,
  at: (r: HhtRecord, field: string, reason: string) => void,
): void {
  // Coaches a passenger is moved into by the batch itself (an allotment or a shift synced with the check).
  const movedInto = new Map<string, Set<string>>();
  for (const r of records) {
    const move = r.type === 'ALLOTMENT' ? { psgn: r.psgnId, into: r.coachId } : r.type === 'CHECK' && r.eventType === 'SHIFTED' ? { psgn: r.psgnId, into: r.newCoachId } : null;
    if (move?.into && move.psgn != null) movedInto.set(String(move.psgn), (movedInto.get(String(move.psgn)) ?? new Set<string>()).add(move.into));
  }
  for (const r of records) {
    const beat = beats.get(r.beatId);
    if (!beat) continue;
    const coachOfBeat = (field: string, coach: string | null | undefined): boolean => {
      if (coach == null || beat.coaches.includes(coach)) return true;
      at(r, field, `is not a coach of beat ${r.beatId} (${list(beat.coaches)})`);
      return false;
    };
    const berthOfCoach = (field: string, coach: string, berth: number | null | undefined): void => {
      const capacity = beat.capacity.get(coach);
      if (berth != null && capacity !== undefined && berth > capacity) at(r, field, `is not a berth of coach ${coach} (1 to ${capacity})`);
    };
    switch (r.type) {
      case 'CHECK': {
        if (coachOfBeat('coachId', r.coachId) && r.coachId != null) berthOfCoach('berthNo', r.coachId, r.berthNo);
        if (coachOfBeat('newCoachId', r.newCoachId)) berthOfCoach('newBerthNo', r.newCoachId ?? r.coachId ?? '', r.newBerthNo);
        const psgn = r.psgnId == null ? undefined : psgnCoaches.get(String(r.psgnId));
        if (psgn) {
          const then = coachAt(psgn, parseDeviceTime(r.deviceTime));
          const coaches = [...(then ? [then] : []), ...(movedInto.get(String(r.psgnId)) ?? [])];
          if (coaches.length > 0 && !coaches.some((c) => beat.coaches.includes(c))) {
            at(r, 'psgnId', `is a passenger of coach ${coaches.join('/')}, not of beat ${r.beatId} (${list(beat.coaches)})`);
          }
        }
        break;
      }
      case 'ALLOTMENT':
      case 'BERTH_RELEASE':
        if (coachOfBeat('coachId', r.coachId)) berthOfCoach('berthNo', r.coachId, r.berthNo);
        break;
      case 'EFT':
      case 'DEFICIENCY':
        coachOfBeat('coachId', r.coachId);
        break;
      default:
        break;
    }

    const earliest = beat.scheduledStart - DAY_MS;
    const latest = Date.parse(r.syncTime) + skewMs;
    const inWindow = (field: string, value: unknown): void => {
      const t = parseDeviceTime(value);
      if (t === null) return; // absent optional time (shape was checked before)
      if (t < earliest) at(r, field, `is before the run's scheduled start less a day (${new Date(earliest).toISOString()})`);
      else if (t > latest) at(r, field, `is after the moment of the sync plus ${skewMs / 1000} s of device clock tolerance (${new Date(latest).toISOString()})`);
    };
    const fields = r as unknown as Record<string, unknown>;
    for (const f of TIME_FIELDS[r.type]) inWindow(f, fields[f]);
    if (r.type === 'EFT') (r.payments ?? []).forEach((p, j) => inWindow(`payments[${j}].at`, p.at));
  }
}
