import cluster, { type Worker } from 'node:cluster';
import { logLine } from './log-line';

/** Environment variable that tells a forked process its worker number (1..N). */
export const WORKER_INDEX_ENV = 'HHT_WORKER_INDEX';
const RESTART_DELAY_MS = 1_000;
const STOP_GRACE_MS = 30_000;

export interface Supervisor {
  /** Resolves when every worker listens; rejects when one exits before it ever listened (bad port, bad config). */
  ready: Promise<void>;
}

/**
 * The primary process with HHT_WORKERS > 1: forks the workers (they share the listening port through node:cluster),
 * restarts one that dies, and on SIGTERM/SIGINT passes the signal on and waits for all of them to finish.
 */
export function superviseWorkers(count: number): Supervisor {
  const byIndex = new Map<number, Worker>();
  const listened = new Set<number>();
  let stopping = false;
  let resolveReady: () => void = () => undefined;
  let rejectReady: (err: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  const fork = (index: number): void => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    byIndex.set(index, worker);
    worker.on('listening', () => {
      listened.add(index);
      if (listened.size === count) resolveReady();
    });
    worker.on('exit', (code, signal) => {
      if (byIndex.get(index) === worker) byIndex.delete(index);
      if (stopping) {
        if (byIndex.size === 0) process.exit(0);
        return;
      }
      if (!listened.has(index)) {
        // Failing before it ever listened: restarting would fail the same way. The worker printed why.
        stopping = true;
        for (const other of byIndex.values()) other.process.kill('SIGKILL');
        rejectReady(new Error(`worker ${index} exited with ${signal ?? code} while starting`));
        return;
      }
      logLine(`IR-HHT Portal worker ${index} (pid ${worker.process.pid}) died (${signal ?? `code ${code}`}); restarting it`);
      setTimeout(() => {
        if (!stopping) fork(index);
      }, RESTART_DELAY_MS).unref();
    });
  };

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logLine(`${signal} received: stopping ${byIndex.size} workers`);
    if (byIndex.size === 0) process.exit(0);
    for (const worker of byIndex.values()) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of byIndex.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, STOP_GRACE_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 1; i <= count; i += 1) fork(i);
  return { ready };
}
