// Writes <file>.br and <file>.gz next to every compressible file of the built client (dist/client), so the server
// sends them as they are instead of compressing on each request.
// Brotli quality 9, not 11: measured on the report chunk (1.3 MB), 11 is 8 % smaller but takes 12x as long (9.4 s
// against 0.75 s) and every `npm run build` (e2e runs included) would pay it (docs/decisions.md).
// Usage: node scripts/precompress.mjs [dir]   (plain JavaScript: it runs right after `vite build`, without tsx)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map|ttf|eot|woff)$/i; // woff2 is brotli inside already
const MIN_BYTES = 1024;
const BROTLI_QUALITY = 9;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const root = resolve(process.argv[2] ?? 'dist/client');
const todo = [...files(root)].filter((p) => COMPRESSIBLE.test(p) && statSync(p).size >= MIN_BYTES);
let before = 0;
let after = 0;

async function compressOne(path) {
  const body = readFileSync(path);
  const [br, gzipped] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gz(body, { level: 9 }),
  ]);
  // A compressed copy that is not smaller is not written: the server then sends the file as it is.
  if (br.length < body.length) writeFileSync(`${path}.br`, br);
  if (gzipped.length < body.length) writeFileSync(`${path}.gz`, gzipped);
  before += body.length;
  after += Math.min(br.length, body.length);
}

// zlib's async calls run on libuv's thread pool: a few files at a time use every core.
const queue = [...todo];
await Promise.all(
  Array.from({ length: Math.max(1, availableParallelism()) }, async () => {
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) await compressOne(p);
  }),
);
console.log(`precompressed ${todo.length} files in ${root}: ${Math.round(before / 1024)} KiB -> ${Math.round(after / 1024)} KiB (brotli)`);
