import type { Rng } from '../../src/server/demo/prng';

/**
 * Generators of bad (and almost good) request input for the API fuzz test: wrong types, huge strings, NUL
 * characters, impossible dates, nested junk, arrays for objects, missing and unknown fields. All draws come
 * from the seeded Rng, so a failure replays from its seed and index.
 */
export interface FuzzContext {
  rng: Rng;
  /** Values that pass some checks (a real train number, today's date), so requests get past the first check. */
  plausible: readonly unknown[];
}

const HUGE = (rng: Rng): string => 'X'.repeat(rng.pick([5_000, 70_000, 300_000]));

const STRINGS: readonly ((rng: Rng) => string)[] = [
  () => '',
  () => ' ',
  () => 'a\u0000b',
  () => '\u0000',
  () => '%00',
  () => "' OR 1=1 --",
  () => '"; DROP TABLE users; --',
  () => '../../../../etc/passwd',
  () => '\u202e\ud83d\ude00\uffff',
  () => '\ud800', // lone surrogate
  () => '<script>alert(1)</script>',
  () => '2026-02-30',
  () => '2025-13-01',
  () => '0000-00-00',
  () => '2025-02-29',
  () => '30/02/2026',
  () => '99/99/9999',
  () => '1e309',
  () => '-1',
  () => 'null',
  () => '__proto__',
  HUGE,
];

const NUMBERS: readonly number[] = [0, -1, 1, 1.5, -0.0001, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

/**
 * Values a PostgreSQL column or cast would refuse (so a route that passes one on unchecked answers 500): days that do
 * not exist, year 0000 and five-digit years, zone offsets beyond +/-15:59, hours and minutes out of range, integers
 * beyond int and bigint, lone surrogates. Every route gets each of them (fuzz.test.ts), and the sync fuzzer puts them
 * in every field.
 */
export const BAD_VALUES: readonly unknown[] = [
  '2026-02-29', '2026-02-30', '2026-04-31', '0000-01-01', '10000-01-01', '2026-13-01',
  '2026-02-29T10:00:00Z', '2026-04-31T10:00:00+05:30', '0000-03-15T10:00:00Z', '2026-03-15T10:00:00+16:00',
  '2026-03-15T10:00:00-23:00', '2026-03-15T24:00:00Z', '2026-03-15T10:61:00Z', '29/02/2026', '31/04/2026', '00/01/0000',
  2 ** 31, -(2 ** 31) - 1, 2 ** 63, -(2 ** 63) - 4096, 2 ** 53 + 2, 1e20, -1, 1.5,
  'a\ud800b', '\udfff', '\ud800', 'x\u0000y',
];

/** One junk value, possibly nested (depth-limited). */
export function junk(f: FuzzContext, depth = 0): unknown {
  const { rng } = f;
  const kind = rng.weighted<string>([
    ['string', 5], ['number', 2], ['bool', 1], ['null', 1], ['plausible', 4], ['array', depth < 4 ? 1 : 0], ['object', depth < 4 ? 1 : 0],
  ]);
  switch (kind) {
    case 'string': return rng.chance(0.25) ? rng.pick(BAD_VALUES) : rng.pick(STRINGS)(rng);
    case 'number': return rng.pick(NUMBERS);
    case 'bool': return rng.chance(0.5);
    case 'null': return null;
    case 'plausible': return rng.pick(f.plausible);
    case 'array': return Array.from({ length: rng.int(0, 4) }, () => junk(f, depth + 1));
    default: return junkObject(f, ['a', 'b', '__proto__', 'constructor', 'x\u0000y'], depth + 1);
  }
}

function junkObject(f: FuzzContext, names: readonly string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (f.rng.chance(0.5)) out[n] = junk(f, depth);
  return out;
}

/** A JSON value nested deeper than any schema expects. */
function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

export type FuzzBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string | null };

/** A request body built around the route's field names: some present with junk, some missing, extras added. */
export function fuzzBody(f: FuzzContext, fields: readonly string[]): FuzzBody {
  const { rng } = f;
  const shape = rng.weighted<string>([
    ['fields', 10], ['array', 1], ['primitive', 1], ['deep', 1], ['raw', 1], ['empty', 1],
  ]);
  switch (shape) {
    case 'array': return { kind: 'json', value: [fuzzObject(f, fields)] };
    case 'primitive': return { kind: 'json', value: rng.pick<unknown>([null, 0, 'text', true, []]) };
    case 'deep': return { kind: 'json', value: deep(rng.pick([50, 500, 2000])) };
    case 'empty': return { kind: 'raw', text: '', contentType: rng.pick(['application/json', null]) };
    case 'raw':
      return {
        kind: 'raw',
        text: rng.pick(['{"a":', '{"a":"\\u0000"}', 'a=1&b=%00', '\u0000\u0001', '[1,2,', '{"__proto__":{"x":1}}', '{}'.repeat(2)]),
        contentType: rng.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', null]),
      };
    default: return { kind: 'json', value: fuzzObject(f, fields) };
  }
}

