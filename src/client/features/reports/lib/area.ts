/** Whether a filter asks for a train outside the user's area (their train list, spec section 6). */
import type { JsonObject } from '../../../../shared/report-definition';
import { isObject } from './parse';
import type { Filter } from './filter-url';

/**
 * Train numbers of the filter's train fields (the 'train' widget) that are not in the user's train list. An empty
 * list (not loaded, or a user without trains) proves nothing, so it finds none: the server's scope decides anyway.
 */
export function trainsOutOfArea(filter: Filter | null, uiSchema: JsonObject | undefined, trains: readonly string[]): string[] {
  if (!filter || trains.length === 0) return [];
  const out: string[] = [];
  for (const [field, ui] of Object.entries(uiSchema ?? {})) {
    if (!isObject(ui) || ui['ui:widget'] !== 'train') continue;
    const v = filter[field];
    if (typeof v === 'string' && v.trim() !== '' && !trains.includes(v.trim().toUpperCase())) out.push(v.trim());
  }
  return out;
}
