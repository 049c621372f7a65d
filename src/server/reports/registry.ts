import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import {
  checkDefinitions,
  formatError,
  type CheckedReport,
  type CheckedView,
  type DefinitionError,
} from '../../shared/definitions/validate';
import { readDefinitionFiles } from './definition-files';

export interface RegistryLogger {
  info(msg: string): void;
  error(msg: string): void;
}

/**
 * Every loaded report definition, reloaded when reports/ or schemas/ change (debounced). A broken file is
 * skipped and logged with file, pointer and reason; the others keep working.
 */
export class ReportRegistry {
  private byId = new Map<string, CheckedReport>();
  private byEndpoint = new Map<string, { report: CheckedReport; view: CheckedView }>();
  private broken = new Map<string, DefinitionError>();
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private listeners: (() => void)[] = [];
  /** Bumped on every reload; caches keyed by it (compiled filter validators) go stale on change. */
  generation = 0;

  constructor(
    private readonly rootDir: string,
    private readonly log: RegistryLogger,
  ) {}

  load(): DefinitionError[] {
    let errors: DefinitionError[];
    try {
      const result = checkDefinitions(readDefinitionFiles(this.rootDir));
      errors = result.errors;
      this.byId = new Map(result.reports.map((r) => [r.definition.id, r]));
      this.byEndpoint = new Map(result.reports.flatMap((r) => r.views.map((v) => [v.endpoint, { report: r, view: v }] as const)));
      this.broken = new Map([...result.failed].map(([file, e]) => [file.replace(/^reports\//, '').replace(/\.json$/, ''), e]));
    } catch (err) {
      // The meta-schema itself is unreadable: keep the last good set.
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

  /** Watches reports/ and schemas/ (recursively); a change is live within about half a second. */
  watch(): void {
    const reload = (): void => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.load(), 300);
    };
    for (const dir of ['reports', 'schemas']) {
      try {
        this.watchers.push(watch(join(this.rootDir, dir), { recursive: true }, reload));
      } catch (err) {
        this.log.error(`cannot watch ${dir}/: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
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
