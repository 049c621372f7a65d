import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { MenuCommand, MenuDocument, MenuEntry, MenuItem } from '../../shared/menu';
import { jsonErrorMessage } from '../../shared/json-position';
import type { Lang, MenuHindi } from '../../shared/definitions/hindi';
import { localizeMenu } from '../../shared/definitions/localize';

/** One reason a menu file was refused: the file, where in it (JSON pointer) and why. */
export interface MenuProblem {
  file: string;
  pointer: string;
  reason: string;
}

export interface MenuLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MenuStore {
  /** The last good menu in a language (default English), with the unavailable marks applied (a fresh copy each call). */
  getMenu(lang?: Lang): MenuDocument;
  /** The `hi` block of the last good menu.json (for the list of missing Hindi). */
  hindi(): MenuHindi | undefined;
  /** Problems of the most recent load attempt (empty when it was accepted). */
  lastProblems(): MenuProblem[];
  /** Marks an item path unavailable with a reason shown to users, or available again with null. */
  setUnavailable(path: string, reason: string | null): void;
  /** Re-reads menu.json now (the watcher calls this after a debounce). Returns the problems, empty on success. */
  reload(): MenuProblem[];
  /** Calls listener after every accepted menu.json (so the availability of new items is marked at once). */
  onReload(listener: () => void): void;
  close(): void;
}

export interface MenuStoreOptions {
  rootDir: string;
  log: MenuLogger;
  /** Watch menu.json and its schema and reload on change (default true). */
  watch?: boolean;
  debounceMs?: number;
}

export const MENU_FILE = 'menu.json';
export const MENU_SCHEMA_FILE = join('schemas', 'menu.schema.json');

function problemsOf(file: string, errors: ErrorObject[] | null | undefined): MenuProblem[] {
  return (errors ?? []).map((e) => {
    const extra =
      typeof e.params.additionalProperty === 'string'
        ? ` (${e.params.additionalProperty})`
        : Array.isArray(e.params.allowedValues)
          ? ` (${e.params.allowedValues.map(String).join(', ')})`
          : '';
    return { file, pointer: e.instancePath || '/', reason: `${e.message ?? 'is invalid'}${extra}` };
  });
}

/**
 * Rules a JSON schema cannot express: every item path appears once. Hindi keyed by a label the menu no longer has
 * (a section renamed by an admin) does not refuse the menu: that section falls back to English, and
 * `npm run check:definitions` lists the stale key with the missing Hindi.
 */
function crossCheck(file: string, doc: MenuDocument & { hi?: MenuHindi }): MenuProblem[] {
  const seen = new Map<string, string>();
  const problems: MenuProblem[] = [];
  const visit = (entry: MenuItem | MenuCommand, pointer: string): void => {
    if (entry.type !== 'item') return;
    const first = seen.get(entry.path);
    if (first) problems.push({ file, pointer: `${pointer}/path`, reason: `duplicate path "${entry.path}" (first at ${first})` });
    else seen.set(entry.path, `${pointer}/path`);
  };
  doc.entries.forEach((e, i) => {
    if (e.type === 'section') e.items.forEach((it, j) => visit(it, `/entries/${i}/items/${j}`));
    else visit(e, `/entries/${i}`);
  });
  return problems;
}

function stripMeta(value: MenuDocument): MenuDocument {
  // The served document carries only the entries (not $schema/$comment).
  return { entries: value.entries };
}

/**
 * Loads menu.json from the root directory, validates it against schemas/menu.schema.json, watches both files
 * and keeps the last good menu whenever a new version is refused (logging file, JSON pointer and reason).
 */
export function createMenuStore(opts: MenuStoreOptions): MenuStore {
  const menuPath = join(opts.rootDir, MENU_FILE);
  const schemaPath = join(opts.rootDir, MENU_SCHEMA_FILE);
  const debounceMs = opts.debounceMs ?? 150;
  let good: MenuDocument = { entries: [] };
  let goodHi: MenuHindi | undefined;
  let problems: MenuProblem[] = [];
  const unavailable = new Map<string, string>();
  const listeners: (() => void)[] = [];
  let validate: ValidateFunction | null = null;

  const loadSchema = (): MenuProblem[] => {
    try {
      const schema: unknown = JSON.parse(readFileSync(schemaPath, 'utf8'));
      if (typeof schema !== 'object' || schema === null) throw new Error('schema is not an object');
      const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
      validate = ajv.compile(schema);
      return [];
    } catch (err) {
      return [{ file: schemaPath, pointer: '/', reason: err instanceof Error ? err.message : String(err) }];
    }
  };

  const reload = (): MenuProblem[] => {
    const found: MenuProblem[] = loadSchema();
    let parsed: unknown;
    if (found.length === 0) {
      let text = '';
      try {
        text = readFileSync(menuPath, 'utf8');
        parsed = JSON.parse(text);
      } catch (err) {
        found.push({ file: menuPath, pointer: '/', reason: jsonErrorMessage(text, err) });
      }
    }
    if (found.length === 0 && validate) {
      if (!validate(parsed)) found.push(...problemsOf(menuPath, validate.errors));
      else found.push(...crossCheck(menuPath, parsed as MenuDocument)); // shape proven by the schema
    }
    problems = found;
    if (found.length > 0) {
      for (const p of found) {
        opts.log.error(p, `${p.file} ${p.pointer}: ${p.reason} (keeping the last good menu)`);
      }
      return found;
    }
    good = stripMeta(parsed as MenuDocument);
    goodHi = (parsed as { hi?: MenuHindi }).hi;
    opts.log.info({ file: menuPath, entries: good.entries.length }, 'menu loaded');
    for (const l of listeners) l();
    return [];
  };

  reload();

  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (opts.watch !== false) {
    const targets = [
      { dir: dirname(menuPath), name: basename(menuPath) },
      { dir: dirname(schemaPath), name: basename(schemaPath) },
    ];
    for (const t of targets) {
      try {
        const w = watch(t.dir, { persistent: false }, (_event, filename) => {
          if (filename !== null && filename.toString() !== t.name) return;
          clearTimeout(timer);
          timer = setTimeout(reload, debounceMs);
        });
        w.on('error', (err) => opts.log.error({ file: join(t.dir, t.name), err: String(err) }, 'menu watcher failed'));
        watchers.push(w);
      } catch (err) {
        opts.log.error({ file: join(t.dir, t.name), reason: String(err) }, 'cannot watch the menu file');
      }
    }
  }

  const mark = <T extends MenuEntry>(e: T): T => {
    if (e.type !== 'item') return { ...e };
    const reason = unavailable.get(e.path);
    const { unavailable: _drop, ...rest } = e;
    return (reason ? { ...rest, unavailable: reason } : rest) as T;
  };

  return {
    getMenu: (lang = 'en') =>
      localizeMenu({ entries: good.entries.map((e) => (e.type === 'section' ? { ...e, items: e.items.map(mark) } : mark(e))) }, goodHi, lang),
    hindi: () => goodHi,
    lastProblems: () => problems,
    setUnavailable: (path, reason) => {
      if (reason) unavailable.set(path, reason);
      else unavailable.delete(path);
    },
    reload,
    onReload: (listener) => {
      listeners.push(listener);
    },
    close: () => {
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
