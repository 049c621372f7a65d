import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { partTest, splitFlatModule } from './scripts/vite/split-flat-module.ts';
import { DEFAULT_PAYLOAD_KEY } from './src/shared/constants.ts';
import { accessibleThemeCss, parseAccessiblePrimary, type AccessiblePrimary } from './src/shared/theme-contrast.ts';
import { isReplacedThemeFont, scriptOf, subsetFaces, variableFontFamily, withSubsetFaces, type SubsetFace } from './src/shared/theme-fonts.ts';

/** AG Grid's core module, and the parts the client build cuts it into. */
const AG_GRID_CORE = /node_modules[\\/]ag-grid-community[\\/]dist[\\/]package[\\/]main\.esm\.mjs$/;
const AG_GRID_PARTS = [0, 1];

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

const THEMES_SRC = resolve('node_modules/primereact/resources/themes');
/** Inter split by script (src/shared/theme-fonts.ts), served as /themes/inter/<file> for every Lara theme. */
const INTER_SRC = resolve('node_modules/@fontsource-variable/inter');
const INTER_DIR = 'inter';
/** The scripts the portal shows in Inter (Hindi has its own font: src/client/i18n/hi/devanagari.css). */
const INTER_SCRIPTS = ['latin', 'latin-ext'];
const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Theme ids of the settings panel (themes/themes.json). */
function themeIds(): string[] {
  const doc: unknown = JSON.parse(readFileSync(resolve('themes/themes.json'), 'utf8'));
  const groups = typeof doc === 'object' && doc !== null && 'groups' in doc && Array.isArray(doc.groups) ? doc.groups : [];
  const ids = groups.flatMap((g: unknown) =>
    typeof g === 'object' && g !== null && 'themes' in g && Array.isArray(g.themes)
      ? g.themes.flatMap((t: unknown) => (typeof t === 'object' && t !== null && 'id' in t && typeof t.id === 'string' ? [t.id] : []))
      : [],
  );
  for (const id of ids) {
    if (!/^[a-z0-9-]+$/.test(id) || !existsSync(join(THEMES_SRC, id, 'theme.css'))) {
      throw new Error(`themes/themes.json: primereact has no theme "${id}"`);
    }
  }
  return ids;
}

/** themes.json's "accessible" primaries by theme id: their theme.css is served with it (src/shared/theme-contrast.ts). */
function themeFixes(): Map<string, AccessiblePrimary> {
  const doc: unknown = JSON.parse(readFileSync(resolve('themes/themes.json'), 'utf8'));
  const groups = typeof doc === 'object' && doc !== null && 'groups' in doc && Array.isArray(doc.groups) ? doc.groups : [];
  const out = new Map<string, AccessiblePrimary>();
  for (const g of groups) {
    for (const t of typeof g === 'object' && g !== null && 'themes' in g && Array.isArray(g.themes) ? g.themes : []) {
      if (typeof t !== 'object' || t === null || !('id' in t) || typeof t.id !== 'string' || !('accessible' in t)) continue;
      const fix = parseAccessiblePrimary(t.accessible);
      if (typeof fix === 'string') throw new Error(`themes/themes.json: theme "${t.id}": ${fix}`);
      if (fix) out.set(t.id, fix);
    }
  }
  return out;
}

/** A theme file as served: theme.css with its readable primary, anything else as PrimeReact ships it. */
function themeFile(id: string, rel: string, fixes: Map<string, AccessiblePrimary>): Buffer | string {
  const bytes = readFileSync(join(THEMES_SRC, id, rel));
  if (rel !== 'theme.css') return bytes;
  const css = accessibleThemeCss(bytes.toString('utf8'), fixes.get(id));
  const family = variableFontFamily(css);
  if (!family) return css;
  const faces = (file: string): SubsetFace[] =>
    subsetFaces(readFileSync(join(INTER_SRC, file), 'utf8'), family, `../${INTER_DIR}/`, `@fontsource-variable/inter/${file}`, INTER_SCRIPTS);
  return withSubsetFaces(css, faces('index.css'), faces('wght-italic.css'));
}

/** The per-script Inter files the rewritten themes point at. */
function interFiles(): string[] {
  return readdirSync(join(INTER_SRC, 'files')).filter((f) => INTER_SCRIPTS.includes(scriptOf(f)));
}

/** Where index.html wants the default theme's stylesheet: before the app's CSS, which overrides it. */
const THEME_LINK_MARK = '<!-- hht:theme-link -->';

/** themes.json's "default" theme: index.html links it, so the first paint waits for no script-made request. */
function defaultThemeId(): string {
  const doc: unknown = JSON.parse(readFileSync(resolve('themes/themes.json'), 'utf8'));
  const id = typeof doc === 'object' && doc !== null && 'default' in doc ? doc.default : undefined;
  if (typeof id !== 'string' || !themeIds().includes(id)) throw new Error('themes/themes.json: "default" must name one of its themes');
  return id;
}

/** Files of one theme folder, relative to it (theme.css and fonts/*). */
function themeFiles(id: string): string[] {
  const walk = (rel: string): string[] =>
    readdirSync(join(THEMES_SRC, id, rel)).flatMap((name) => {
      const r = rel ? `${rel}/${name}` : name;
      return statSync(join(THEMES_SRC, id, r)).isDirectory() ? walk(r) : [r];
    });
  return walk('');
}

