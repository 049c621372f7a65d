// Compiles the server (src/server, src/shared) to plain JavaScript in dist/, one output file per source file so the
// folder layout stays as it is: code that finds files next to itself (import.meta.url: migrations, a worker thread
// script) finds them in dist/ too. npm packages stay imports of node_modules. `npm start` runs dist/server/main.js.
// Usage: node scripts/build-server.mjs   (plain JavaScript, so building needs no TypeScript loader)
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname ?? dirname(new URL(import.meta.url).pathname), '..');
const outdir = join(root, 'dist');
const sources = ['src/server', 'src/shared'];

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* tsFiles(path);
    else if (/\.tsx?$/.test(name) && !/\.d\.ts$|\.test\.tsx?$/.test(name)) yield path;
  }
}

/** A relative import without extension ('./config', './db') becomes the compiled file's name ('./config.js', './db/index.js'). */
const relativeImportsToJs = {
  name: 'relative-imports-to-js',
  setup(b) {
    b.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = resolve(args.resolveDir, args.path);
      const candidates = [
        [`${target}.ts`, `${args.path}.js`],
        [`${target}.tsx`, `${args.path}.js`],
        [join(target, 'index.ts'), `${args.path.replace(/\/$/, '')}/index.js`],
      ];
      for (const [file, spec] of candidates) if (existsSync(file)) return { path: spec, external: true };
      if (/\.tsx?$/.test(target) && existsSync(target)) return { path: args.path.replace(/\.tsx?$/, '.js'), external: true };
      return { path: args.path, external: true }; // .json and other files: resolved by Node at run time
    });
    // 'crypto-js/aes': a deep import into a package without an "exports" map needs its file name under Node's ESM
    // loader ('crypto-js/aes.js'). Packages with an exports map and plain package names stay as written.
    b.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/.+/ }, (args) => {
      const m = /^((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(args.path);
      if (!m) return { path: args.path, external: true };
      const require = createRequire(join(args.resolveDir, 'x.js'));
      let pkgJson;
      try {
        pkgJson = require.resolve(`${m[1]}/package.json`);
      } catch {
        // An exports map that does not list ./package.json (@rjsf/validator-ajv8): it has an exports map, so Node
        // resolves the subpath itself.
        return { path: args.path, external: true };
      }
      const pkg = JSON.parse(readFileSync(pkgJson, 'utf8'));
      if (pkg.exports !== undefined) return { path: args.path, external: true };
      const file = require.resolve(args.path);
      return { path: `${m[1]}/${relative(dirname(pkgJson), file).split(sep).join('/')}`, external: true };
    });
  },
};

for (const dir of ['server', 'shared']) rmSync(join(outdir, dir), { recursive: true, force: true });
const entryPoints = sources.flatMap((s) => [...tsFiles(join(root, s))]);
await build({
  entryPoints,
  outbase: join(root, 'src'),
  outdir,
  bundle: true, // only so that the plugin sees every import: relative imports and packages all stay external
  plugins: [relativeImportsToJs],
  external: ['*'], // anything the plugin did not rewrite (package names) stays an import
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
// Files the server reads from next to its own code (migrations, rollup functions, reference queries): every file
// that is not TypeScript, so a new folder of SQL is never left behind.
function* dataFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* dataFiles(path);
    else if (!/\.tsx?$/.test(name)) yield path;
  }
}
for (const src of sources) {
  for (const file of dataFiles(join(root, src))) cpSync(file, join(outdir, relative(join(root, 'src'), file)));
}
console.log(`built ${entryPoints.length} server files into ${relative(root, outdir)}${sep}server`);
