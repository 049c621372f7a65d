// ESLint rules over the project's import graph (scripts/lint/import-graph.mjs):
//   imports/no-cycle  no file reaches itself through its imports, however long the circle;
//   imports/layers    a folder imports only from the folders its layer allows, or not from those it denies (the
//                     one-way imports of the architecture; the most specific folder's rule applies).
// Our own rules rather than eslint-plugin-import or dependency-cruiser: the graph is built once per lint run with the
// TypeScript scanner already installed (well under a second for the whole tree), and no dependency asks for a newer
// Node than the project's.
import { resolve } from 'node:path';
import { buildImportGraph, importersOf, importsOf, projectPath, reachersOf, shortestPath } from './import-graph.mjs';

/**
 * The graph and who imports whom, read from disk the first time a file asks, once per root and folder list. The file
 * being linted contributes its imports from the text ESLint holds, so an editor sees a new cycle before saving.
 */
const graphs = new Map();
function graphFor(root, folders) {
  const key = `${root}\n${folders.join('\n')}`;
  let entry = graphs.get(key);
  if (!entry) {
    const texts = new Map();
    const graph = buildImportGraph(root, folders, texts);
    entry = { graph, texts, importers: importersOf(graph) };
    graphs.set(key, entry);
  }
  return entry;
}

/** The imports of the file being linted: the graph's when ESLint holds the text read from disk, else scanned afresh. */
function currentImports(entry, file, text) {
  return entry && entry.texts.get(file) === text ? (entry.graph.get(file) ?? []) : importsOf(file, text);
}

const locOf = (edge) => ({ start: { line: edge.line, column: edge.column }, end: { line: edge.line, column: edge.column + edge.specifier.length + 2 } });

/** @type {import('eslint').Rule.RuleModule} */
const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow import cycles between the project’s files' },
    schema: [{ type: 'object', properties: { folders: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: { cycle: 'Import cycle: {{path}}. Move what these files share into a file both can import.' },
  },
  create(context) {
    const root = context.cwd;
    const folders = context.options[0]?.folders ?? ['src'];
    return {
      'Program:exit'() {
        const file = resolve(context.filename);
        const entry = graphFor(root, folders);
        const { graph, importers } = entry;
        const reachers = reachersOf(importers, file);
        for (const edge of currentImports(entry, file, context.sourceCode.text)) {
          if (edge.to !== file && !reachers.has(edge.to)) continue;
          const back = edge.to === file ? [file] : (shortestPath(graph, edge.to, file) ?? [edge.to, file]);
          const circle = [file, ...back];
          context.report({ loc: locOf(edge), messageId: 'cycle', data: { path: circle.map((f) => projectPath(root, f)).join(' -> ') } });
        }
      },
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder imports only from the folders its layer allows' },
    schema: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            from: { type: 'string' },
            allow: { type: 'array', items: { type: 'string' } },
            deny: { type: 'array', items: { type: 'string' } },
            why: { type: 'string' },
          },
          required: ['from'],
          additionalProperties: false,
        },
      },
    ],
    messages: {
      allowOnly: '{{from}} may import only from itself and {{allow}}, not {{to}}: {{why}}',
      denied: '{{from}} may not import from {{deny}} ({{to}}): {{why}}',
    },
  },
  create(context) {
    const root = context.cwd;
    const rules = context.options[0] ?? [];
    const inFolder = (path, folder) => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
    return {
      Program() {
        const file = resolve(context.filename);
        const here = projectPath(root, file);
        const rule = rules.filter((r) => inFolder(here, r.from)).sort((a, b) => b.from.length - a.from.length)[0];
        if (!rule) return;
        // The graph no-cycle built, when it covers this file (both rules run in one lint).
        const entry = [...graphs.values()].find((e) => e.texts.has(file));
        for (const edge of currentImports(entry, file, context.sourceCode.text)) {
          const to = projectPath(root, edge.to);
          if (inFolder(to, rule.from)) continue;
          const why = rule.why ?? 'imports run one way';
          if (rule.allow && !rule.allow.some((folder) => inFolder(to, folder))) {
            context.report({ loc: locOf(edge), messageId: 'allowOnly', data: { from: rule.from, allow: rule.allow.join(', ') || 'nothing else', to, why } });
          }
          const denied = (rule.deny ?? []).find((folder) => inFolder(to, folder));
          if (denied) context.report({ loc: locOf(edge), messageId: 'denied', data: { from: rule.from, deny: denied, to, why } });
        }
      },
    };
  },
};

export default { meta: { name: 'hht-imports' }, rules: { 'no-cycle': noCycle, layers } };
