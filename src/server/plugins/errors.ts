import type { FastifyError, FastifyInstance } from 'fastify';

/** Body of every API error: a message for people and, for bad input, the fields at fault. */
export interface ApiErrorBody {
  error: string;
  message: string;
  fields?: { field: string; reason: string }[];
}

/** An error a route throws on purpose, with the status and message the user should see. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: { field: string; reason: string }[],
  ) {
    super(message);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 503: 'Service Unavailable',
};

/** Turns Ajv's instancePath ('/trainNo') or missingProperty into a field name. */
function fieldOf(v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const missing = v.params?.missingProperty ?? v.params?.additionalProperty;
  const base = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (typeof missing === 'string') return base ? `${base}.${missing}` : missing;
  return base || 'body';
}

/** Never a stack trace, never a 500 for bad input: validation -> 400 naming the fields; unknown -> 500 logged. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { fields?: ApiErrorBody['fields'] }, request, reply) => {
    let status = err.statusCode ?? 500;
    let fields = err.fields;
    let message = err.message;
    if (err.validation) {
      status = 400;
      fields = err.validation.map((v) => ({ field: fieldOf(v), reason: v.message ?? 'is invalid' }));
      message = `Invalid ${fields.map((f) => f.field).join(', ')}: ${fields.map((f) => f.reason).join('; ')}`;
    } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
      status = 400;
      message = 'Request body is not valid JSON';
    }
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      if (!(err instanceof HttpError)) message = 'Internal server error';
    }
    const body: ApiErrorBody = { error: STATUS_NAMES[status] ?? 'Error', message };
    if (fields) body.fields = fields;
    void reply.status(status).send(body);
  });
}
