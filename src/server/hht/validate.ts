import { HHT_RECORD_TYPES, HHT_SYNC_LIMITS, type HhtRecord, type HhtRecordType, type SyncRequest } from '../../shared/hht-sync';

/** A field at fault, named as the API reports it: `records[3].beatId`. */
export interface FieldError {
  field: string;
  reason: string;
}

type Kind =
  | 'id' // device ids: short printable keys
  | 'code' // station, coach, PNR-like codes
  | 'text'
  | 'int'
  | 'berth' // a berth or seat number: a PostgreSQL int, within any coach
  | 'time'
  | 'money'
  | 'bool'
  | readonly string[]; // enum

interface FieldSpec {
  kind: Kind;
  required: boolean;
  nullable?: boolean;
}

const req = (kind: Kind): FieldSpec => ({ kind, required: true });
const opt = (kind: Kind): FieldSpec => ({ kind, required: false, nullable: true });

const COMMON = { id: req('id'), type: req(HHT_RECORD_TYPES), beatId: req('int') } as const;

/** Hand checks, one table per record type: cheaper than a schema validator per record at thousands a second. */
const SPECS: Record<HhtRecordType, Record<string, FieldSpec>> = {
  CHECK: {
    eventType: req(['O', 'NT', 'SHIFTED', 'GOT_DOWN']),
    psgnId: opt('int'),
    coachId: opt('code'),
    berthNo: opt('berth'),
    newCoachId: opt('code'),
    newBerthNo: opt('berth'),
    stationCode: opt('code'),
    deviceTime: req('time'),
    eventId: opt('int'),
  },
  ALLOTMENT: {
    psgnId: req('int'),
    coachId: req('code'),
    berthNo: req('berth'),
    fromStation: req('code'),
    toStation: req('code'),
    at: req('time'),
    eftNo: opt('id'),
    eventId: opt('int'),
    reallocId: opt('int'),
  },
  SIGN_ON: { at: req('time') },
  SIGN_OFF: { at: req('time') },
  TWR: { twrStatus: req(['SUBMITTED', 'NOT_SUBMITTED', 'EMPTY']), at: opt('time') },
  EFT: {
    eftNo: req('id'),
    pnr: opt('code'),
    psgnName: req('text'),
    coachId: opt('code'),
    fromStation: req('code'),
    toStation: req('code'),
    reason: req(['UPGRADE', 'TICKETLESS', 'BERTH_CHARGE', 'EXTENSION', 'IRREGULAR']),
    excessFare: req('money'),
    excessCharge: req('money'),
    total: req('money'),
    paymentMode: req(['CASH', 'CARD', 'UPI']),
    issuedAt: req('time'),
    payments: { kind: 'id', required: false }, // checked by checkPayments
  },
  BERTH_RELEASE: { coachId: req('code'), berthNo: req('berth'), fromStation: req('code'), at: req('time'), rebooked: opt('bool') },
  DEFICIENCY: {
    coachId: req('code'),
    category: req(['WATER', 'ELECTRICAL', 'AC', 'FITTINGS', 'BEDROLL', 'CLEANLINESS']),
    description: req('text'),
    stationCode: req('code'),
    reportedAt: req('time'),
    status: opt(['OPEN', 'CLOSED']),
    closedAt: opt('time'),
    deficiencyId: opt('int'),
  },
  DEFICIENCY_CLOSE: { deficiencyId: req('int'), closedAt: req('time') },
  TDR_REMARK: { tdrId: req('id'), remark: req('text') },
};

const PAYMENT: Record<string, FieldSpec> = {
  txnId: req('id'),
  amount: req('money'),
  mode: req(['CARD', 'UPI']),
  status: req(['SUCCESS', 'FAILED', 'PENDING']),
  at: req('time'),
  posId: req('id'),
};

const ID = /^[A-Za-z0-9_.:-]+$/;
const CODE = /^[A-Za-z0-9]{1,16}$/;
/** Largest berth or seat number of any coach (3E has 83; chair cars under 100). */
export const BERTH_MAX = 999;
// ISO 8601 with a zone: a device's local time without one would be read differently by each server.
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** A lone UTF-16 surrogate: JSON can carry one, PostgreSQL text and jsonb cannot. */
const LONE_SURROGATE = /\p{Cs}/u;

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * Milliseconds since the epoch of a device time, or null unless it is one PostgreSQL reads the same way: a calendar
 * day of years 1 to 9999, hours 00-23, minutes and seconds 00-59, a zone offset within +/-15:59.
 */
