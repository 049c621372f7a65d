/** The zone -> division -> lobby cascade fed by /api/dropDownRailwayCode, as pure functions. */
import type { JsonObject } from '../../../../shared/report-definition';
import { isObject, type RailwayCode } from './parse';
import type { Filter } from './filter-url';

export interface CascadeFields {
  zone?: string;
  division?: string;
  lobby?: string;
}

/** Which filter fields use the zone, division and lobby widgets (from the uiSchema). */
export function cascadeFields(uiSchema: JsonObject | undefined): CascadeFields {
  const out: CascadeFields = {};
  for (const [field, ui] of Object.entries(uiSchema ?? {})) {
    if (!isObject(ui)) continue;
    const w = ui['ui:widget'];
    if ((w === 'zone' || w === 'division' || w === 'lobby') && out[w] === undefined) out[w] = field;
  }
  return out;
}

const distinct = (values: string[]): string[] => [...new Set(values.filter(Boolean))].sort();
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export function zoneOptions(codes: readonly RailwayCode[]): string[] {
  return distinct(codes.map((c) => c.zone));
}

export function divisionOptions(codes: readonly RailwayCode[], zone?: string): string[] {
  return distinct(codes.filter((c) => !zone || c.zone === zone).map((c) => c.division));
}

export function lobbyOptions(codes: readonly RailwayCode[], zone?: string, division?: string): string[] {
  return distinct(codes.filter((c) => (!zone || c.zone === zone) && (!division || c.division === division)).map((c) => c.lobby));
}

/** Options a cascade field offers given the other fields' values. */
export function optionsFor(level: keyof CascadeFields, codes: readonly RailwayCode[], fields: CascadeFields, filter: Filter): string[] {
  const zone = fields.zone ? str(filter[fields.zone]) : undefined;
  const division = fields.division ? str(filter[fields.division]) : undefined;
  if (level === 'zone') return zoneOptions(codes);
  if (level === 'division') return divisionOptions(codes, zone);
  return lobbyOptions(codes, zone, division);
}

/**
 * After any change: a division not in the chosen zone is cleared, and a lobby not in the chosen zone and
 * division. With no codes loaded (the lookup failed) nothing is cleared: the fields are then free text.
 */
export function normaliseCascade(filter: Filter, fields: CascadeFields, codes: readonly RailwayCode[]): Filter {
  if (codes.length === 0) return filter;
  const out = { ...filter };
  if (fields.division) {
    const d = str(out[fields.division]);
    if (d && !optionsFor('division', codes, fields, out).includes(d)) delete out[fields.division];
  }
  if (fields.lobby) {
    const l = str(out[fields.lobby]);
    if (l && !optionsFor('lobby', codes, fields, out).includes(l)) delete out[fields.lobby];
  }
  return out;
}

/**
 * The level's one and only code when the user's own lists hold just one (the server answers a zone user with their
 * zone, a division user with their division, a lobby user with their lobby): such a field is preset and locked.
 * Computed on the whole list, not on the other fields' choices, so an all-India user picking a division with a
 * single lobby is not narrowed to that lobby behind their back.
 */
export function lockedCode(level: keyof CascadeFields, codes: readonly RailwayCode[]): string | undefined {
  const all = level === 'zone' ? zoneOptions(codes) : level === 'division' ? divisionOptions(codes) : lobbyOptions(codes);
  return all.length === 1 ? all[0] : undefined;
}

/** The filter with every locked level set to the user's own code (unchanged object when nothing is to set). */
export function presetLockedCodes(filter: Filter, fields: CascadeFields, codes: readonly RailwayCode[]): Filter {
  let out: Filter | null = null;
  for (const level of ['zone', 'division', 'lobby'] as const) {
    const field = fields[level];
    const code = lockedCode(level, codes);
    if (!field || !code || filter[field] === code) continue;
    out ??= { ...filter };
    out[field] = code;
  }
  return out ?? filter;
}
