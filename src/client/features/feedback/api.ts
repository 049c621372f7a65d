import { HTTPError } from 'ky';
import { api } from '../../lib/api';
import type { FeedbackRequest, FeedbackResponse } from '../../../shared/feedback';

export function sendFeedback(body: FeedbackRequest): Promise<FeedbackResponse> {
  return api.post('/api/dashboard-feedback', { json: body }).json<FeedbackResponse>();
}

export async function failure(err: unknown): Promise<{ message: string; fields: Record<string, string> }> {
  if (err instanceof HTTPError) {
    try {
      const body = (await err.response.clone().json()) as { message?: unknown; fields?: { field: string; reason: string }[] };
      const fields: Record<string, string> = {};
      for (const f of body.fields ?? []) fields[f.field] = f.reason;
      return { message: typeof body.message === 'string' ? body.message : `The server answered ${err.response.status}.`, fields };
    } catch {
      return { message: `The server answered ${err.response.status}.`, fields: {} };
    }
  }
  return { message: 'Your feedback could not be sent: the server cannot be reached. Your text is kept; try again.', fields: {} };
}
