/**
 * The statements the server sends PostgreSQL for one report call, recorded from the app itself, and the same
 * statements as a pgbench script: what the load bench compares the server against ("the same SQL from pgbench") is
 * then exactly what the server asks of its database, whatever the engine adds around a definition's SQL (the rows as
 * JSON, the answer's freshness), and cannot drift from it.
 */
import { openDb } from '../../src/server/db';
import { buildTestApp, testConfig } from '../support/app';
import { loginAs } from '../support/login';
import { recordingDb, type Statement } from '../support/recording-db';

export type { Statement };

/**
 * The report session's statements of one uncached POST /api/<endpoint> (result cache off), after a first call that
 * learns what the engine learns once per view (its JSON select list).
 */
export async function recordServerStatements(databaseUrl: string, endpoint: string, body: Record<string, unknown>, userId: string): Promise<Statement[]> {
  const seen: Statement[] = [];
  let recording = false;
  const db = await openDb({ databaseUrl, dataDir: null }); // the app closes it
  const app = await buildTestApp(recordingDb(db, seen, () => recording), { config: { reportCache: { ...testConfig().reportCache, ttlMs: 0 } } });
  try {
    const user = await loginAs(app, userId);
    const call = async (): Promise<void> => {
      const res = await app.inject({ method: 'POST', url: `/api/${endpoint}`, headers: user.headers(), payload: body });
      if (res.statusCode !== 200) throw new Error(`${endpoint} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    };
    await call();
    recording = true;
    await call();
    recording = false;
  } finally {
    await app.close();
  }
  if (seen.length === 0) throw new Error(`${endpoint} ran no statement in a report session`);
  return seen;
}

/** A bound value as pgbench's -D gives it (text, typed by the statement's casts); arrays as PostgreSQL literals. */
function pgbenchValue(v: unknown): string {
  if (Array.isArray(v)) return `{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * pgbench takes `:word` anywhere, quoted or not, for one of its variables. A colon before a letter inside a string
 * literal (a to_char format's HH24:MI:SS) is written '||chr(58)||' instead: a constant PostgreSQL folds when it plans
 * the statement, so the statement does the same work.
 */
function hideQuotedColons(sql: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql[i] as string;
    if (ch === "'") quoted = !quoted; // '' inside a literal toggles twice: still quoted
    out += quoted && ch === ':' && /[A-Za-z_]/.test(sql[i + 1] ?? '') ? "'||chr(58)||'" : ch;
  }
  return out;
}

/**
 * The statements as one pgbench script (one transaction of pgbench = one report call), each bound value a variable
 * (:s1p1, :s1p2, ... for statement 1; sent as parameters with -M prepared) and a null written NULL (a pgbench variable
 * cannot be null). Returns the script and the -D settings.
 */
export function pgbenchScript(statements: readonly Statement[], header: readonly string[]): { script: string; vars: string[] } {
  const vars: string[] = [];
  const body = statements.map((st, k) => {
    const sql = hideQuotedColons(st.sql).replace(/\$(\d+)/g, (_, i: string) => {
      const v = st.params[Number(i) - 1];
      if (v === null || v === undefined) return 'NULL';
      const name = `s${k + 1}p${i}`;
      if (!vars.some((x) => x.startsWith(`${name}=`))) vars.push(`${name}=${pgbenchValue(v)}`);
      return `:${name}`;
    });
    // pgbench reads one statement per line unless it ends with a semicolon: each statement on its lines, ';' last.
    return `${sql.trim()};`;
  });
  return { script: [...header.map((l) => `-- ${l}`), ...body, ''].join('\n'), vars };
}
