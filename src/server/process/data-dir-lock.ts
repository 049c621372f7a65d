import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/** Name of the lock file inside HHT_DATA_DIR; it holds the pid of the server that owns the folder. */
export const LOCK_FILE = 'hht-server.lock';

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string, readonly ownerPid: number) {
    super(`the data folder ${dataDir} is in use by another IR-HHT Portal server (pid ${ownerPid}); stop it or set HHT_DATA_DIR to another folder`);
  }
}

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Makes this process the only server on an embedded (PGlite) data folder: two processes writing the same database
 * files corrupt them. A lock left by a server that died (its pid no longer runs) is taken over.
 */
export function lockDataDir(dataDir: string, pid = process.pid): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(path, 'wx'); // fails if the file exists: creation is the atomic test-and-set
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      const release = (): void => {
        if (ownerOf(path) !== pid) return;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = ownerOf(path);
    if (owner !== null && owner !== pid && alive(owner)) throw new DataDirInUseError(dataDir, owner);
    // Stale (owner dead) or half-written: remove and try again.
    try {
      unlinkSync(path);
    } catch {
      // another starting server removed it first; the next attempt decides
    }
  }
  throw new DataDirInUseError(dataDir, ownerOf(path) ?? 0);
}
