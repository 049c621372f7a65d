/**
 * An RJSF validator that interprets JSON schema instead of compiling it. Ajv (and so @rjsf/validator-ajv8)
 * compiles schemas with `new Function`, which the portal's Content-Security-Policy (script-src 'self', no
 * 'unsafe-eval') forbids in the browser; the filter schemas arrive at run time (hot reload), so they cannot be
 * precompiled either. The server re-validates every filter with Ajv, so this is for the user's convenience:
 * it covers the draft-07 keywords filter forms use, and ignores the rest.
 */
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import { isObject } from './parse';
import type { Filter } from './filter-url';
import type { JsonObject } from '../../../../shared/report-definition';

export interface RawError {
  keyword: string;
  /** '/a/0/b' like Ajv. */
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

const MAX_DEPTH = 32;

const FORMATS: Record<string, (s: string) => boolean> = {
  date: (s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return false;
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
  },
  time: (s) => /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i.test(s),
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
  email: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s),
};

const regexCache = new Map<string, RegExp | null>();
function regex(pattern: string): RegExp | null {
  if (!regexCache.has(pattern)) {
    try {
      regexCache.set(pattern, new RegExp(pattern, 'u'));
    } catch {
      regexCache.set(pattern, null);
    }
  }
  return regexCache.get(pattern) ?? null;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      return true;
  }
}

function resolveRef(ref: string, root: JsonObject): unknown {
  if (!ref.startsWith('#')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** Appends the errors of `data` against `schema` to `out`. */
export function check(schema: unknown, data: unknown, root: JsonObject, out: RawError[], path = '', sPath = '#', depth = 0): void {
  if (!isObject(schema) || depth > MAX_DEPTH) return;
  const err = (keyword: string, message: string, params: Record<string, unknown> = {}, at = path) =>
    out.push({ keyword, instancePath: at, schemaPath: `${sPath}/${keyword}`, params, message });
  const valid = (s: unknown, d: unknown): boolean => {
    const tmp: RawError[] = [];
    check(s, d, root, tmp, path, sPath, depth + 1);
    return tmp.length === 0;
  };

  if (typeof schema.$ref === 'string') check(resolveRef(schema.$ref, root), data, root, out, path, schema.$ref, depth + 1);
  if (Array.isArray(schema.allOf)) schema.allOf.forEach((s, i) => check(s, data, root, out, path, `${sPath}/allOf/${i}`, depth + 1));
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => valid(s, data))) err('anyOf', 'must match a schema in anyOf');
  if (Array.isArray(schema.oneOf)) {
    const n = schema.oneOf.filter((s) => valid(s, data)).length;
    if (n !== 1) err('oneOf', 'must match exactly one schema in oneOf', { passingSchemas: n });
  }
  if (schema.not !== undefined && valid(schema.not, data)) err('not', 'must NOT be valid');
  if (schema.if !== undefined) {
    const branch = valid(schema.if, data) ? schema.then : schema.else;
    if (branch !== undefined) check(branch, data, root, out, path, sPath, depth + 1);
  }

  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
  if (types.length > 0 && !types.some((t) => typeMatches(t, data))) {
    err('type', `must be ${types.join(',')}`, { type: types.join(',') });
    return;
  }
  if ('const' in schema && !same(schema.const, data)) err('const', 'must be equal to constant', { allowedValue: schema.const });
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(e, data))) err('enum', 'must be equal to one of the allowed values', { allowedValues: schema.enum });

  if (typeof data === 'string') {
    const len = [...data].length;
    if (typeof schema.minLength === 'number' && len < schema.minLength) err('minLength', `must NOT have fewer than ${schema.minLength} characters`, { limit: schema.minLength });
    if (typeof schema.maxLength === 'number' && len > schema.maxLength) err('maxLength', `must NOT have more than ${schema.maxLength} characters`, { limit: schema.maxLength });
    if (typeof schema.pattern === 'string') {
      const re = regex(schema.pattern);
      if (re && !re.test(data)) err('pattern', `must match pattern "${schema.pattern}"`, { pattern: schema.pattern });
    }
    if (typeof schema.format === 'string') {
      const f = FORMATS[schema.format];
      if (f && !f(data)) err('format', `must match format "${schema.format}"`, { format: schema.format });
    }
  }
  if (typeof data === 'number') {
    if (typeof schema.minimum === 'number' && data < schema.minimum) err('minimum', `must be >= ${schema.minimum}`, { comparison: '>=', limit: schema.minimum });
    if (typeof schema.maximum === 'number' && data > schema.maximum) err('maximum', `must be <= ${schema.maximum}`, { comparison: '<=', limit: schema.maximum });
    if (typeof schema.exclusiveMinimum === 'number' && data <= schema.exclusiveMinimum) err('exclusiveMinimum', `must be > ${schema.exclusiveMinimum}`, { comparison: '>', limit: schema.exclusiveMinimum });
    if (typeof schema.exclusiveMaximum === 'number' && data >= schema.exclusiveMaximum) err('exclusiveMaximum', `must be < ${schema.exclusiveMaximum}`, { comparison: '<', limit: schema.exclusiveMaximum });
    if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0 && Math.abs(data / schema.multipleOf - Math.round(data / schema.multipleOf)) > 1e-9) {
      err('multipleOf', `must be multiple of ${schema.multipleOf}`, { multipleOf: schema.multipleOf });
    }
  }
  if (Array.isArray(data)) {
    if (typeof schema.minItems === 'number' && data.length < schema.minItems) err('minItems', `must NOT have fewer than ${schema.minItems} items`, { limit: schema.minItems });
    if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) err('maxItems', `must NOT have more than ${schema.maxItems} items`, { limit: schema.maxItems });
    if (schema.uniqueItems === true && new Set(data.map((d) => JSON.stringify(d))).size !== data.length) err('uniqueItems', 'must NOT have duplicate items');
    if (Array.isArray(schema.items)) schema.items.forEach((s, i) => i < data.length && check(s, data[i], root, out, `${path}/${i}`, `${sPath}/items/${i}`, depth + 1));
    else if (schema.items !== undefined) data.forEach((d, i) => check(schema.items, d, root, out, `${path}/${i}`, `${sPath}/items`, depth + 1));
  }
  if (isObject(data)) {
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === 'string' && data[key] === undefined) err('required', `must have required property '${key}'`, { missingProperty: key });
      }
    }
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const [key, sub] of Object.entries(props)) {
      if (data[key] !== undefined) check(sub, data[key], root, out, `${path}/${key}`, `${sPath}/properties/${key}`, depth + 1);
    }
    if (schema.additionalProperties === false) {
      for (const key of Object.keys(data)) {
        if (!(key in props) && data[key] !== undefined) err('additionalProperties', 'must NOT have additional properties', { additionalProperty: key });
      }
    }
  }
}

