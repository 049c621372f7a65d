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

export function compileNamedSql(sql: string): CompiledSql {
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j += 1;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (ch === ':' && next === ':') {
      out += '::';
      i += 2;
    } else if (ch === ':' && next !== undefined && /[A-Za-z_]/.test(next) && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j] as string)) j += 1;
      const name = sql.slice(i + 1, j);
      let idx = names.indexOf(name);
      if (idx === -1) {
        names.push(name);
        idx = names.length - 1;
      }
      out += `$${idx + 1}`;
      i = j;
    } else {
      out += ch;
      i += 1;
    }
  }
  return { text: out, names };
}
