import { api, HTTPError } from '../../lib/api';
import type { MailStatus, SendItem, SubscriptionInput, SubscriptionItem } from '../../../shared/subscriptions';

/** The server's message (and the fields it names) for a failed call, or a plain one. */
export async function failure(err: unknown): Promise<{ message: string; fields: Record<string, string> }> {
  if (err instanceof HTTPError) {
    const out = { message: `The server answered ${err.response.status}.`, fields: {} as Record<string, string> };
    try {
      const body = (await err.response.clone().json()) as { message?: unknown; fields?: { field: string; reason: string }[] };
      if (typeof body.message === 'string') out.message = body.message;
      for (const f of body.fields ?? []) out.fields[f.field] = f.reason;
    } catch {
      /* not JSON */
    }
    return out;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return { message: 'The server took too long to answer.', fields: {} };
  return { message: 'The server cannot be reached. Check your connection.', fields: {} };
}

export const fetchMailStatus = (signal?: AbortSignal): Promise<MailStatus> => api.get('/api/subscriptions/status', { signal }).json<MailStatus>();

export const saveEmail = (email: string | null): Promise<{ email: string | null }> =>
  api.put('/api/profile/email', { json: { email } }).json<{ email: string | null }>();

export const fetchSubscriptions = (signal?: AbortSignal): Promise<SubscriptionItem[]> => api.get('/api/subscriptions', { signal }).json<SubscriptionItem[]>();

export const createSubscription = (input: SubscriptionInput): Promise<SubscriptionItem> =>
  api.post('/api/subscriptions', { json: input }).json<SubscriptionItem>();

export const setPaused = (id: number, paused: boolean): Promise<SubscriptionItem> =>
  api.patch(`/api/subscriptions/${id}`, { json: { paused } }).json<SubscriptionItem>();

export const deleteSubscription = (id: number): Promise<unknown> => api.delete(`/api/subscriptions/${id}`).json();

export const fetchSends = (id: number, signal?: AbortSignal): Promise<SendItem[]> => api.get(`/api/subscriptions/${id}/sends`, { signal }).json<SendItem[]>();
