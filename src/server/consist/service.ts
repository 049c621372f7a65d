import Ajv from 'ajv';
import type { Queryable } from '../db';
import { HttpError } from '../plugins/errors';
import type { ConsistCoach, ConsistResponse } from '../../shared/consist';

export interface ConsistQuery {
  trainNo: string;
  startDate: string;
  trainEvent: string;
}

export interface ConsistSource {
  url: string | undefined;
  token: string | undefined;
  timeoutMs: number;
}

/** Coaches of a run as charted (run_coaches), in marshalling order. */
export async function localConsist(db: Queryable, q: ConsistQuery): Promise<ConsistResponse> {
  const run = (await db.query<{ run_id: number }>('SELECT run_id FROM train_runs WHERE train_no = $1 AND start_date = $2::date', [q.trainNo, q.startDate])).rows[0];
  if (!run) throw new HttpError(404, `Train ${q.trainNo} has no run starting ${q.startDate}`);
  const { rows } = await db.query<{ seq: number; coach_id: string; class: string; capacity: number }>(
    'SELECT seq, coach_id, class, capacity FROM run_coaches WHERE run_id = $1 ORDER BY seq, coach_id',
    [run.run_id],
  );
  return { ...q, coaches: rows.map((r) => ({ seq: Number(r.seq), coachId: r.coach_id, class: r.class, capacity: Number(r.capacity) })) };
}

const ajv = new Ajv({ allErrors: false, strict: false });
/** What we accept from the external service: the coach list (extra keys ignored). */
const validRemote = ajv.compile<{ coaches: ConsistCoach[] }>({
  type: 'object',
  required: ['coaches'],
  properties: {
    coaches: {
      type: 'array',
      maxItems: 60,
      items: {
        type: 'object',
        required: ['seq', 'coachId', 'class', 'capacity'],
        properties: {
          seq: { type: 'integer', minimum: 0, maximum: 99 },
          coachId: { type: 'string', minLength: 1, maxLength: 8 },
          class: { type: 'string', minLength: 1, maxLength: 4 },
          capacity: { type: 'integer', minimum: 0, maximum: 200 },
        },
      },
    },
  },
});

/** Asks the external consist service: POST {trainNo, startDate, trainEvent} with the bearer token; 502 on any failure. */
export async function remoteConsist(src: ConsistSource & { url: string }, q: ConsistQuery, fetchImpl: typeof fetch = fetch): Promise<ConsistResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (src.token) headers.authorization = `Bearer ${src.token}`;
  let res: Response;
  try {
    res = await fetchImpl(src.url, { method: 'POST', headers, body: JSON.stringify(q), signal: AbortSignal.timeout(src.timeoutMs) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new HttpError(
      502,
      timedOut
        ? `The coach consist service did not answer within ${Math.round(src.timeoutMs / 100) / 10} s. Try again in a few minutes.`
        : 'The coach consist service cannot be reached. Try again in a few minutes.',
    );
  }
  if (res.status === 404) throw new HttpError(404, `The coach consist service has no consist for train ${q.trainNo} starting ${q.startDate}`);
  if (!res.ok) throw new HttpError(502, `The coach consist service failed (HTTP ${res.status}). Try again in a few minutes.`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new HttpError(502, 'The coach consist service sent an answer that is not JSON.');
  }
  if (!validRemote(body)) throw new HttpError(502, 'The coach consist service sent an answer without a readable coach list.');
  const coaches = body.coaches
    .map((c) => ({ seq: c.seq, coachId: c.coachId, class: c.class, capacity: c.capacity }))
    .sort((a, b) => a.seq - b.seq);
  return { ...q, coaches };
}
