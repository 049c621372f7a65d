import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { CheckedReport } from '../../shared/definitions/validate';
import { resolveDefaults } from '../../shared/definitions/filter-widgets';
import { HttpError } from '../plugins/errors';
import { ajvErrorField, dateRangeMessage, FILTER_AJV_OPTIONS, filterMessage } from '../../shared/definitions/filter-messages';
import type { Lang } from '../../shared/definitions/hindi';
import { localizeFilterSchema } from '../../shared/definitions/localize';

// The options the browser's precompiled validators are built with (filter-validator-code.ts): same verdicts.
const ajv = new Ajv({ ...FILTER_AJV_OPTIONS });
addFormats(ajv);
const cache = new WeakMap<CheckedReport, ValidateFunction>();

function validatorFor(report: CheckedReport): ValidateFunction {
  let v = cache.get(report);
  if (!v) {
    v = ajv.compile(report.filterSchema);
    cache.set(report, v);
  }
  return v;
}

type Fields = { field: string; reason: string }[];

/**
 * Turns a request body into bound filter values: only the report's own fields, strings trimmed (train
 * numbers, trip ids), blanks dropped, defaults applied, then validated by the report's filter schema and
 * cross-field rules. Any problem is a 400 naming each bad field, worded in `lang` (the field titles too).
 */
export function parseFilter(report: CheckedReport, body: unknown, today: string, lang: Lang = 'en'): Record<string, unknown> {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new HttpError(400, 'The filter must be a JSON object', [{ field: 'body', reason: 'must be an object' }]);
  }
  const input = (body ?? {}) as Record<string, unknown>;
  const props = (report.filterSchema.properties ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = resolveDefaults(report.definition.filter.defaults, today);
  for (const key of Object.keys(props)) {
    let v = input[key];
    if (typeof v === 'string') v = v.trim();
    if (v === '' || v === null || v === undefined) continue;
    values[key] = v;
  }
  const validate = validatorFor(report);
  const fields: Fields = [];
  if (!validate(values)) {
    const schema = lang === 'en' ? report.filterSchema : localizeFilterSchema(report.definition, report.filterSchema, report.fieldHindi, lang);
    for (const e of validate.errors ?? []) {
      if (e.keyword === 'if') continue; // its then/else error, reported too, says what is wrong
      const field = ajvErrorField(e);
      fields.push({ field, reason: filterMessage({ keyword: e.keyword, params: e.params, field, message: e.message }, schema, lang) });
    }
  }
  for (const rule of report.definition.filter.rules ?? []) {
    const start = values[rule.start];
    const end = values[rule.end];
    if (typeof start !== 'string' || typeof end !== 'string') continue;
    const days = (Date.parse(end) - Date.parse(start)) / 86_400_000;
    if (days < 0) fields.push({ field: rule.end, reason: dateRangeMessage('endBeforeStart', rule.maxDays, lang) });
    else if (days + 1 > rule.maxDays) fields.push({ field: rule.end, reason: dateRangeMessage('tooLong', rule.maxDays, lang) });
  }
  if (fields.length > 0) {
    throw new HttpError(400, fields.map((f) => f.reason).join('; '), fields);
  }
  return values;
}
