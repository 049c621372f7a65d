import { readFileSync } from 'node:fs';
import { parseAst, type Plugin } from 'vite';

/**
 * Cuts one prebuilt, flat ES module (a library shipped as a single file, like AG Grid's core) into `parts` modules
 * of about equal size, so the bundler can put each in a chunk of its own: no chunking option can divide one module.
 *
 * The file's top-level statements keep their order. Part i exports what it declares and imports from the other
 * parts the names it may use (every identifier it mentions that another part declares: a superset is harmless).
 * Each part imports the part before it first, and the facade imports the last part first, so the engine evaluates
 * part 0, then 1, ...: the statements run in the file's order, and a statement that refers ahead of itself sees
 * what it saw in the one file (a hoisted function, or a variable not yet set). A cut is refused where a part would
 * assign to another part's variable (an import cannot be assigned), and the next statement boundary is tried.
 */
export interface SplitOptions {
  /** Matches the resolved path of the module to cut. */
  file: RegExp;
  /** How many modules to cut it into (at least 2). */
  parts: number;
}

const PART_ID = /^\0(.*)\?flat-part=(\d+)$/;

/** The id of part i of a file; the chunk groups in vite.config.ts match it with partTest. */
export const partId = (file: string, i: number): string => `\0${file}?flat-part=${i}`;
export const partTest =
  (file: RegExp, i: number): ((id: string) => boolean) =>
  (id) => {
    const part = PART_ID.exec(id);
    return part?.[1] !== undefined && part[2] === String(i) && file.test(part[1]);
  };

interface AstNode {
  type: string;
  start: number;
  end: number;
}

const isNode = (v: unknown): v is AstNode => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

/** Every AST node under `node` (itself included), depth first. */
function* walk(node: unknown): Generator<AstNode> {
  if (Array.isArray(node)) {
    for (const child of node) yield* walk(child);
    return;
  }
  if (!isNode(node)) return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && typeof value === 'object' && value !== null) yield* walk(value);
  }
}

const field = (node: AstNode, key: string): unknown => (node as unknown as Record<string, unknown>)[key];
const nameOf = (node: unknown): string | undefined => (isNode(node) && node.type === 'Identifier' ? String(field(node, 'name')) : undefined);

/** The names a binding pattern (or an assignment target) binds. */
function patternNames(pattern: unknown): string[] {
  if (!isNode(pattern)) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [String(field(pattern, 'name'))];
    case 'ObjectPattern':
      return (field(pattern, 'properties') as unknown[]).flatMap((p) => (isNode(p) && p.type === 'RestElement' ? patternNames(field(p, 'argument')) : isNode(p) ? patternNames(field(p, 'value')) : []));
    case 'ArrayPattern':
      return (field(pattern, 'elements') as unknown[]).flatMap(patternNames);
    case 'AssignmentPattern':
      return patternNames(field(pattern, 'left'));
    case 'RestElement':
      return patternNames(field(pattern, 'argument'));
    default:
      return []; // a member expression: assigns a property, not a binding
  }
}

/** The top-level names a statement declares. */
function declaredNames(statement: AstNode): string[] {
  if (statement.type === 'VariableDeclaration') return (field(statement, 'declarations') as AstNode[]).flatMap((d) => patternNames(field(d, 'id')));
  if (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') {
    const name = nameOf(field(statement, 'id'));
    return name ? [name] : [];
  }
  return [];
}

/** Names a statement assigns to anywhere inside it (by name: a local that shadows a top-level name counts too). */
function assignedNames(statement: AstNode): Set<string> {
  const out = new Set<string>();
  for (const node of walk(statement)) {
    const target =
      node.type === 'AssignmentExpression' ? field(node, 'left') : node.type === 'UpdateExpression' ? field(node, 'argument') : node.type === 'ForInStatement' || node.type === 'ForOfStatement' ? field(node, 'left') : undefined;
    if (isNode(target) && target.type !== 'VariableDeclaration') for (const name of patternNames(target)) out.add(name);
  }
  return out;
}

/** Every identifier a statement mentions (references, property keys alike). */
function mentionedNames(statement: AstNode): Set<string> {
  const out = new Set<string>();
  for (const node of walk(statement)) if (node.type === 'Identifier') out.add(String(field(node, 'name')));
  return out;
}

interface Statement {
  node: AstNode;
  text: string;
  declares: string[];
  assigns: Set<string>;
  mentions: Set<string>;
}

export interface SplitResult {
  /** The module that replaces the file: re-exports its exports from the parts. */
  facade: string;
  /** Source of each part. */
  parts: string[];
}

