import { HHT_RECORD_TYPES, HHT_SYNC_LIMITS, type HhtRecordType } from '../../shared/hht-sync';
import { CODE_PATTERN, ID_PATTERN, PAYMENT_FIELD_SPECS, RECORD_FIELD_SPECS, TIME_PATTERN, type FieldKind, type FieldSpec } from '../hht/validate';
import type { Schema } from './schema-helpers';

/**
 * The sync API's records as JSON Schemas, made from the validator's own field tables (hht/validate.ts), so the
 * document says what the server checks; the rules past the shape are in each record's description.
 */

/** What a record of each type stores, and the checks past its shape (the same words as docs/hht-sync.md). */
const RULES: Record<HhtRecordType, string> = {
  CHECK: 'A checking event. O/NT set the passenger\'s mark (latest by device time); SHIFTED moves them to newCoachId/newBerthNo; GOT_DOWN records an early exit. psgnId must be a passenger of the beat\'s run; coachId a coach of the beat.',
  ALLOTMENT: 'A vacant berth given to an RAC/waitlisted passenger: the reallocation, its ALLOTTED event, the passenger\'s new coach/berth and status CNF/<coach>/<berth>, mark O if unmarked. The berth must be vacant on the run.',
  SIGN_ON: 'The beat\'s sign-on time.',
  SIGN_OFF: 'The beat\'s sign-off time.',
  TWR: 'The beat\'s Train Working Report status.',
  EFT: 'An excess fare ticket; total = excessFare + excessCharge; eftNo and payment txnIds must not be stored already. Each payment: txnId, amount, mode (CARD, UPI), status, at, posId.',
  BERTH_RELEASE: 'A vacant berth released to PRS.',
  DEFICIENCY: 'A coach deficiency reported by the TTE.',
  DEFICIENCY_CLOSE: 'The closing of a deficiency of the run reported earlier (or earlier in the batch); closedAt not before the report.',
  TDR_REMARK: 'The TTE\'s remark on a TDR of the run.',
};

function kindSchema(kind: FieldKind): Schema {
  if (Array.isArray(kind)) return { type: 'string', enum: [...kind] };
  switch (kind) {
    case 'id':
      return { type: 'string', minLength: 1, maxLength: HHT_SYNC_LIMITS.idMax, pattern: ID_PATTERN.source };
    case 'code':
      return { type: 'string', pattern: CODE_PATTERN.source };
    case 'text':
      return { type: 'string', minLength: 1, maxLength: HHT_SYNC_LIMITS.textMax, pattern: '\\S' };
    case 'int':
      return { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
    case 'money':
      return { type: 'number', minimum: 0, exclusiveMaximum: 1e8, multipleOf: 0.01, description: 'Rupees, at most 2 decimals' };
    case 'bool':
      return { type: 'boolean' };
    case 'time':
      return { type: 'string', format: 'date-time', pattern: TIME_PATTERN.source, description: 'ISO 8601 with a zone' };
    default:
      return {};
  }
}

function objectOf(spec: Record<string, FieldSpec>, extra: Record<string, Schema> = {}): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(spec)) {
    const s = extra[name] ?? kindSchema(f.kind);
    properties[name] = f.nullable && !f.required ? { anyOf: [s, { type: 'null' }] } : s;
    if (f.required) required.push(name);
  }
  return { properties, required };
}

const PAYMENT: Schema = { type: 'object', additionalProperties: false, ...objectOf(PAYMENT_FIELD_SPECS) };

/** One record type's schema: the common fields, its own, nothing else. */
export function recordSchema(type: HhtRecordType): Schema {
  const own = objectOf(RECORD_FIELD_SPECS[type], { payments: { type: 'array', items: PAYMENT } });
  return {
    title: type,
    description: RULES[type],
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'beatId', ...own.required],
    properties: {
      id: { ...kindSchema('id'), description: 'The device\'s own id for the record: one already stored for this device is a duplicate, not stored again' },
      type: { const: type },
      beatId: { type: 'integer', minimum: 0, description: 'A beat worked with this device (run_id * 10 + beat number)' },
      ...own.properties,
    },
  };
}

export const SYNC_REQUEST: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['batchId', 'records'],
  description:
    'All or nothing: a batch with any bad record is refused (400) and stores nothing. Idempotent: a batch id already stored for the device gets the first answer again (replayed: true); a record id already stored counts as a duplicate.',
  properties: {
    batchId: { ...kindSchema('id'), description: 'The device\'s id for the batch; send a retry with the same id and records' },
    records: {
      type: 'array',
      minItems: 1,
      maxItems: HHT_SYNC_LIMITS.batchMax,
      items: { oneOf: HHT_RECORD_TYPES.map(recordSchema), discriminator: { propertyName: 'type' } },
    },
  },
};

export const SYNC_RESPONSE: Schema = {
  description: 'Stored (or stored before: replayed)',
  type: 'object',
  additionalProperties: false,
  required: ['batchId', 'received', 'stored', 'duplicates', 'receivedAt', 'replayed'],
  properties: {
    batchId: { type: 'string' },
    received: { type: 'integer', description: 'Records in the batch' },
    stored: { type: 'integer', description: 'Records this batch stored' },
    duplicates: { type: 'integer', description: 'Records stored by an earlier batch' },
    receivedAt: { type: 'string', format: 'date-time' },
    replayed: { type: 'boolean', description: 'true: the answer of the first delivery of this batch id' },
  },
};
