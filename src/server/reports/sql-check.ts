import type { Db } from '../db';
import type { CheckedReport, CheckedView, DefinitionError } from '../../shared/definitions/validate';
import { compileNamedSql, SCOPE_TOKEN } from '../../shared/definitions/sql-params';

/** Time one view's check may take; a LIMIT 0 run plans the query but reads no rows. */
const CHECK_TIMEOUT_MS = 5000;

/**
 * The view's SQL as the executor would send it, with every scope column of the definition in the predicate
 * (so a misspelt scope column is caught too) and every value NULL: the parameters are bound exactly as on a
 * real call, so PostgreSQL infers each one's type from where it is used, as it will at run time.
 */
function probeQuery(view: CheckedView, text: string = view.sql): { sql: string; params: null[] } {
  const compiled = compileNamedSql(text);
  const params: null[] = compiled.names.map(() => null);
  const columns = Object.values(view.scope).filter((c): c is string => typeof c === 'string');
  const predicate = columns.length === 0 ? 'TRUE' : columns.map((c) => {
    params.push(null);
    return `(${c} = $${params.length})`;
  }).join(' AND ');
  return { sql: `SELECT * FROM (${compiled.text.split(SCOPE_TOKEN).join(predicate)}) q LIMIT 0`, params };
}

/** JSON pointers of a view's SQL and of the columns it shows (a tab without its own columns shows the report's). */
function viewPointers(report: CheckedReport, view: CheckedView): { sql: string; count: string; columns: string } {
  if (view.tabId === undefined) return { sql: '/source/sql', count: '/source/count', columns: '/columns' };
  const i = (report.definition.tabs ?? []).findIndex((t) => t.id === view.tabId);
  return {
    sql: `/tabs/${i}/source/sql`, count: `/tabs/${i}/source/count`,
    columns: report.definition.tabs?.[i]?.columns ? `/tabs/${i}/columns` : '/columns',
  };
}

/**
 * Checks each view's SQL against the real database, as the report role: it must parse, plan, read only what
 * that role may read, and return every column the definition shows. Successful checks are remembered by
 * SQL text and columns, so a reload re-checks only what changed.
 */
export class SqlChecker {
  private ok = new Set<string>();

  constructor(private readonly db: Db) {}

  async check(reports: readonly CheckedReport[]): Promise<DefinitionError[]> {
    const errors: DefinitionError[] = [];
    for (const report of reports) {
      for (const view of report.views) errors.push(...(await this.checkView(report, view)));
    }
    return errors;
  }

  private async checkView(report: CheckedReport, view: CheckedView): Promise<DefinitionError[]> {
    const key = JSON.stringify([view.sql, view.countSql, view.scope, view.columns.map((c) => c.field)]);
    if (this.ok.has(key)) return [];
    const at = viewPointers(report, view);
    const { sql, params } = probeQuery(view);
    let fields: string[];
    try {
      fields = await this.db.reportSession(CHECK_TIMEOUT_MS, async (q) => {
        const r = await q.query(sql, params);
        if (!r.fields) throw new Error('the database driver does not report result columns');
        return r.fields;
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return [{ file: report.file, pointer: at.sql, reason: `SQL of view "${view.endpoint}" fails on the database: ${message}` }];
    }
    const returned = new Set(fields);
    const errors: DefinitionError[] = [];
    if (view.countSql !== undefined) {
      const count = probeQuery(view, view.countSql);
      try {
        const countFields = await this.db.reportSession(CHECK_TIMEOUT_MS, async (q) => (await q.query(count.sql, count.params)).fields ?? []);
        if (!countFields.includes('total')) {
          errors.push({ file: report.file, pointer: at.count, reason: `the count SQL of view "${view.endpoint}" returns no column "total"` });
        }
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        errors.push({ file: report.file, pointer: at.count, reason: `count SQL of view "${view.endpoint}" fails on the database: ${message}` });
      }
    }
    view.columns.forEach((c, i) => {
      if (returned.has(c.field)) return;
      errors.push({
        file: report.file,
        pointer: `${at.columns}/${i}/field`,
        reason: `the SQL of view "${view.endpoint}" returns no column "${c.field}" (it returns: ${fields.join(', ') || 'nothing'})`,
      });
    });
    if (errors.length === 0) this.ok.add(key);
    return errors;
  }
}
