import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What a browser downloads for a route of the built client, read from Vite's manifest (build.manifest) and the built
 * index.html: the route's chunks, everything they import statically, their CSS, and the stylesheets the HTML links.
 * Sizes are gzip level 9 (what a server precompresses with). Used by the bundle test and `npm run bench`.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

export interface BundleFile {
  file: string;
  bytes: number;
  gzip: number;
}

export interface RouteSize {
  files: BundleFile[];
  bytes: number;
  gzip: number;
}

export interface BundleReport {
  /** index.html's entry, its static imports, their CSS and the stylesheets linked from the HTML (the theme). */
  login: RouteSize;
  /** What opening a report adds to the login's files: the shell and the report route, with their static imports. */
  reportExtra: RouteSize;
  /** What the first run of a report adds on top: the results grid (AG Grid), loaded when there is a request. */
  resultsGrid: RouteSize;
  /** Every JS chunk of the build with its size (largest first). */
  chunks: BundleFile[];
}

/** Manifest keys (paths under src/client) of the lazy modules a report page needs besides the entry. */
export const REPORT_ROUTE_MODULES = ['app/ShellRoute.tsx', 'app/ReportRoute.tsx'] as const;
/** Manifest key of the results grid, a lazy chunk of the report page. */
export const RESULTS_GRID_MODULE = 'features/reports/components/ResultGrid.tsx';

function isManifestChunk(v: unknown): v is ManifestChunk {
  return typeof v === 'object' && v !== null && typeof (v as { file?: unknown }).file === 'string';
}

export function readManifest(distDir: string): Manifest {
  const path = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first (build.manifest must be on)`);
  const doc: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof doc !== 'object' || doc === null) throw new Error(`${path}: not an object`);
  const out: Manifest = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!isManifestChunk(value)) throw new Error(`${path}: entry ${key} has no file`);
    out[key] = value;
  }
  return out;
}

/** Files of the given manifest keys and of everything they import statically (JS and CSS), as dist-relative paths. */
export function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no entry ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imp of chunk.imports ?? []) visit(imp);
  };
  keys.forEach(visit);
  return files;
}

/** Same-origin stylesheets index.html links or preloads (the theme is linked from the HTML, not by a script). */
export function htmlStylesheets(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1] ?? '';
    const as = /\bas="([^"]+)"/.exec(tag)?.[1] ?? '';
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (!href || !href.startsWith('/') || href.startsWith('//')) continue;
    if (rel === 'stylesheet' || (rel === 'preload' && as === 'style')) out.push(href.slice(1));
  }
  return [...new Set(out)];
}

function sizeOf(distDir: string, file: string): BundleFile {
  const body = readFileSync(join(distDir, file));
  return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

function routeSize(distDir: string, files: Iterable<string>): RouteSize {
  const list = [...files].map((f) => sizeOf(distDir, f)).sort((a, b) => b.gzip - a.gzip);
  return {
    files: list,
    bytes: list.reduce((s, f) => s + f.bytes, 0),
    gzip: list.reduce((s, f) => s + f.gzip, 0),
  };
}

export function measureBundle(distDir: string): BundleReport {
  const manifest = readManifest(distDir);
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const login = staticClosure(manifest, ['index.html']);
  for (const css of htmlStylesheets(html)) login.add(css);
  const reportKeys = REPORT_ROUTE_MODULES.filter((k) => manifest[k]);
  if (!reportKeys.includes('app/ReportRoute.tsx')) throw new Error('manifest has no app/ReportRoute.tsx: is the report route still lazy?');
  const reportAll = staticClosure(manifest, reportKeys);
  const report = [...reportAll].filter((f) => !login.has(f));
  const grid = manifest[RESULTS_GRID_MODULE]
    ? [...staticClosure(manifest, [RESULTS_GRID_MODULE])].filter((f) => !login.has(f) && !reportAll.has(f))
    : [];
  const chunks = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  return {
    login: routeSize(distDir, login),
    reportExtra: routeSize(distDir, report),
    resultsGrid: routeSize(distDir, grid),
    chunks: chunks.map((f) => sizeOf(distDir, f)).sort((a, b) => b.gzip - a.gzip),
  };
}

export const kb = (bytes: number): string => (bytes / 1000).toFixed(1);
