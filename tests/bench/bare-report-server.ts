/**
 * The least a Node server must do to answer the light report uncached: read and parse the request's JSON body, run the
 * report's recorded statement through `pg` (prepared, one pool), write its JSON text as the answer. No framework, session, filter
 * check, audit, metrics or compression. The load bench (`--floor`) runs it in the rounds against pgbench: what it
 * reaches is the ceiling for any server of this stack on this machine, since its CPU and PostgreSQL's share the cores.
 *
 * Started by tests/bench/load.ts as `node --import tsx tests/bench/bare-report-server.ts` with PORT, DATABASE_URL and
 * STATEMENT (a JSON { sql, params }); prints "IR-HHT Portal ready" when it listens, as the real server does.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { POOL_MAX } from '../../src/server/db/pg-driver';

const port = Number(process.env.PORT);
const databaseUrl = process.env.DATABASE_URL;
const statement: unknown = JSON.parse(process.env.STATEMENT ?? 'null');
function isStatement(x: unknown): x is { sql: string; params: unknown[] } {
  return typeof x === 'object' && x !== null && typeof (x as { sql?: unknown }).sql === 'string' && Array.isArray((x as { params?: unknown }).params);
}
if (!Number.isInteger(port) || !databaseUrl || !isStatement(statement)) {
  throw new Error('bare-report-server needs PORT, DATABASE_URL and STATEMENT ({ sql, params })');
}
const { sql, params } = statement;

// As many connections as a pool of the real server's.
const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX });

const server = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (d: string) => (text += d));
  req.on('end', () => {
    // Parsed as a server must, though the statement's values stay the recorded ones (the bench sends one filter).
    JSON.parse(text);
    pool.query<{ n: number; rows: string }>({ name: 'report', text: sql, values: params }).then(
      (r) => {
        const row = r.rows[0];
        const body = `{"rows":${row?.rows ?? '[]'},"total":${row?.n ?? 0}}`;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      },
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => console.log(`IR-HHT Portal ready (bare report server) on ${port}`));
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
