import { describe, expect, it } from 'vitest';
import { compileNamedSql, maskSql, withoutFinalOrderBy } from '../../src/shared/definitions/sql-params';

describe('named SQL parameters', () => {
  it('numbers names in order of first use and reuses repeated names', () => {
    const c = compileNamedSql('SELECT * FROM t WHERE a = :trainNo AND b = :startDate::date OR c = :trainNo');
    expect(c.names).toEqual(['trainNo', 'startDate']);
    expect(c.text).toBe('SELECT * FROM t WHERE a = $1 AND b = $2::date OR c = $1');
  });

  it('leaves casts, string literals, quoted identifiers and comments alone', () => {
    const c = compileNamedSql(`SELECT x::text, ':notparam', "a:b" -- :comment\n/* :block */ FROM t WHERE y = :real`);
    expect(c.names).toEqual(['real']);
    expect(c.text).toContain("':notparam'");
    expect(c.text).toContain('-- :comment');
    expect(c.text).toContain('/* :block */');
    expect(c.text.endsWith('y = $1')).toBe(true);
  });

  it('does not treat time literals inside strings or array slices as names', () => {
    const c = compileNamedSql("SELECT '10:30'::time, arr[1:2] FROM t");
    expect(c.names).toEqual([]);
  });

  it('masks comments, literals and quoted identifiers as spaces of the same length', () => {
    const sql = `SELECT 'a''b', "x y" -- c\n/* d */ FROM t`;
    const m = maskSql(sql);
    expect(m).toHaveLength(sql.length);
    expect(m).toBe(`SELECT ${' '.repeat(6)}, ${' '.repeat(5)} ${' '.repeat(4)}\n${' '.repeat(7)} FROM t`);
    expect(maskSql("SELECT 'open")).toBe('SELECT      ');
  });
});

describe('the SQL a count reads: without the final top-level ORDER BY', () => {
  it('drops the final ORDER BY and keeps everything before it', () => {
    expect(withoutFinalOrderBy('SELECT a FROM t WHERE b = $1\n ORDER BY a DESC, b\n')).toBe('SELECT a FROM t WHERE b = $1\n ');
  });

  it('ignores ORDER BY inside parentheses, windows, aggregates, comments and strings', () => {
    const inner = `SELECT string_agg(x, ',' ORDER BY x), row_number() OVER (ORDER BY y) FROM (SELECT * FROM t ORDER BY z) s WHERE c <> 'order by' -- order by\n`;
    expect(withoutFinalOrderBy(inner)).toBe(inner);
    expect(withoutFinalOrderBy(`${inner} ORDER BY 1`)).toBe(`${inner} `);
  });

  it('keeps the order when a LIMIT, OFFSET, FETCH, locking clause or set operation follows it', () => {
    for (const tail of ['LIMIT 10', 'OFFSET 5', 'FETCH FIRST 3 ROWS ONLY', 'FOR UPDATE']) {
      const sql = `SELECT a FROM t ORDER BY a ${tail}`;
      expect(withoutFinalOrderBy(sql)).toBe(sql);
    }
    expect(withoutFinalOrderBy('SELECT a FROM t')).toBe('SELECT a FROM t');
    // DISTINCT ON keeps the first row of each group in that order: a sum over the rows depends on it.
    const distinctOn = 'SELECT DISTINCT ON (k) k, v FROM t ORDER BY k, v DESC';
    expect(withoutFinalOrderBy(distinctOn)).toBe(distinctOn);
    expect(withoutFinalOrderBy('SELECT reorder_by FROM t')).toBe('SELECT reorder_by FROM t');
  });
});