export function fuzzObject(f: FuzzContext, fields: readonly string[]): Record<string, unknown> {
  const { rng } = f;
  const out: Record<string, unknown> = {};
  for (const name of fields) {
    if (rng.chance(0.2)) continue; // missing
    out[name] = rng.chance(0.45) ? rng.pick(f.plausible) : junk(f);
  }
  if (rng.chance(0.15)) out[rng.pick(['extra', 'x\u0000', '', 'sortBy', 'page'])] = junk(f);
  return out;
}

/** encodeURIComponent, but a lone surrogate goes out as its raw (invalid) UTF-8 bytes instead of throwing. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** A query string of the given field names with junk values (repeated keys, encoded NUL, huge values). */
export function fuzzQuery(f: FuzzContext, fields: readonly string[]): string {
  const { rng } = f;
  const parts: string[] = [];
  for (const name of [...fields, 'sortBy', 'sortDir', 'page', 'rowsPerPage']) {
    if (rng.chance(0.5)) continue;
    const v = junk(f);
    const text = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
    parts.push(`${encode(name)}=${encode(text)}`);
    if (rng.chance(0.1)) parts.push(`${encode(name)}=2`); // repeated key -> array
  }
  if (rng.chance(0.1)) parts.push('%00=%00');
  return parts.join('&');
}

/** A field of a device record (or of an EFT's payment) and the kind of value it holds. */
type SyncKind = 'id' | 'code' | 'text' | 'int' | 'berth' | 'time' | 'money' | 'bool' | readonly string[];

/** Values that look like the kind but are wrong in one way each: what a terminal with a bug might send. */
const SYNC_BAD: Record<string, readonly unknown[]> = {
  id: ['', 'x'.repeat(65), 'a b', 'a\u0000b', '\ud800', 'é', 7, null],
  code: ['', 'B 1', 'X'.repeat(17), '\ud800', 'B1\u0000', 12, null],
  text: ['', '   ', 'x'.repeat(201), 'a\ud800b', '\udc00', 'a\u0000b', 5, null],
  int: [-1, 1.5, 2 ** 53, 2 ** 63, -(2 ** 63), 1e308, '12', null, true],
  berth: [0, -1, 1000, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 1.5, '7', null],
  time: ['2026-02-29T10:00:00Z', '2026-02-30T10:00:00Z', '2026-04-31T10:00:00+05:30', '2026-03-15T10:00:00+16:00',
    '2026-03-15T10:00:00-23:00', '0000-03-15T10:00:00Z', '2026-03-15T24:00:00Z', '2026-03-15T10:60:00Z', '2026-03-15T10:00:60Z',
    '2099-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2026-03-15 10:00', '2026-03-15T10:00:00', '+275760-09-13T00:00:00Z', 1, null],
  money: [-1, 0.001, 1e8, 1e308, Number.MIN_VALUE, '100', null],
  bool: ['true', 1, null],
};

/** The value to put in a field of the given kind: mostly a bad one, sometimes junk of any shape. */
export function badSyncValue(f: FuzzContext, kind: SyncKind): unknown {
  const { rng } = f;
  if (rng.chance(0.15)) return junk(f);
  if (rng.chance(0.1)) return rng.pick(BAD_VALUES);
  if (Array.isArray(kind)) return rng.pick<unknown>([`${String(kind[0])}X`, '', (kind[0] ?? '').toLowerCase(), '\ud800', 3, null]);
  return rng.pick(SYNC_BAD[kind as string] ?? [null]);
}

