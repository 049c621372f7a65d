import type { Queryable } from './types';

/**
 * Foreign-key triggers dominate insert time on PGlite (about half). Where the rows' keys were made consistent
 * (the generator) or checked first (the HHT ingest's reference check), a superuser transaction (PGlite always
 * is one) skips them: SET LOCAL, so only this transaction. Elsewhere (a non-superuser PostgreSQL role) it
 * does nothing and the triggers run.
 */
export async function relaxForeignKeyTriggers(tx: Queryable): Promise<void> {
  const { rows } = await tx.query<{ su: boolean }>('SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user');
  if (rows[0]?.su) await tx.query('SET LOCAL session_replication_role = replica');
}
