/**
 * One wording of filter problems for the browser (RJSF over Ajv's precompiled validator) and the server (Ajv in
 * parseFilter): both run Ajv with FILTER_AJV_OPTIONS and turn each Ajv error into text with filterMessage, so a
 * user reads the same sentence whichever side caught the problem.
 */
export const FILTER_AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  coerceTypes: false,
  multipleOfPrecision: 8,
  verbose: true,
  discriminator: false,
} as const;

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function propOf(schema: Json, field: string): Json {
  const props = isObj(schema.properties) ? schema.properties : {};
  const prop = props[field];
  return isObj(prop) ? prop : {};
}

/** An Ajv error as both sides see it: keyword, params and the top-level field it is about. */
export interface FilterProblem {
  keyword: string;
  params: Json;
  field: string;
  /** Ajv's own message, used for keywords without a sentence of ours. */
  message?: string | undefined;
}

/** Ajv's wording ("must match pattern ^[0-9]{5}$") becomes text a supervisor understands. */
export function filterMessage(p: FilterProblem, schema: Json): string {
  const prop = propOf(schema, p.field);
  const title = typeof prop.title === 'string' ? prop.title : p.field;
  const hint = typeof prop.description === 'string' ? ` (${prop.description.replace(/\.$/, '')})` : '';
  const params = p.params;
  switch (p.keyword) {
    case 'required':
      return `${title} is required`;
    case 'pattern':
      return `${title} is not valid${hint}`;
    case 'format':
      return params.format === 'date' ? `${title} must be a valid date` : `${title} is not valid${hint}`;
    case 'enum':
      return `Choose ${title} from the list`;
    case 'type':
      return params.type === 'number' || params.type === 'integer' ? `${title} must be a number` : `${title} is not valid`;
    case 'minLength':
      return `${title} must have at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `${title} may have at most ${String(params.limit)} characters`;
    case 'minimum':
      return `${title} must be at least ${String(params.limit)}`;
    case 'maximum':
      return `${title} must be at most ${String(params.limit)}`;
    default:
      return `${title} ${p.message ?? 'is not valid'}`;
  }
}

/** The top-level field of an Ajv error: the missing property, or the first segment of instancePath ('/trainNo'). */
export function ajvErrorField(e: { keyword: string; instancePath: string; params: Json }): string {
  if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') return e.params.missingProperty;
  return e.instancePath.replace(/^\//, '').split('/')[0]?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
}
