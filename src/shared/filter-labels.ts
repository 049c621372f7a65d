/**
 * Words for a filter's coded values: a definition's uiSchema may give `ui:enumNames` for an enum field (the same
 * list RJSF shows in the drop-down), and the applied-filter line on screen and in PDF exports uses it too.
 */
import type { JsonObject } from './report-definition';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The enumName of `value` for filter field `key`, or undefined when the definition gives none. */
export function filterEnumName(schemaProp: unknown, uiSchema: unknown, key: string, value: unknown): string | undefined {
  if (!isObject(schemaProp) || !isObject(uiSchema)) return undefined;
  const ui = uiSchema[key];
  const names = isObject(ui) ? ui['ui:enumNames'] : undefined;
  const values = Array.isArray(schemaProp.enum) ? schemaProp.enum : isObject(schemaProp.items) && Array.isArray(schemaProp.items.enum) ? schemaProp.items.enum : null;
  if (!Array.isArray(names) || !values) return undefined;
  const i = values.indexOf(value);
  const name: unknown = i >= 0 ? names[i] : undefined;
  return typeof name === 'string' ? name : undefined;
}
