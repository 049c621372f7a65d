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

/** One junk value, possibly nested (depth-limited). */
export function junk(f: FuzzContext, depth = 0): unknown {
  const { rng } = f;
  const kind = rng.weighted<string>([
    ['string', 5], ['number', 2], ['bool', 1], ['null', 1], ['plausible', 4], ['array', depth < 4 ? 1 : 0], ['object', depth < 4 ? 1 : 0],
  ]);
  switch (kind) {
    case 'string': return rng.pick(STRINGS)(rng);
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
