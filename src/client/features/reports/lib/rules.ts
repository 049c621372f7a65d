import { localizeMessage } from '../../../i18n/messages';
/** Cross-field filter rules (definition.filter.rules) and friendly wording of schema errors. */
import type { CustomValidator, ErrorTransformer, FormValidation, RJSFValidationError } from '@rjsf/utils';
import type { DateRangeRule, JsonObject } from '../../../../shared/report-definition';
import { isObject } from './parse';
import { filterMessage } from '../../../../shared/definitions/filter-messages';
import type { Filter } from './filter-url';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** The same check the server makes: end not before start, span (inclusive) at most maxDays. */
export function ruleProblems(filter: Filter, rules: readonly DateRangeRule[] | undefined): { field: string; reason: string }[] {
  const out: { field: string; reason: string }[] = [];
  for (const rule of rules ?? []) {
    const start = filter[rule.start];
    const end = filter[rule.end];
    if (typeof start !== 'string' || typeof end !== 'string' || !ISO.test(start) || !ISO.test(end)) continue;
    const days = (Date.parse(end) - Date.parse(start)) / 86_400_000;
    if (days < 0) out.push({ field: rule.end, reason: 'End date must not be before the start date' });
    else if (days + 1 > rule.maxDays) out.push({ field: rule.end, reason: `The date range may span at most ${rule.maxDays} days` });
  }
  return out;
}

export function customValidateFor(rules: readonly DateRangeRule[] | undefined): CustomValidator<Filter> {
  return (formData, errors) => {
    for (const p of ruleProblems(formData ?? {}, rules)) {
      // RJSF builds one FieldValidation per schema property; the index type cannot express that, hence the narrowing.
      const field = (errors as Record<string, FormValidation | undefined>)[p.field];
      field?.addError(localizeMessage(p.reason));
    }
    return errors;
  };
}

/** Field name of an RJSF error: '.trainNo' or "['train-no']" or the missing property. */
export function errorField(e: RJSFValidationError): string {
  const params: unknown = e.params;
  if (e.name === 'required' && isObject(params) && typeof params.missingProperty === 'string') return params.missingProperty;
  const p = e.property ?? '';
  const m = /^\.?([A-Za-z0-9_$-]+)|^\['(.+)'\]/.exec(p);
  return m ? (m[1] ?? m[2] ?? '') : p;
}

/** The server's wording of the same Ajv error (shared/definitions/filter-messages.ts). */
export function friendlyMessage(e: RJSFValidationError, schema: JsonObject): string {
  return filterMessage({ keyword: e.name ?? '', params: isObject(e.params) ? e.params : {}, field: errorField(e), message: e.message }, schema);
}

export function transformErrorsFor(schema: JsonObject): ErrorTransformer<Filter> {
  return (errors) =>
    errors.map((e) => {
      const text = localizeMessage(friendlyMessage(e, schema));
      return { ...e, message: text, stack: text };
    });
}
