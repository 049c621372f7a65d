import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RJSFSchema } from '@rjsf/utils';
import { filterValidatorModule, filterSchemaHash } from '../../src/server/reports/filter-validator-code';
import { validatorFromModule, type FilterValidator } from '../../src/client/features/reports/lib/filter-validator';

// Inside the project: vitest's module runner (jsdom tests) resolves modules under the root only.
const dir = join(process.cwd(), '.tmp', 'filter-validators');
mkdirSync(dir, { recursive: true });

/**
 * A filter validator made the way the browser gets it: the module text the server serves for the schema,
 * imported as a module file, handed to the client's validatorFromModule.
 */
export async function servedFilterValidator(schema: RJSFSchema): Promise<FilterValidator> {
  const s = schema as Record<string, unknown>;
  const file = join(dir, `${filterSchemaHash(s)}.mjs`);
  writeFileSync(`${file}.${process.pid}`, filterValidatorModule(s));
  renameSync(`${file}.${process.pid}`, file); // parallel test files never import half a file
  const mod: unknown = await import(/* @vite-ignore */ file);
  return validatorFromModule(mod, schema);
}