/** The split of one file's source (exported for the unit test, which evaluates the parts). */
export function splitSource(source: string, parts: number, idOf: (i: number) => string): SplitResult {
  if (!Number.isInteger(parts) || parts < 2) throw new Error(`split-flat-module: parts must be an integer of at least 2, not ${parts}`);
  const program = parseAst(source) as unknown as { body: AstNode[] };
  const imports: string[] = [];
  /** Imported local name -> [source, imported name], for exports that pass an import on. */
  const importedAs = new Map<string, [string, string]>();
  const exports: Array<[local: string, exported: string]> = [];
  const code: Statement[] = [];
  for (const node of program.body) {
    const text = source.slice(node.start, node.end);
    if (node.type === 'ImportDeclaration') {
      imports.push(text);
      const from = String(field(field(node, 'source') as AstNode, 'value'));
      for (const spec of field(node, 'specifiers') as AstNode[]) {
        const local = nameOf(field(spec, 'local')) ?? '';
        importedAs.set(local, [from, spec.type === 'ImportSpecifier' ? (nameOf(field(spec, 'imported')) ?? local) : spec.type === 'ImportDefaultSpecifier' ? 'default' : '*']);
      }
    } else if (node.type === 'ExportNamedDeclaration' && !field(node, 'declaration') && !field(node, 'source')) {
      for (const spec of field(node, 'specifiers') as AstNode[]) exports.push([nameOf(field(spec, 'local')) ?? '', nameOf(field(spec, 'exported')) ?? '']);
    } else if (node.type.startsWith('Export')) {
      throw new Error(`split-flat-module: ${node.type} at ${node.start} is not supported (only one trailing export list)`);
    } else {
      code.push({ node, text, declares: declaredNames(node), assigns: assignedNames(node), mentions: mentionedNames(node) });
    }
  }

  const owner = new Map<string, number>(); // statement index declaring each top-level name
  code.forEach((s, i) => s.declares.forEach((name) => owner.set(name, i)));
  const total = code.reduce((sum, s) => sum + s.text.length, 0);

  // Cuts at about equal sizes, each moved to the nearest boundary where no statement assigns across it.
  const partOf = (cuts: number[], index: number): number => cuts.filter((c) => index >= c).length;
  const crossesWrite = (cuts: number[]): boolean =>
    code.some((s, i) => [...s.assigns].some((name) => owner.has(name) && partOf(cuts, owner.get(name) ?? 0) !== partOf(cuts, i)));
  const cuts: number[] = [];
  let size = 0;
  for (let i = 0; i < code.length && cuts.length < parts - 1; i++) {
    size += code[i]?.text.length ?? 0;
    if (size >= (total * (cuts.length + 1)) / parts) cuts.push(i + 1);
  }
  for (let c = 0; c < cuts.length; c++) {
    const ideal = cuts[c] ?? 0;
    const lower = c > 0 ? (cuts[c - 1] ?? 0) + 1 : 1;
    const upper = c + 1 < cuts.length ? (cuts[c + 1] ?? code.length) - 1 : code.length - 1;
    let found: number | undefined;
    for (let d = 0; found === undefined && (ideal - d >= lower || ideal + d <= upper); d++) {
      for (const at of [ideal + d, ideal - d]) {
        if (found !== undefined || at < lower || at > upper) continue;
        const trial = cuts.map((v, k) => (k === c ? at : v));
        if (!crossesWrite(trial.slice(0, c + 1))) found = at;
      }
    }
    if (found === undefined) throw new Error('split-flat-module: no cut point where no statement assigns to a variable of another part');
    cuts[c] = found;
  }
  if (crossesWrite(cuts)) throw new Error('split-flat-module: the cuts leave a statement assigning to a variable of another part');

  const bounds = [0, ...cuts, code.length];
  const declaredIn = Array.from({ length: parts }, (_, p) => code.slice(bounds[p], bounds[p + 1]).flatMap((s) => s.declares));
  const partSources = Array.from({ length: parts }, (_, p) => {
    const statements = code.slice(bounds[p], bounds[p + 1]);
    const mentions = new Set(statements.flatMap((s) => [...s.mentions]));
    // The part before first (see the order above), then the others.
    const order = p === 0 ? Array.from({ length: parts - 1 }, (_, k) => k + 1) : [p - 1, ...Array.from({ length: parts }, (_, k) => k).filter((k) => k !== p && k !== p - 1)];
    const fromParts = order.map((q) => {
      const names = (declaredIn[q] ?? []).filter((n) => mentions.has(n));
      return names.length > 0 ? `import { ${names.join(', ')} } from ${JSON.stringify(idOf(q))};` : `import ${JSON.stringify(idOf(q))};`;
    });
    const own = declaredIn[p] ?? [];
    return [...imports, ...fromParts, ...statements.map((s) => s.text), own.length > 0 ? `export { ${own.join(', ')} };` : ''].join('\n');
  });

  const facade = [`import ${JSON.stringify(idOf(parts - 1))};`];
  for (const [local, exported] of exports) {
    const statement = owner.get(local);
    const passed = importedAs.get(local);
    if (statement !== undefined) facade.push(`export { ${local} as ${exported} } from ${JSON.stringify(idOf(partOf(cuts, statement)))};`);
    else if (passed?.[1] === '*') facade.push(`export * as ${exported} from ${JSON.stringify(passed[0])};`);
    else if (passed) facade.push(`export { ${passed[1]} as ${exported} } from ${JSON.stringify(passed[0])};`);
    else throw new Error(`split-flat-module: export ${exported} names ${local}, which the file does not declare`);
  }
  return { facade: facade.join('\n'), parts: partSources };
}

/** The build-only plugin: the file matched by `file` is loaded as its facade, and its parts as modules of their own. */
export function splitFlatModule(options: SplitOptions): Plugin {
  const splits = new Map<string, SplitResult>();
  const splitOf = (file: string): SplitResult => {
    let split = splits.get(file);
    if (!split) {
      split = splitSource(readFileSync(file, 'utf8'), options.parts, (i) => partId(file, i));
      splits.set(file, split);
    }
    return split;
  };
  return {
    name: 'hht-split-flat-module',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source.startsWith('\0') && /\?flat-part=\d+$/.test(source) ? source : null;
    },
    load(id) {
      const part = PART_ID.exec(id);
      if (part?.[1] && options.file.test(part[1])) return splitOf(part[1]).parts[Number(part[2])] ?? null;
      return options.file.test(id) ? splitOf(id).facade : null;
    },
  };
}
