import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckInput, SourceFile } from '../../shared/definitions/validate';

/** Reads every definition input from the repository root: the meta-schema, field schemas, reports and their SQL. */
export function readDefinitionFiles(rootDir: string): CheckInput {
  const list = (dir: string, ext: string): string[] =>
    existsSync(join(rootDir, dir)) ? readdirSync(join(rootDir, dir)).filter((f) => f.endsWith(ext)).sort() : [];
  const read = (rel: string): SourceFile => ({ file: rel, text: readFileSync(join(rootDir, rel), 'utf8') });
  const sqlFiles: Record<string, string> = {};
  for (const f of list('reports', '.sql')) sqlFiles[f] = readFileSync(join(rootDir, 'reports', f), 'utf8');
  return {
    reportSchema: JSON.parse(readFileSync(join(rootDir, 'schemas/report.schema.json'), 'utf8')) as unknown,
    fields: list('schemas/fields', '.json').map((f) => read(`schemas/fields/${f}`)),
    reports: list('reports', '.json').map((f) => read(`reports/${f}`)),
    sqlFiles,
  };
}
