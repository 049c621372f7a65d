import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RJSFSchema } from '@rjsf/utils';
import { filterValidatorModule, filterSchemaHash } from '../../src/server/reports/filter-validator-code';
import { validatorFromModule, type FilterValidator } from '../../src/client/features/reports/lib/filter-validator';

const dir = mkdtempSync(join(tmpdir(), 'hht-filter-validators-'));

/**
 * A filter validator made the way the browser gets it: the module text the server serves for the schema,
 * imported as a module file, handed to the client's validatorFromModule.
 */
export async function servedFilterValidator(schema: RJSFSchema): Promise<FilterValidator> {
  const s = schema as Record<string, unknown>;
  const file = join(dir, `${filterSchemaHash(s)}.mjs`);
  writeFileSync(file, filterValidatorModule(s));
  const mod: unknown = await import(/* @vite-ignore */ pathToFileURL(file).href);
  return validatorFromModule(mod, schema);
}
