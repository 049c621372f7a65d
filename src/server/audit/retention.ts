import type { Db } from '../db';

const DAY_MS = 86_400_000;

/** The month partitions of the trail (audit_batches), oldest first, with the first day (UTC) of each month. */
export async function auditPartitions(db: Db): Promise<{ name: string; month: string }[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_batches'::regclass ORDER BY 1`,
  );
  return rows.flatMap((r) => {
    const m = /^audit_batches_m(\d{4})(\d{2})$/.exec(r.name);
    return m ? [{ name: r.name, month: `${m[1]}-${m[2]}-01` }] : [];
  });
}

/** The first day of the month after a 'YYYY-MM-01'. */
function nextMonth(month: string): string {
  const d = new Date(`${month}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/**
 * The daily job of the trail: this month's and next month's partitions made, and every month whose last entry
 * could be older than `retentionDays` before `now` dropped whole (detached, then dropped: no row is deleted, so the
 * append-only trigger never fires). A month is kept while any day of it is within the retention.
 */
export async function maintainAuditTrail(db: Db, now: Date, retentionDays: number): Promise<{ made: number; dropped: string[] }> {
  const today = now.toISOString().slice(0, 10);
  const made = Number(
    (await db.query<{ made: number }>(
      `SELECT audit_ensure_partitions($1::date, ($1::date + interval '1 month')::date) AS made`,
      [today],
    )).rows[0]?.made ?? 0,
  );
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS).toISOString().slice(0, 10);
  const dropped: string[] = [];
  for (const p of await auditPartitions(db)) {
    if (nextMonth(p.month) > cutoff) continue;
    await db.transaction(async (tx) => {
      await tx.exec(`ALTER TABLE audit_batches DETACH PARTITION ${p.name}; DROP TABLE ${p.name}`);
    });
    dropped.push(p.month.slice(0, 7));
  }
  return { made, dropped };
}
