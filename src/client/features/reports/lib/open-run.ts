/**
 * A report opens already run when its defaults make a valid filter (nothing to pick first); a train report picks
 * the user's last train (remembered in this browser) or their only train. Pure functions over the definition.
 */
import type { DateRangeRule, JsonObject } from '../../../../shared/report-definition';
import { isObject } from './parse';
import type { Filter } from './filter-url';
import { ruleProblems } from './rules';

function trainFields(uiSchema: JsonObject | undefined): string[] {
  return Object.entries(uiSchema ?? {}).flatMap(([field, ui]) => (isObject(ui) && ui['ui:widget'] === 'train' ? [field] : []));
}

/**
 * Empty required train fields take the last train if it is still the user's, else their only train. An optional
 * train field is never filled in: it would narrow the result without the user having asked (the report runs for
 * every train of the user's area instead).
 */
export function preselectTrain(filter: Filter, schema: JsonObject, uiSchema: JsonObject | undefined, trains: readonly string[], last: string | null): Filter {
  const pick = last && trains.includes(last) ? last : trains.length === 1 ? trains[0] : undefined;
  if (!pick) return filter;
  const required = Array.isArray(schema.required) ? schema.required : [];
  let out: Filter | null = null;
  for (const field of trainFields(uiSchema).filter((f) => required.includes(f))) {
    const v = filter[field];
    if (typeof v === 'string' && v.trim() !== '') continue;
    out ??= { ...filter };
    out[field] = pick;
  }
  return out ?? filter;
}

/** The train a run asked for, to remember (only one of the user's own trains). */
export function trainToRemember(filter: Filter | null, uiSchema: JsonObject | undefined, trains: readonly string[]): string | null {
  if (!filter) return null;
  for (const field of trainFields(uiSchema)) {
    const v = filter[field];
    if (typeof v === 'string' && trains.includes(v)) return v;
  }
  return null;
}

/**
 * Whether the filter can run as it is: every required field filled, text matching its pattern, enum values allowed,
 * the definition's date rules kept. A cheap check for opening a page; the form and the server validate fully.
 */
export function isRunnable(filter: Filter, schema: JsonObject, rules: readonly DateRangeRule[] | undefined): boolean {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const filled = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
  if (!required.every((k) => filled(filter[k]))) return false;
  for (const [key, v] of Object.entries(filter)) {
    const prop = props[key];
    if (!isObject(prop) || !filled(v)) continue;
    if (typeof prop.pattern === 'string' && !(typeof v === 'string' && new RegExp(prop.pattern).test(v))) return false;
    if (Array.isArray(prop.enum) && !Array.isArray(v) && !prop.enum.includes(v)) return false;
  }
  return ruleProblems(filter, rules).length === 0;
}
