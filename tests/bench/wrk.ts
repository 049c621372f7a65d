import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkRun {
  rps: number;
  p99: number;
  /** Requests answered in the run. */
  total: number;
  /** wrk's own lines about non-2xx answers and socket errors; empty when there were none. */
  errors: string;
  /** Share of answers the server said came from its result cache (x-hht-cache: hit), when counted. */
  hitRate?: number;
}

export interface WrkLoad {
  url: string;
  headers: Record<string, string>;
  /** JSON bodies POSTed in turn (each wrk thread goes through them one after the other). */
  bodies: readonly object[];
  seconds: number;
  connections?: number;
  /** Count the answers by their x-hht-cache header (sent with test hooks on). */
  countCache?: boolean;
}

/** Runs wrk (2 threads, 50 connections unless said) POSTing the bodies in turn; reads its summary. */
export function runWrk(load: WrkLoad): WrkRun {
  const dir = mkdtempSync(join(tmpdir(), 'hht-wrk-'));
  const luaFile = join(dir, 'post.lua');
  const headers = { 'Content-Type': 'application/json', ...load.headers };
  writeFileSync(luaFile, [
    'wrk.method = "POST"',
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    `bodies = { ${load.bodies.map((b) => JSON.stringify(JSON.stringify(b))).join(',\n')} }`,
    'n = 0',
    'request = function()',
    '  n = n + 1',
    '  return wrk.format(nil, nil, nil, bodies[(n % #bodies) + 1])',
    'end',
    // How each answer was had (x-hht-cache, sent with test hooks): the cache's hit rate under this traffic.
    ...(load.countCache ? [
      'threads = {}',
      'function setup(thread) table.insert(threads, thread) end',
      'function init() hits = 0; others = 0 end',
      'function response(status, headers, body) if headers["x-hht-cache"] == "hit" then hits = hits + 1 else others = others + 1 end end',
      'function done() local h, o = 0, 0; for _, t in ipairs(threads) do h = h + t:get("hits"); o = o + t:get("others") end; io.write(string.format("cache hits %d others %d\\n", h, o)) end',
    ] : []),
  ].join('\n'));
  let text: string;
  try {
    text = execFileSync('wrk', ['-t2', `-c${load.connections ?? 50}`, `-d${load.seconds}s`, '--latency', '-s', luaFile, load.url], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const total = Number(/(\d+) requests in/.exec(text)?.[1]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(text);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
  // Non-2xx answers are counted by wrk as "Non-2xx or 3xx responses": a bench of errors must show.
  const errors = [/Non-2xx or 3xx responses: \d+/.exec(text)?.[0], /Socket errors:.*/.exec(text)?.[0]].filter(Boolean).join('; ');
  const cache = /cache hits (\d+) others (\d+)/.exec(text);
  return { rps, p99, total, errors, ...(cache ? { hitRate: Number(cache[1]) / (Number(cache[1]) + Number(cache[2])) } : {}) };
}
