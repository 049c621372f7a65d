import type { Db } from '../types';

export type SeedScale = 'small' | 'medium' | 'large';

export interface SeedOptions {
  scale: SeedScale;
  /** 'YYYY-MM-DD' (IST) the window is relative to: runs from today-30 to today+1. */
  today: string;
  log: (line: string) => void;
}

/** Seeds the demo data set when the database holds none; returns whether it seeded. (Replaced by the generator.) */
export async function ensureSeeded(_db: Db, _opts: SeedOptions): Promise<boolean> {
  return false;
}

/** Generates the runs of any day missing from the rolling window up to tomorrow; returns runs added. */
export async function fillWindow(_db: Db, _opts: SeedOptions): Promise<number> {
  return 0;
}
