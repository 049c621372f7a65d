/** Small builders for the OpenAPI document's JSON Schemas (3.1: plain JSON Schema). */
export type Schema = Record<string, unknown>;

/** What the document says of one route beyond its own schema: what it is for, and its answers. */
export interface RouteDoc {
  summary: string;
  tags: string[];
  /** Request parts the route validates by hand (its own schema, when it has one, is documented as it is). */
  body?: Schema;
  querystring?: Schema;
  params?: Schema;
  /** By status code; every route lists its refusals too. */
  response: Record<string, Schema>;
  /** Bearer access token (officers) or device credential (terminals); none for the sign-in steps. */
  security?: 'officer' | 'device';
}

export const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
export const num = (description?: string): Schema => ({ type: 'number', ...(description ? { description } : {}) });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const nullable = (s: Schema): Schema => ({ ...s, type: [s.type as string, 'null'] });
export const arr = (items: Schema, description?: string): Schema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const enumOf = (values: readonly string[], description?: string): Schema => ({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/**
 * An object answer: the properties listed are always there (required), others may follow (the answers keep the
 * original backend's payloads, and a client must ignore what it does not know).
 */
export const obj = (props: Record<string, Schema>, optional: readonly string[] = []): Schema => ({
  type: 'object',
  properties: props,
  required: Object.keys(props).filter((k) => !optional.includes(k)),
  additionalProperties: true,
});

/** An object request body: exactly these properties. */
export const body = (props: Record<string, Schema>, required: readonly string[]): Schema => ({
  type: 'object',
  properties: props,
  required: [...required],
  additionalProperties: false,
});

/** The error body of every refusal: a message for people and, for bad input, each field at fault. */
export const API_ERROR: Schema = {
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'HTTP status name, e.g. Bad Request' },
    message: { type: 'string', description: 'What went wrong, for people' },
    fields: {
      type: 'array',
      description: 'Bad input only: each field at fault and why',
      items: { type: 'object', required: ['field', 'reason'], properties: { field: { type: 'string' }, reason: { type: 'string' } } },
    },
  },
};

/** A refusal answer of the given status with the usual error body (inline: the generator resolves no outside $ref). */
export const errorAnswer = (description: string): Schema => ({ description, ...API_ERROR });

/** An answer that is not JSON (a file, a script, plain text). */
export const otherContent = (description: string, types: Record<string, Schema>): Schema => ({
  description,
  content: Object.fromEntries(Object.entries(types).map(([t, schema]) => [t, { schema }])),
});