/**
 * PrimeReact's own theme files, no CDN: copied into the build as themes/<id>/theme.css (+ fonts) for every theme of
 * themes/themes.json, and served from node_modules under /themes/ by the dev server. index.html gets the default
 * theme's <link> (id theme-link, as src/client/layout/theme-link.ts expects) ahead of the app's own CSS. A theme
 * whose primary does not reach 4.5:1 is served with themes.json's "accessible" primary (src/shared/theme-contrast.ts).
 */
function primeThemes(): Plugin {
  return {
    name: 'hht-prime-themes',
    transformIndexHtml: {
      // After Vite's own processing, which would try to bundle the theme (it is a file of the build, not a module).
      order: 'post',
      handler(html) {
        if (!html.includes(THEME_LINK_MARK)) throw new Error(`index.html has no ${THEME_LINK_MARK} placeholder`);
        const id = defaultThemeId();
        return html.replace(THEME_LINK_MARK, `<link rel="stylesheet" id="theme-link" data-theme="${id}" href="/themes/${id}/theme.css" />`);
      },
    },
    configureServer(server) {
      const ids = new Set(themeIds());
      server.middlewares.use('/themes', (req, res) => {
        const m = /^\/([a-z0-9-]+)\/((?:fonts\/)?[A-Za-z0-9._-]+)$/.exec((req.url ?? '').split('?')[0] ?? '');
        const inter = m?.[1] === INTER_DIR && m[2] && interFiles().includes(m[2]) ? join(INTER_SRC, 'files', m[2]) : null;
        const file = inter ?? (m?.[1] && m[2] && ids.has(m[1]) ? join(THEMES_SRC, m[1], m[2]) : null);
        if (!file || !existsSync(file)) {
          res.statusCode = 404;
          res.end('Not found');
          return;
        }
        res.setHeader('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
        if (m?.[2] === 'theme.css' && m[1]) res.end(themeFile(m[1], 'theme.css', themeFixes()));
        else createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      const fixes = themeFixes();
      let splitInter = false;
      for (const id of themeIds()) {
        const css = themeFile(id, 'theme.css', fixes);
        const split = typeof css === 'string' && css.includes(`../${INTER_DIR}/`);
        splitInter ||= split;
        for (const rel of themeFiles(id)) {
          if (split && isReplacedThemeFont(rel)) continue; // no page asks for it any more
          this.emitFile({ type: 'asset', fileName: `themes/${id}/${rel}`, source: rel === 'theme.css' ? css : themeFile(id, rel, fixes) });
        }
      }
      if (splitInter) {
        for (const f of interFiles()) this.emitFile({ type: 'asset', fileName: `themes/${INTER_DIR}/${f}`, source: readFileSync(join(INTER_SRC, 'files', f)) });
      }
    },
  };
}

// One config for the client build, the dev server and the three test projects.
export default defineConfig({
  root: 'src/client',
  publicDir: false,
  plugins: [react(), primeThemes(), splitFlatModule({ file: AG_GRID_CORE, parts: AG_GRID_PARTS.length })],
  define: {
    // The payload key is shared by the build and the server (spec: fixed symmetric key in the client).
    __HHT_PAYLOAD_KEY__: JSON.stringify(process.env.HHT_PAYLOAD_KEY || DEFAULT_PAYLOAD_KEY),
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // dist/client/.vite/manifest.json: which files each route loads (tests/support/bundle-size.ts measures them).
    manifest: true,
    // Vendor libraries in chunks of their own, so that no chunk passes Vite's 500 kB warning and a release that changes
    // only our code leaves them cached. Split by package, never by size: RJSF cut by size across chunks broke its
    // CommonJS interop at run time (a page that loads the forms stopped with "d is not a function").
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React first: the login's entry needs it, and a group below would otherwise take it in with its users.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 7 },
            { name: 'ag-stack', test: /node_modules[\\/]ag-stack[\\/]/, priority: 6 },
            // AG Grid's core is one prebuilt module of about 650 kB even with only the modules the grid registers:
            // cut into parts (scripts/vite/split-flat-module.ts), one chunk each. The parts import each other, so a
            // part's group must not take in its dependencies (they are the other parts, and ag-stack above).
            ...AG_GRID_PARTS.map((i) => ({
              name: `ag-grid-core-${i}`,
              test: partTest(AG_GRID_CORE, i),
              priority: 5,
              includeDependenciesRecursively: false,
            })),
            { name: 'ag-grid', test: /node_modules[\\/]ag-grid-(community|react)[\\/]/, priority: 4 },
            // PrimeReact by the set of pages that load each component: the form widgets RJSF uses are in no chunk
            // with the grid's, the device list's or the shell's.
            { name: 'prime', test: /node_modules[\\/]primereact[\\/]/, priority: 3, entriesAware: true },
            { name: 'forms', test: /node_modules[\\/]@rjsf[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  test: {
    root: '.',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // @rjsf/primereact imports 'primereact/<component>' directories, which Node's ESM loader cannot resolve: let Vite.
          server: { deps: { inline: ['@rjsf/primereact'] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          // A loaded 2-core CI machine can take seconds to paint; a poll gives up only after 10 s.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
