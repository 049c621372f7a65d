/**
 * Named parameters in definition SQL (':trainNo') become positional ($1) so values are always bound.
 * Comments, string literals, quoted identifiers and '::' casts are left alone.
 */
export const SCOPE_TOKEN = '{{scope}}';

export interface CompiledSql {
  /** SQL with $1..$n in place of names; SCOPE_TOKEN still present. */
  text: string;
  /** Parameter names in positional order ($1 = names[0]). */
  names: string[];
}

/**
 * The SQL with every comment, string literal and quoted identifier blanked out (spaces, same length), so code can be
 * searched by position without matching inside them. An unterminated one runs to the end.
 */
export function maskSql(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    let stop = i + 1;
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      stop = end === -1 ? sql.length : end;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      stop = end === -1 ? sql.length : end + 2;
    } else if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j += 1;
      }
      stop = Math.min(j + 1, sql.length);
    } else {
      out += ch;
      i += 1;
      continue;
    }
    out += sql.slice(i, stop).replace(/[^\n]/g, ' ');
    i = stop;
  }
  return out;
}

export function compileNamedSql(sql: string): CompiledSql {
  const code = maskSql(sql);
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    if (code[i] === ':' && code[i + 1] === ':') {
      out += '::';
      i += 2;
    } else if (code[i] === ':' && /[A-Za-z_]/.test(code[i + 1] ?? '') && !/[A-Za-z0-9_]/.test(code[i - 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(code[j] as string)) j += 1;
      const name = sql.slice(i + 1, j);
      let idx = names.indexOf(name);
      if (idx === -1) {
        names.push(name);
        idx = names.length - 1;
      }
      out += `$${idx + 1}`;
      i = j;
    } else {
      out += sql[i] as string;
      i += 1;
    }
  }
  return { text: out, names };
}

/**
 * The SQL without its final top-level ORDER BY, for counting its rows: the order changes no count, and a report's
 * own order made `SELECT count(*) FROM (...)` sort every row first. Left whole when anything but the order follows
 * it at the top level (LIMIT, OFFSET, FETCH, FOR ...), when it has none, and when the SQL uses DISTINCT ON (the
 * order picks which row each group keeps, so a sum would change).
 */
export function withoutFinalOrderBy(sql: string): string {
  const code = maskSql(sql);
  if (/\bdistinct\s+on\b/i.test(code)) return sql;
  let depth = 0;
  let last = -1;
  const word = /\border\s+by\b/iy;
  for (let i = 0; i < code.length; i += 1) {
    const ch = code[i];
    if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (depth === 0 && (ch === 'o' || ch === 'O')) {
      word.lastIndex = i;
      if (word.test(code) && !/[A-Za-z0-9_$]/.test(code[i - 1] ?? '')) last = i;
    }
  }
  if (last === -1) return sql;
  const tail = code.slice(last);
  let d = 0;
  let top = '';
  for (const ch of tail) {
    if (ch === '(') d += 1;
    else if (ch === ')') d -= 1;
    else if (d === 0) top += ch;
  }
  if (/\b(limit|offset|fetch|for|union|intersect|except)\b/i.test(top) || d !== 0) return sql;
  return sql.slice(0, last);
}
