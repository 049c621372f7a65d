/** Fetchers of /api/saved-views; every answer is checked at the boundary (parseSavedView). */
import { HTTPError } from 'ky';
import { api } from '../../lib/api';
import { parseSavedView, type SavedView, type SavedViewChange, type SavedViewCreate } from '../../../shared/saved-views';

export class ViewApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ViewApiError';
  }
}

async function asViewError(err: unknown): Promise<unknown> {
  if (err instanceof DOMException && err.name === 'AbortError') return err;
  if (err instanceof HTTPError) {
    let message = `The server answered ${err.response.status}.`;
    try {
      const body = (await err.response.clone().json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      /* not JSON */
    }
    return new ViewApiError(message, err.response.status);
  }
  return new ViewApiError('The server cannot be reached. Check your connection.', 0);
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw await asViewError(err);
  }
}

function view(v: unknown): SavedView {
  const parsed = parseSavedView(v);
  if (!parsed) throw new ViewApiError('The server sent a view this page cannot read.', 0);
  return parsed;
}

export const listViews = (signal?: AbortSignal): Promise<SavedView[]> =>
  call(async () => {
    const body = await api.get('/api/saved-views', { signal }).json<{ views?: unknown }>();
    return Array.isArray(body.views) ? body.views.map(view) : [];
  });

export const getView = (viewId: string, signal?: AbortSignal): Promise<SavedView> =>
  call(async () => view(await api.get(`/api/saved-views/${encodeURIComponent(viewId)}`, { signal }).json()));

export const createView = (body: SavedViewCreate): Promise<SavedView> => call(async () => view(await api.post('/api/saved-views', { json: body }).json()));

export const changeView = (viewId: string, change: SavedViewChange): Promise<SavedView> =>
  call(async () => view(await api.patch(`/api/saved-views/${encodeURIComponent(viewId)}`, { json: change }).json()));

export const removeView = (viewId: string): Promise<void> =>
  call(async () => {
    await api.delete(`/api/saved-views/${encodeURIComponent(viewId)}`);
  });

/** The link that opens a view: the report's page with the view's id (the page applies its state). */
export const viewLink = (v: Pick<SavedView, 'reportId' | 'viewId'>, origin = window.location.origin): string =>
  `${origin}/layout/uikit/${encodeURIComponent(v.reportId)}?_view=${encodeURIComponent(v.viewId)}`;
