/**
 * A progress bar on stderr for long loads: runs done of the total, rows written, rate and ETA. On a terminal it
 * redraws one line; otherwise (a log file, CI) it prints a line at most every 15 s.
 */
export class Progress {
  private runs = 0;
  private rows = 0;
  private passengers = 0;
  private readonly started = performance.now();
  private lastLine = 0;
  private drawn = false;

  constructor(
    private readonly totalRuns: number,
    private readonly enabled: boolean,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  advance(runs: number, passengers: number, rows: number, label: string): void {
    this.runs += runs;
    this.passengers += passengers;
    this.rows += rows;
    if (!this.enabled) return;
    const now = performance.now();
    const tty = this.out.isTTY === true;
    if (!tty && now - this.lastLine < 15_000 && this.runs < this.totalRuns) return;
    this.lastLine = now;
    const line = formatProgress({ runs: this.runs, totalRuns: this.totalRuns, rows: this.rows, passengers: this.passengers, seconds: (now - this.started) / 1000, label });
    if (tty) {
      this.out.write(`\r${line}\x1b[K`);
      this.drawn = true;
    } else this.out.write(`${line}\n`);
  }

  /** Ends a redrawn line so the next log line starts clean. */
  clear(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}

export interface ProgressState {
  runs: number;
  totalRuns: number;
  rows: number;
  passengers: number;
  seconds: number;
  label: string;
}

function duration(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : m > 0 ? `${m} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`;
}

export function formatProgress(p: ProgressState): string {
  const share = p.totalRuns > 0 ? Math.min(1, p.runs / p.totalRuns) : 1;
  const width = 24;
  const filled = Math.round(share * width);
  const rate = p.seconds > 0 ? p.rows / p.seconds : 0;
  const eta = share > 0 ? (p.seconds * (1 - share)) / share : Number.POSITIVE_INFINITY;
  return (
    `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(1)}% ${p.label}: ` +
    `${p.runs.toLocaleString('en-IN')}/${p.totalRuns.toLocaleString('en-IN')} runs, ${p.passengers.toLocaleString('en-IN')} passengers, ` +
    `${p.rows.toLocaleString('en-IN')} rows, ${Math.round(rate).toLocaleString('en-IN')} rows/s, ETA ${duration(eta)}`
  );
}
