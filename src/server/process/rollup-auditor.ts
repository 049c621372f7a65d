import type { Db } from '../db';
import { auditRollups, type AuditPass } from '../db/rollup-audit';
import type { LogLine } from './startup';

/** A pass every 20 minutes, AUDIT_RUNS_PER_PASS runs each: 15 runs an hour, each against every per-run rollup. */
export const AUDIT_INTERVAL_MS = 20 * 60_000;

export interface RollupAuditor {
  /** One pass now (the timer's work); resolves with what it checked and repaired. */
  tick(): Promise<AuditPass>;
  stop(): Promise<void>;
}

/**
 * The rollup auditor in production: recomputes a few runs at a time from the raw rows and repairs what differs
 * (src/server/db/rollup-audit.ts). Drift means a write path the triggers missed, so each repair is logged with its
 * run and table for an operator to follow up; the count is in GET /api/health and hht_rollup_repairs().
 */
export function startRollupAuditor(db: Db, log: LogLine, onError: (err: unknown) => void, intervalMs = AUDIT_INTERVAL_MS): RollupAuditor {
  let running: Promise<AuditPass> | null = null;
  const tick = (): Promise<AuditPass> => {
    running ??= auditRollups(db)
      .then((pass) => {
        for (const r of pass.repairs) {
          log(`rollup audit: run ${r.runId} ${r.table} differed from its reference (${r.missing} rows missing, ${r.extra} extra): repaired`);
        }
        return pass;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    tick().catch(onError);
  }, intervalMs);
  timer.unref();
  return {
    tick,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
