/**
 * A fingerprint of every table in the public schema: its row count and an md5 of its rows as text, sorted, so two
 * seeds can be compared table by table (the same --today and --live-at must give the same rows):
 * `tsx tests/bench/seed-fingerprint.ts --data-dir DIR | --database-url URL`. Columns that hold the moment something
 * ran (now()) are left out: they differ between any two runs.
 */
import { openDb } from '../../src/server/db';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Columns set by now() when the row was written, or salted: not reproducible, so not part of the fingerprint. */
const WALL_CLOCK_COLUMNS = new Set([
  'schema_migrations.applied_at', 'schema_functions.applied_at', 'seed_state.seeded_at', 'users.created_at', 'users.updated_at',
  'users.password_hash', // bcrypt: a random salt each time
]);

const databaseUrl = arg('database-url');
const db = await openDb({ databaseUrl, dataDir: databaseUrl ? null : (arg('data-dir') ?? null) });
try {
  const tables = await db.query<{ t: string }>(
    `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  for (const { t } of tables.rows) {
    const cols = await db.query<{ c: string }>(
      `SELECT attname AS c FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [t],
    );
    const kept = cols.rows.map((r) => r.c).filter((c) => !WALL_CLOCK_COLUMNS.has(`${t}.${c}`));
    const row = `ROW(${kept.map((c) => `"${c}"`).join(', ')})::text`;
    const { rows } = await db.query<{ n: number; md5: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(r, E'\\n' ORDER BY r)) AS md5 FROM (SELECT ${row} AS r FROM "${t}") x`,
    );
    console.log(`${t} ${rows[0]?.n ?? 0} ${rows[0]?.md5 ?? '-'}`);
  }
} finally {
  await db.close();
}
