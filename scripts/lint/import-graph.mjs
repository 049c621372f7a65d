// The project's own import graph: which source file imports which, and the ways back through it.
// Only relative imports count (packages are not ours to order); `import type`, re-exports and import() count too,
// since a type-only circle still ties two files together for a reader.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'];

/**
 * @typedef {{ to: string, specifier: string, line: number, column: number }} ImportEdge
 *   to: absolute path of the imported file; line 1-based, column 0-based (ESLint's convention)
 */

/** The file a relative specifier names, as the bundler and tsx resolve it; undefined for a package or a missing file. */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const bare = resolve(dirname(fromFile), specifier.split('?')[0] ?? specifier);
  const jsAsTs = /\.(m?)js$/.test(bare) ? [bare.replace(/\.(m?)js$/, '.$1ts'), bare.replace(/\.js$/, '.tsx')] : [];
  const candidates = [
    bare,
    ...jsAsTs,
    ...SOURCE_EXTENSIONS.map((ext) => bare + ext),
    ...SOURCE_EXTENSIONS.map((ext) => join(bare, `index${ext}`)),
  ];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** A file's relative imports, read from its text with TypeScript's own import scanner. */
export function importsOf(file, text) {
  const info = ts.preProcessFile(text, true, true);
  const lineStarts = ts.computeLineStarts(text);
  /** @type {ImportEdge[]} */
  const edges = [];
  for (const ref of info.importedFiles) {
    const to = resolveImport(file, ref.fileName);
    if (!to) continue;
    const { line, character } = ts.computeLineAndCharacterOfPosition(lineStarts, ref.pos);
    edges.push({ to, specifier: ref.fileName, line: line + 1, column: character });
  }
  return edges;
}

/** Every source file under the given folders of root, with its imports; `texts` (optional) receives each file's text. */
export function buildImportGraph(root, folders, texts = new Map()) {
  /** @type {Map<string, ImportEdge[]>} */
  const graph = new Map();
  for (const folder of folders) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of ts.sys.readDirectory(dir, SOURCE_EXTENSIONS, ['**/node_modules/**'])) {
      const abs = resolve(file);
      const text = readFileSync(abs, 'utf8');
      texts.set(abs, text);
      graph.set(abs, importsOf(abs, text));
    }
  }
  return graph;
}

/** For each file, the files that import it. */
export function importersOf(graph) {
  /** @type {Map<string, string[]>} */
  const importers = new Map();
  for (const [file, edges] of graph) {
    for (const { to } of edges) importers.set(to, [...(importers.get(to) ?? []), file]);
  }
  return importers;
}

/** Every file from which `file` can be reached through imports (walking the importers back from it). */
export function reachersOf(importers, file) {
  const seen = new Set();
  const queue = [file];
  while (queue.length > 0) {
    for (const importer of importers.get(queue.shift()) ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      queue.push(importer);
    }
  }
  return seen;
}

/** The shortest chain of imports from `from` to `to` (both ends included), or undefined when there is none. */
export function shortestPath(graph, from, to) {
  const previous = new Map([[from, from]]);
  const queue = [from];
  while (queue.length > 0 && !previous.has(to)) {
    const file = queue.shift();
    for (const { to: next } of graph.get(file) ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, file);
      queue.push(next);
    }
  }
  if (!previous.has(to)) return undefined;
  const path = [to];
  while (path[0] !== from) path.unshift(previous.get(path[0]));
  return path;
}

/** A path relative to root with forward slashes, as messages and layer rules name files. */
export function projectPath(root, file) {
  return relative(root, file).split(sep).join('/');
}
