/**
 * Lighthouse section of `npm run bench -- --lighthouse`: the performance score of /login, mobile profile (Lighthouse's
 * default: simulated slow 4G and a 4x slower CPU), on Debian's chromium, against the built server (`npm run build`
 * first). Two rows: the server as it answers, and the same server behind a small local proxy that compresses
 * (brotli/gzip) what it sends uncompressed, to show what compression is worth whether or not the server has it.
 * Lighthouse comes through npx (it is not a dependency of the project): LIGHTHOUSE_VERSION picks the version.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { freePort, startServer } from '../support/server';

const LIGHTHOUSE = `lighthouse@${process.env.LIGHTHOUSE_VERSION ?? '12.8.2'}`;
const COMPRESSIBLE = /^(text\/|application\/(javascript|json)|image\/svg\+xml)/;

interface LighthouseResult {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  transferKb: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** A pass-through proxy that compresses what the server sent uncompressed (bench only; the server has its own). */
async function compressingProxy(target: number): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        const type = String(up.headers['content-type'] ?? '');
        const accepts = String(req.headers['accept-encoding'] ?? '');
        const encoding = up.headers['content-encoding'] || !COMPRESSIBLE.test(type) ? null : /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
        const headers = { ...up.headers };
        if (encoding) {
          delete headers['content-length'];
          headers['content-encoding'] = encoding;
          headers.vary = 'Accept-Encoding';
        }
        res.writeHead(up.statusCode ?? 502, headers);
        if (!encoding) {
          up.pipe(res);
          return;
        }
        const z = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip({ level: 6 });
        pipeline(up, z, res, () => undefined);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  return { port, server };
}

function runLighthouse(url: string): Promise<LighthouseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hht-lighthouse-'));
  const out = join(dir, 'report.json');
  const args = [
    '--yes', LIGHTHOUSE, url,
    '--only-categories=performance',
    '--output=json', `--output-path=${out}`, '--quiet',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
  ];
  return new Promise((ok, fail) => {
    const child = spawn('npx', args, { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      try {
        if (code !== 0 || !existsSync(out)) throw new Error(`lighthouse exited with ${code}: ${err.slice(-2000)}`);
        const lhr = JSON.parse(readFileSync(out, 'utf8')) as {
          categories: { performance: { score: number } };
          audits: Record<string, { numericValue?: number }>;
        };
        const audit = (id: string): number => lhr.audits[id]?.numericValue ?? NaN;
        ok({
          score: Math.round(lhr.categories.performance.score * 100),
          fcpMs: audit('first-contentful-paint'),
          lcpMs: audit('largest-contentful-paint'),
          tbtMs: audit('total-blocking-time'),
          transferKb: audit('total-byte-weight') / 1024,
        });
      } catch (e) {
        fail(e instanceof Error ? e : new Error(String(e)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

export async function printLighthouse(runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3)): Promise<void> {
  if (!existsSync(resolve('dist/client/index.html'))) throw new Error('dist/client is missing: run `npm run build` first');
  // The login screen needs no data set: no seed, so the server is up in seconds.
  const server = await startServer({ HHT_SEED: 'none' });
  const proxy = await compressingProxy(server.port);
  try {
    console.log(`\n## Lighthouse ${LIGHTHOUSE}, /login, mobile (median of ${runs} runs, interleaved)\n`);
    console.log('| server | score | FCP ms | LCP ms | TBT ms | transfer KiB |\n|---|---:|---:|---:|---:|---:|');
    const rows: Record<string, LighthouseResult[]> = { 'as it answers': [], 'behind a compressing proxy': [] };
    for (let i = 0; i < runs; i += 1) {
      rows['as it answers']?.push(await runLighthouse(`${server.url}/login`));
      rows['behind a compressing proxy']?.push(await runLighthouse(`http://127.0.0.1:${proxy.port}/login`));
    }
    for (const [name, rs] of Object.entries(rows)) {
      const m = (f: (r: LighthouseResult) => number): string => median(rs.map(f)).toFixed(0);
      console.log(`| ${name} | ${m((r) => r.score)} (${rs.map((r) => r.score).join(', ')}) | ${m((r) => r.fcpMs)} | ${m((r) => r.lcpMs)} | ${m((r) => r.tbtMs)} | ${m((r) => r.transferKb)} |`);
    }
  } finally {
    proxy.server.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await printLighthouse();