/** Field kinds of each record type (the shapes docs/hht-sync.md lists), for the sync fuzzer. */
export const SYNC_FIELD_KINDS: Record<string, Record<string, SyncKind>> = {
  common: { id: 'id', beatId: 'int' },
  CHECK: { eventType: ['O', 'NT', 'SHIFTED', 'GOT_DOWN'], psgnId: 'int', coachId: 'code', berthNo: 'berth', newCoachId: 'code', newBerthNo: 'berth', stationCode: 'code', deviceTime: 'time', eventId: 'int' },
  ALLOTMENT: { psgnId: 'int', coachId: 'code', berthNo: 'berth', fromStation: 'code', toStation: 'code', at: 'time', eftNo: 'id', eventId: 'int', reallocId: 'int' },
  SIGN_ON: { at: 'time' },
  SIGN_OFF: { at: 'time' },
  TWR: { twrStatus: ['SUBMITTED', 'NOT_SUBMITTED', 'EMPTY'], at: 'time' },
  EFT: { eftNo: 'id', pnr: 'code', psgnName: 'text', coachId: 'code', fromStation: 'code', toStation: 'code', reason: ['UPGRADE', 'TICKETLESS'], excessFare: 'money', excessCharge: 'money', total: 'money', paymentMode: ['CASH', 'CARD', 'UPI'], issuedAt: 'time' },
  BERTH_RELEASE: { coachId: 'code', berthNo: 'berth', fromStation: 'code', at: 'time', rebooked: 'bool' },
  DEFICIENCY: { coachId: 'code', category: ['WATER', 'AC'], description: 'text', stationCode: 'code', reportedAt: 'time', status: ['OPEN', 'CLOSED'], closedAt: 'time', deficiencyId: 'int' },
  DEFICIENCY_CLOSE: { deficiencyId: 'int', closedAt: 'time' },
  TDR_REMARK: { tdrId: 'id', remark: 'text' },
  payment: { txnId: 'id', amount: 'money', mode: ['CARD', 'UPI'], status: ['SUCCESS', 'FAILED', 'PENDING'], at: 'time', posId: 'id' },
};

/**
 * A sync body built from valid records (`valid(i)`: a fresh, storable record of each type) with some fields replaced
 * by bad values, one field at a time mostly, or the batch's own fields broken. Returns the body and the field hit.
 */
export function fuzzSyncBody(f: FuzzContext, valid: () => Record<string, unknown>[]): { body: unknown; field: string } {
  const { rng } = f;
  // Mostly one record (and what it refers to), sometimes all of them: each record type costs the ingest its queries.
  const all = valid();
  const pick = rng.int(0, all.length - 1);
  const picked = all[pick] ?? {};
  const records = rng.chance(0.03)
    ? all
    : picked.type === 'DEFICIENCY_CLOSE'
      ? all.filter((r) => r.type === 'DEFICIENCY' || r === picked)
      : [picked];
  const batchId = `fz-${rng.int(0, 1e9)}`;
  const shape = rng.weighted<string>([['field', 20], ['fields', 3], ['payment', 3], ['batch', 1], ['missing', 2], ['extra', 1]]);
  if (shape === 'batch') {
    return { field: 'batch', body: rng.pick<unknown>([{ batchId: badSyncValue(f, 'id'), records }, { batchId, records: junk(f) }, { batchId, records: [] }, { batchId, records, more: 1 }, { records }]) };
  }
  const i = records.length === all.length ? pick : records.indexOf(picked);
  const r = picked;
  const kinds = { ...SYNC_FIELD_KINDS.common, ...(SYNC_FIELD_KINDS[String(r.type)] ?? {}) };
  const names = Object.keys(kinds);
  if (shape === 'payment' && Array.isArray(r.payments) && r.payments.length > 0) {
    const p = r.payments[0] as Record<string, unknown>;
    const name = rng.pick(Object.keys(SYNC_FIELD_KINDS.payment ?? {}));
    p[name] = badSyncValue(f, SYNC_FIELD_KINDS.payment?.[name] ?? 'id');
    return { field: `records[${i}].payments[0].${name}`, body: { batchId, records } };
  }
  if (shape === 'missing') {
    const name = rng.pick(names);
    delete r[name];
    return { field: `records[${i}].${name}`, body: { batchId, records } };
  }
  if (shape === 'extra') {
    r[rng.pick(['extra', '__proto__', 'x\u0000', 'constructor'])] = junk(f);
    return { field: `records[${i}]`, body: { batchId, records } };
  }
  const hits = shape === 'fields' ? rng.int(2, 4) : 1;
  const hit: string[] = [];
  for (let k = 0; k < hits; k++) {
    const name = rng.pick(names);
    r[name] = badSyncValue(f, kinds[name] ?? 'id');
    hit.push(name);
  }
  return { field: `records[${i}].${hit.join('+')}`, body: { batchId, records } };
}
