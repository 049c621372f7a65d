import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import { jsonErrorMessage } from '../../shared/json-position';

export interface FileProblem {
  file: string;
  pointer: string;
  reason: string;
}

export interface WatchedJsonOptions<T> {
  rootDir: string;
  /** Data file, relative to rootDir (e.g. dashboard.json). */
  file: string;
  /** Its JSON schema (draft-07), relative to rootDir. */
  schemaFile: string;
  /** Checks across fields that JSON schema cannot express; returns problems. */
  crossCheck?: (value: T) => FileProblem[];
  log: { info(msg: string): void; error(msg: string): void };
}

export const formatProblem = (p: FileProblem): string => `${p.file}#${p.pointer}: ${p.reason}`;

function ajvProblems(file: string, errors: ErrorObject[] | null | undefined): FileProblem[] {
  return (errors ?? []).map((e) => {
    const extra = (e.params as { additionalProperty?: string; missingProperty?: string });
    const key = extra.additionalProperty ?? extra.missingProperty;
    return {
      file,
      pointer: e.instancePath || '/',
      reason: key ? `${e.message ?? 'is invalid'} "${key}"` : (e.message ?? 'is invalid'),
    };
  });
}

/**
 * A JSON file validated by its schema at load and on every change (fs.watch on the containing folders,
 * debounced). A broken version is logged with file, pointer and reason and the last good one is kept.
 */
export class WatchedJson<T> {
  private good: T | undefined;
  private lastProblems: FileProblem[] = [];
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: WatchedJsonOptions<T>) {}

  /** Reads and validates now; returns the problems (empty when the file was taken). */
  load(): FileProblem[] {
    const { rootDir, file, schemaFile } = this.opts;
    const problems = this.read(rootDir, file, schemaFile);
    this.lastProblems = problems;
    if (problems.length > 0) {
      for (const p of problems) this.opts.log.error(`${file} not taken${this.good ? ' (keeping the last good version)' : ''}: ${formatProblem(p)}`);
    } else {
      this.opts.log.info(`${file} loaded`);
    }
    return problems;
  }

  private read(rootDir: string, file: string, schemaFile: string): FileProblem[] {
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(join(rootDir, schemaFile), 'utf8'));
    } catch (err) {
      return [{ file: schemaFile, pointer: '/', reason: err instanceof Error ? err.message : String(err) }];
    }
    let validate;
    try {
      validate = new Ajv({ allErrors: true, strict: false }).compile<T>(schema as object);
    } catch (err) {
      return [{ file: schemaFile, pointer: '/', reason: err instanceof Error ? err.message : String(err) }];
    }
    let data: unknown;
    let text = '';
    try {
      text = readFileSync(join(rootDir, file), 'utf8');
      data = JSON.parse(text);
    } catch (err) {
      return [{ file, pointer: '/', reason: jsonErrorMessage(text, err) }];
    }
    if (!validate(data)) return ajvProblems(file, validate.errors);
    const cross = this.opts.crossCheck?.(data) ?? [];
    if (cross.length > 0) return cross;
    this.good = data;
    return [];
  }

  /** The last good content, if any version was ever valid. */
  get(): T | undefined {
    return this.good;
  }

  /** Problems of the latest load (empty when the current file is the one served). */
  problems(): FileProblem[] {
    return this.lastProblems;
  }

  watch(): void {
    const { rootDir, file, schemaFile } = this.opts;
    const names = new Map<string, Set<string>>();
    for (const rel of [file, schemaFile]) {
      const dir = dirname(join(rootDir, rel));
      const set = names.get(dir) ?? new Set<string>();
      set.add(basename(rel));
      names.set(dir, set);
    }
    for (const [dir, files] of names) {
      try {
        this.watchers.push(
          watch(dir, (_event, name) => {
            if (name !== null && !files.has(String(name))) return;
            clearTimeout(this.timer);
            this.timer = setTimeout(() => this.load(), 200);
          }),
        );
      } catch (err) {
        this.opts.log.error(`cannot watch ${dir}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
