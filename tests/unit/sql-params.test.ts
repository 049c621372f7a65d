import { describe, expect, it } from 'vitest';
import { compileNamedSql } from '../../src/shared/definitions/sql-params';

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
});
