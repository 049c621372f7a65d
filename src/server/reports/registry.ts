import { join } from 'node:path';
import {
  checkDefinitions,
  formatError,
  type CheckedReport,
  type CheckedView,
  type DefinitionError,
} from '../../shared/definitions/validate';
import { DirWatcher } from '../dir-watcher';
import { readDefinitionFiles } from './definition-files';

export interface RegistryLogger {
  info(msg: string): void;
  error(msg: string): void;
}

/** Checks that need the database (each view's SQL); returns errors by definition file. */
export interface ViewSqlCheck {
  check(reports: readonly CheckedReport[]): Promise<DefinitionError[]>;
}

export interface RegistryOptions {
  /** When given, a view whose SQL fails on the database makes its report unavailable. */
  sqlCheck?: ViewSqlCheck;
  debounceMs?: number;
}

/**
 * Every loaded report definition, reloaded when reports/, schemas/ or schemas/fields/ change (debounced). A
 * broken file is skipped and logged with file, pointer and reason; the others keep working. A file never takes
 * over an endpoint or id another file serves now.
 */
export class ReportRegistry {
  private byId = new Map<string, CheckedReport>();
  private byEndpoint = new Map<string, { report: CheckedReport; view: CheckedView }>();
  private broken = new Map<string, DefinitionError>();
  private watcher: DirWatcher | undefined;
  private listeners: (() => void)[] = [];
  private loading: Promise<DefinitionError[]> = Promise.resolve([]);
  /** Bumped on every reload; caches keyed by it (compiled filter validators) go stale on change. */
  generation = 0;

  constructor(
    private readonly rootDir: string,
    private readonly log: RegistryLogger,
    private readonly opts: RegistryOptions = {},
  ) {}

  /** Re-reads every file; loads run one after another, so a slow SQL check never lets an older set win. */
  load(): Promise<DefinitionError[]> {
    const next = this.loading.then(() => this.loadNow());
    this.loading = next.catch(() => []);
    return next;
  }

  private async loadNow(): Promise<DefinitionError[]> {
    let errors: DefinitionError[];
    try {
      const live = {
        endpoints: new Map([...this.byEndpoint].map(([name, { report }]) => [name, report.file])),
        ids: new Map([...this.byId].map(([id, r]) => [id, r.file])),
      };
      const result = checkDefinitions(readDefinitionFiles(this.rootDir), live);
      errors = result.errors;
      let reports = result.reports;
      const failed = new Map(result.failed);
      if (this.opts.sqlCheck) {
        const sqlErrors = await this.opts.sqlCheck.check(reports);
        errors = [...errors, ...sqlErrors];
        for (const e of sqlErrors) if (!failed.has(e.file)) failed.set(e.file, e);
        reports = reports.filter((r) => !failed.has(r.file));
      }
      this.byId = new Map(reports.map((r) => [r.definition.id, r]));
      this.byEndpoint = new Map(reports.flatMap((r) => r.views.map((v) => [v.endpoint, { report: r, view: v }] as const)));
      this.broken = new Map([...failed].map(([file, e]) => [file.replace(/^reports\//, '').replace(/\.json$/, ''), e]));
    } catch (err) {
      // The meta-schema itself is unreadable (or the database failed): keep the last good set.
      errors = [{ file: 'schemas/report.schema.json', pointer: '/', reason: err instanceof Error ? err.message : String(err) }];
    }
    this.generation += 1;
    for (const e of errors) this.log.error(`report definition skipped: ${formatError(e)}`);
    this.log.info(`report definitions loaded: ${this.byId.size} ok, ${this.broken.size} unavailable`);
    for (const l of this.listeners) l();
    return errors;
  }

  /** Calls listener after every load (and once now). */
  onLoad(listener: () => void): void {
    this.listeners.push(listener);
    listener();
  }

  /**
   * Watches the folders (not the files: see DirWatcher) and re-scans them after a quiet spell, so edits,
   * atomic saves, new files and deletions all take effect within about half a second.
   */
  watch(): void {
    this.watcher?.close();
    this.watcher = new DirWatcher({
      dirs: ['reports', 'schemas', join('schemas', 'fields')].map((d) => join(this.rootDir, d)),
      debounceMs: this.opts.debounceMs ?? 250,
      onChange: () => {
        this.load().catch((err: unknown) => this.log.error(`report reload failed: ${String(err)}`));
      },
      onError: (dir, reason) => this.log.error(`cannot watch ${dir}: ${reason}`),
    });
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.watcher = undefined;
    await this.loading;
  }

  get(id: string): CheckedReport | undefined {
    return this.byId.get(id);
  }

  endpoint(name: string): { report: CheckedReport; view: CheckedView } | undefined {
    return this.byEndpoint.get(name);
  }

  all(): CheckedReport[] {
    return [...this.byId.values()];
  }

  /** Reports whose file is broken, by id (file name), with the first reason. */
  unavailable(): Map<string, DefinitionError> {
    return this.broken;
  }
}