export function parseDeviceTime(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const m = TIME.exec(v);
  if (!m) return null;
  const [year, month, day, hour, minute, second, offH, offM] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as number[];
  if (year === undefined || month === undefined || day === undefined) return null;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if ((hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59 || (offH ?? 0) > 15 || (offM ?? 0) > 59) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

/** Rupees in paise, exactly: 0.29 is 29 (0.29 * 100 is not). */
const paise = (rupees: number): number => Math.round(rupees * 100);

function checkValue(kind: Kind, v: unknown): string | null {
  if (Array.isArray(kind)) return typeof v === 'string' && kind.includes(v) ? null : `must be one of ${kind.join(', ')}`;
  switch (kind) {
    case 'id':
      return typeof v === 'string' && v.length >= 1 && v.length <= HHT_SYNC_LIMITS.idMax && ID.test(v)
        ? null
        : `must be 1 to ${HHT_SYNC_LIMITS.idMax} letters, digits or _ . : -`;
    case 'code':
      return typeof v === 'string' && CODE.test(v) ? null : 'must be 1 to 16 letters or digits';
    case 'text':
      if (typeof v !== 'string' || v.trim().length === 0 || v.length > HHT_SYNC_LIMITS.textMax) return `must be text of 1 to ${HHT_SYNC_LIMITS.textMax} characters`;
      return v.includes('\u0000') || LONE_SURROGATE.test(v) ? 'must not contain NUL characters or lone surrogates' : null;
    case 'int':
      return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? null : `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
    case 'berth':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= BERTH_MAX ? null : `must be a berth number from 1 to ${BERTH_MAX}`;
    case 'money':
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 1e8 && paise(v) / 100 === v
        ? null
        : 'must be an amount in rupees from 0 to 99999999.99 with at most 2 decimals';
    case 'bool':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'time':
      return parseDeviceTime(v) !== null
        ? null
        : 'must be an ISO 8601 time with a zone: a real calendar day, hours 00-23, minutes and seconds 00-59, offset within +/-15:59';
    default:
      return 'is invalid';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkObject(obj: Record<string, unknown>, spec: Record<string, FieldSpec>, at: string, out: FieldError[]): void {
  for (const [name, f] of Object.entries(spec)) {
    const v = obj[name];
    if (v === undefined || (v === null && f.nullable)) {
      if (f.required) out.push({ field: `${at}.${name}`, reason: 'is required' });
      continue;
    }
    if (name === 'payments') continue;
    const why = checkValue(f.kind, v);
    if (why) out.push({ field: `${at}.${name}`, reason: why });
  }
  for (const name of Object.keys(obj)) {
    if (!Object.hasOwn(spec, name)) out.push({ field: `${at}.${name}`, reason: 'is not a field of this record type' });
  }
}

/**
 * Checks a sync body's shape: every record against its type's fields. Returns the typed request, or every
 * field at fault (so a device fixes a batch in one go).
 */
export function validateSyncRequest(body: unknown): { ok: true; request: SyncRequest } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (!isObject(body)) return { ok: false, errors: [{ field: 'body', reason: 'must be an object with batchId and records' }] };
  const why = checkValue('id', body.batchId);
  if (why) errors.push({ field: 'batchId', reason: why });
  const records = body.records;
  if (!Array.isArray(records) || records.length === 0 || records.length > HHT_SYNC_LIMITS.batchMax) {
    errors.push({ field: 'records', reason: `must be a list of 1 to ${HHT_SYNC_LIMITS.batchMax} records` });
    return { ok: false, errors };
  }
  for (const name of Object.keys(body)) {
    if (name !== 'batchId' && name !== 'records') errors.push({ field: name, reason: 'is not a field of a sync batch' });
  }
  const seen = new Map<string, number>();
  records.forEach((r: unknown, i) => {
    const at = `records[${i}]`;
    const shapeErrors = errors.length;
    if (!isObject(r)) {
      errors.push({ field: at, reason: 'must be an object' });
      return;
    }
    const typeWhy = checkValue(COMMON.type.kind, r.type);
    if (typeWhy) {
      errors.push({ field: `${at}.type`, reason: typeWhy });
      return;
    }
    const spec = { ...COMMON, ...SPECS[r.type as HhtRecordType] };
    checkObject(r, spec, at, errors);
    if (typeof r.id === 'string') {
      const first = seen.get(r.id);
      if (first !== undefined) errors.push({ field: `${at}.id`, reason: `repeats records[${first}].id` });
      else seen.set(r.id, i);
    }
    if (r.type === 'EFT') checkPayments(r, at, errors);
    if (errors.length === shapeErrors) checkWithinRecord(r as unknown as HhtRecord, at, errors);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, request: { batchId: body.batchId as string, records: records as HhtRecord[] } };
}

function checkPayments(r: Record<string, unknown>, at: string, errors: FieldError[]): void {
  const p = r.payments;
  if (p === undefined) return;
  if (!Array.isArray(p) || p.length > 10) {
    errors.push({ field: `${at}.payments`, reason: 'must be a list of at most 10 payments' });
    return;
  }
  if (r.paymentMode === 'CASH' && p.length > 0) errors.push({ field: `${at}.payments`, reason: 'must be empty for a CASH EFT' });
  p.forEach((x: unknown, j) => {
    if (!isObject(x)) errors.push({ field: `${at}.payments[${j}]`, reason: 'must be an object' });
    else checkObject(x, PAYMENT, `${at}.payments[${j}]`, errors);
  });
}

/** What one well-formed record must mean on its own: amounts that add up, times in order. */
function checkWithinRecord(r: HhtRecord, at: string, errors: FieldError[]): void {
  if (r.type === 'EFT') {
    if (paise(r.excessFare) + paise(r.excessCharge) !== paise(r.total)) {
      errors.push({ field: `${at}.total`, reason: `must be excessFare + excessCharge (${(paise(r.excessFare) + paise(r.excessCharge)) / 100})` });
    }
    const issued = parseDeviceTime(r.issuedAt) ?? 0;
    (r.payments ?? []).forEach((p, j) => {
      if ((parseDeviceTime(p.at) ?? 0) < issued) errors.push({ field: `${at}.payments[${j}].at`, reason: "is before the EFT's issuedAt" });
    });
  }
  if (r.type === 'DEFICIENCY' && r.closedAt != null && (parseDeviceTime(r.closedAt) ?? 0) < (parseDeviceTime(r.reportedAt) ?? 0)) {
    errors.push({ field: `${at}.closedAt`, reason: 'is before reportedAt' });
  }
}
/** The field tables and patterns, for the OpenAPI document's record schemas (openapi/hht-sync-doc.ts). */
export { SPECS as RECORD_FIELD_SPECS, PAYMENT as PAYMENT_FIELD_SPECS, ID as ID_PATTERN, CODE as CODE_PATTERN, TIME as TIME_PATTERN };
export type { Kind as FieldKind, FieldSpec };
