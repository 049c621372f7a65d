// Writes <file>.br and <file>.gz next to every compressible file of the built client (dist/client), at the
// highest settings: this runs once per build, so the CPU is spent here instead of on each request.
// Usage: node scripts/precompress.mjs [dir]   (plain JavaScript: it runs right after `vite build`, without tsx)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|map|ttf|eot|woff)$/i; // woff2 is already brotli inside
const MIN_BYTES = 1024;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const root = resolve(process.argv[2] ?? 'dist/client');
let count = 0;
let before = 0;
let after = 0;
for (const path of files(root)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const body = readFileSync(path);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = gzipSync(body, { level: 9 });
  // A compressed copy that is not smaller is not written: the server then sends the file as it is.
  if (br.length < body.length) writeFileSync(`${path}.br`, br);
  if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
  count += 1;
  before += body.length;
  after += br.length;
}
console.log(`precompressed ${count} files in ${root}: ${Math.round(before / 1024)} KiB -> ${Math.round(after / 1024)} KiB (brotli)`);
