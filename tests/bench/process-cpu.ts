/**
 * CPU time (user + system) used by processes, read from /proc: a cost measure that, unlike wall time and requests/s,
 * does not move with other jobs' load on a shared machine. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Stat { ppid: number; cpuTicks: number; reapedTicks: number }

function stat(pid: number): Stat | undefined {
  try {
    // Fields after the command name (which may hold spaces) start at field 3, the state.
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]), reapedTicks: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined; // the process has exited
  }
}

/**
 * CPU seconds of a process and every live descendant (a server's primary and its workers); with `reaped`, also
 * the children that have ended and been waited for (a database's short-lived autovacuum workers and backends).
 */
export function processTreeCpuSeconds(rootPid: number, opts: { reaped?: boolean } = {}): number {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) stats.set(Number(name), s);
  }
  const inTree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!inTree.has(pid) && inTree.has(s.ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of inTree) ticks += stats.get(pid)?.cpuTicks ?? 0;
  if (opts.reaped) ticks += stats.get(rootPid)?.reapedTicks ?? 0;
  return ticks / TICKS_PER_SECOND;
}

/** CPU ticks per backend pid of the sessions connected to one database (PostgreSQL on this machine). */
export async function backendCpuTicks(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  const ticks = new Map<number, number>();
  for (const r of rows) {
    const s = stat(r.pid);
    if (s) ticks.set(r.pid, s.cpuTicks);
  }
  return ticks;
}

/**
 * CPU seconds the database's backends used between two samples: backends present in both count their growth, new
 * ones all their time (a backend that ended between the samples is missed; the server's pool keeps its connections).
 */
export function backendCpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / TICKS_PER_SECOND;
}

/**
 * The pid of the PostgreSQL server a client is connected to, when it runs on this machine and the client may read
 * its data directory's postmaster.pid (a superuser); undefined otherwise.
 */
export async function postmasterPid(client: pg.Client): Promise<number | undefined> {
  try {
    const dir = (await client.query<{ d: string }>("SELECT current_setting('data_directory') AS d")).rows[0]?.d;
    const pid = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && stat(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
