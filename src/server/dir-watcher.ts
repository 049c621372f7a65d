import { watch, type FSWatcher } from 'node:fs';

export interface DirWatcherOptions {
  /** Absolute folders to watch (not recursively: each folder that holds watched files is listed). */
  dirs: readonly string[];
  /** Called once per burst of changes, after the folders were quiet for debounceMs. */
  onChange: () => void;
  debounceMs: number;
  /** Only changes of these entry names count (all when absent). */
  names?: ReadonlySet<string>;
  onError: (dir: string, reason: string) => void;
  /** A folder that cannot be watched (missing, or its watcher failed) is tried again this often, ms. */
  retryMs?: number;
}

/**
 * Watches folders, never single files: an editor's atomic save (write a temp file, rename it over the
 * original) replaces the file's inode, and a watcher on the old inode goes deaf, while the folder's watcher
 * sees the rename, a create and a delete alike. The caller re-scans the folder on every (debounced) change.
 */
export class DirWatcher {
  private watchers = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** Folders whose failure was reported: a folder missing for long is said once, not every retry. */
  private reported = new Set<string>();

  constructor(private readonly opts: DirWatcherOptions) {
    for (const dir of opts.dirs) this.start(dir);
  }

  private start(dir: string): void {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (name !== null && this.opts.names && !this.opts.names.has(String(name))) return;
        this.changed();
      });
      w.on('error', (err) => {
        // E.g. the folder was deleted: drop it and try again later (a re-created folder is watched anew).
        w.close();
        this.watchers.delete(dir);
        this.opts.onError(dir, err.message);
        this.changed();
        this.scheduleRetry();
      });
      this.watchers.set(dir, w);
      this.reported.delete(dir);
    } catch (err) {
      if (!this.reported.has(dir)) this.opts.onError(dir, err instanceof Error ? err.message : String(err));
      this.reported.add(dir);
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      const missing = this.opts.dirs.filter((d) => !this.watchers.has(d));
      if (missing.length === 0) return;
      for (const d of missing) this.start(d);
      if (missing.some((d) => this.watchers.has(d))) this.changed();
    }, this.opts.retryMs ?? 2000);
    this.retry.unref();
  }

  private changed(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.opts.onChange(), this.opts.debounceMs);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.retry);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
