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

/**
 * Ajv's wording ("must match pattern ^[0-9]{5}$") becomes text a supervisor understands, in English or Hindi. The
 * field's title and hint come from `schema`: pass the schema of the same language (localize.ts).
 */
export function filterMessage(p: FilterProblem, schema: Json, lang: 'en' | 'hi' = 'en'): string {
  const prop = propOf(schema, p.field);
  const title = typeof prop.title === 'string' ? prop.title : p.field;
  const hint = typeof prop.description === 'string' ? ` (${prop.description.replace(/[.।]$/, '')})` : '';
  const params = p.params;
  if (lang === 'hi') return hindiMessage(p, title, hint);
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

function hindiMessage(p: FilterProblem, title: string, hint: string): string {
  const limit = String(p.params.limit);
  switch (p.keyword) {
    case 'required':
      return `${title} आवश्यक है`;
    case 'format':
      return p.params.format === 'date' ? `${title} एक मान्य तिथि होनी चाहिए` : `${title} मान्य नहीं है${hint}`;
    case 'enum':
      return `${title} सूची में से चुनें`;
    case 'type':
      return p.params.type === 'number' || p.params.type === 'integer' ? `${title} एक संख्या होनी चाहिए` : `${title} मान्य नहीं है`;
    case 'minLength':
      return `${title} में कम से कम ${limit} अक्षर होने चाहिए`;
    case 'maxLength':
      return `${title} में अधिकतम ${limit} अक्षर हो सकते हैं`;
    case 'minimum':
      return `${title} कम से कम ${limit} होना चाहिए`;
    case 'maximum':
      return `${title} अधिकतम ${limit} हो सकता है`;
    default:
      return `${title} मान्य नहीं है${p.keyword === 'pattern' ? hint : ''}`;
  }
}

/** The cross-field date rule's messages (filter.rules), in English or Hindi. */
export function dateRangeMessage(problem: 'endBeforeStart' | 'tooLong', maxDays: number, lang: 'en' | 'hi' = 'en'): string {
  if (lang === 'hi') return problem === 'endBeforeStart' ? 'अंतिम तिथि आरंभ तिथि से पहले नहीं हो सकती' : `तिथि सीमा अधिकतम ${maxDays} दिनों की हो सकती है`;
  return problem === 'endBeforeStart' ? 'End date must not be before the start date' : `The date range may span at most ${maxDays} days`;
}

/** The top-level field of an Ajv error: the missing property, or the first segment of instancePath ('/trainNo'). */
export function ajvErrorField(e: { keyword: string; instancePath: string; params: Json }): string {
  if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') return e.params.missingProperty;
  return e.instancePath.replace(/^\//, '').split('/')[0]?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
}