/** Raw errors -> RJSF's validation errors (property '.a.b', missing properties appended, like validator-ajv8). */
export function toRjsfErrors(raw: RawError[], schema: JsonObject): RJSFValidationError[] {
  return raw.map((e) => {
    let property = e.instancePath.replace(/\//g, '.');
    const missing = e.params.missingProperty;
    if (typeof missing === 'string') property = property ? `${property}.${missing}` : `.${missing}`;
    const top = property.replace(/^\./, '').split('.')[0] ?? '';
    const props = isObject(schema.properties) ? schema.properties : {};
    const prop = props[top];
    const title = isObject(prop) && typeof prop.title === 'string' ? prop.title : undefined;
    const error: RJSFValidationError = { name: e.keyword, property, message: e.message, params: e.params, stack: `${title ?? property} ${e.message}`.trim(), schemaPath: e.schemaPath };
    if (title) error.title = title;
    return error;
  });
}

/** RJSF's ValidatorType over `check`. */
export const filterValidator: ValidatorType<Filter> = {
  validateFormData(formData: Filter | undefined, schema: RJSFSchema, customValidate?: CustomValidator<Filter>, transformErrors?: ErrorTransformer<Filter>, uiSchema?: UiSchema<Filter>): ValidationData<Filter> {
    const root = schema as JsonObject; // RJSFSchema is a JSON schema object
    const raw: RawError[] = [];
    check(root, formData ?? {}, root, raw);
    let errors = toRjsfErrors(raw, root);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<Filter>(errors);
    if (!customValidate) return { errors, errorSchema };
    const withUndefined = getDefaultFormState<Filter>(filterValidator, schema, formData, schema, true);
    const data: Filter = isObject(withUndefined) ? withUndefined : {};
    const handler = customValidate(data, createErrorHandler<Filter>(data), uiSchema, errorSchema);
    return validationDataMerge<Filter>({ errors, errorSchema }, unwrapErrorHandler<Filter>(handler));
  },
  isValid(schema: RJSFSchema, formData: Filter | undefined, rootSchema: RJSFSchema): boolean {
    const raw: RawError[] = [];
    check(schema, formData, rootSchema as JsonObject, raw);
    return raw.length === 0;
  },
  rawValidation<Result = RawError>(schema: RJSFSchema, formData?: Filter): { errors?: Result[]; validationError?: Error } {
    const raw: RawError[] = [];
    check(schema, formData, schema as JsonObject, raw);
    // RJSF lets the validator choose the raw error type; ours is RawError.
    return { errors: raw as unknown as Result[] };
  },
};
