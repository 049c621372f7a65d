import ky, { HTTPError, type KyRequest } from 'ky';
import {
  SESSION_MESSAGES, STORAGE_KEYS, SUPERSEDED_MARKERS, XSRF_COOKIE, XSRF_HEADER, type TokenPair,
} from '../../shared/auth-contract';
import { currentLanguage } from '../i18n';
import { localizeMessage } from '../i18n/messages';

/**
 * The HTTP client of the portal (spec sections 7 and 8), on ky:
 * - 'Bearer {access token}' on every call when a token exists;
 * - the XSRF-TOKEN cookie copied into X-XSRF-TOKEN on non-GET/HEAD same-origin (relative-URL) requests;
 * - 401 with the TOKEN_EXPIRED body: one refresh (POST /api/refreshToken, refresh token as bearer) shared by all
 *   concurrent callers, who wait for it and retry once with the new token;
 * - 403, or a failed refresh: forced logout ('Session expired, Please login again') and navigation to root;
 * - 401 whose text mentions 'Session invalid', 'superseded' or 'Key': tokens cleared, alert 'Already Logged in
 *   with different session', navigation to root, and the error 'Session invalid or superseded';
 * - every other error passes on unchanged (ky's HTTPError);
 * - 'Accept-Language: en|hi' on every call: the server answers definitions, menu, dashboard and exports in the
 *   interface language.
 */

// ---- Token storage (session storage keys of spec section 3) ----
export const tokens = {
  access: (): string | null => sessionStorage.getItem(STORAGE_KEYS.accessToken),
  refresh: (): string | null => sessionStorage.getItem(STORAGE_KEYS.refreshToken),
  set(pair: TokenPair): void {
    sessionStorage.setItem(STORAGE_KEYS.accessToken, pair.accessToken);
    sessionStorage.setItem(STORAGE_KEYS.refreshToken, pair.refreshToken);
  },
  /** Clears tokens and the encrypted train list. */
  clear(): void {
    sessionStorage.removeItem(STORAGE_KEYS.accessToken);
    sessionStorage.removeItem(STORAGE_KEYS.refreshToken);
    sessionStorage.removeItem(STORAGE_KEYS.trains);
  },
};

/** The user id of the access token subject (JWT payload 'sub'), without verifying: the server does that. */
export function tokenSubject(token: string | null): string | null {
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const payload = JSON.parse(json) as unknown;
    const sub = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>).sub : undefined;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

// ---- Session end: the session provider listens (toast, navigation); without one we reload at root ----
export type SessionEndReason = 'expired' | 'superseded';
export interface SessionEnd {
  reason: SessionEndReason;
  message: string;
}
type Listener = (end: SessionEnd) => void;
const listeners = new Set<Listener>();

/** Subscribes to forced session ends; returns the unsubscribe function. */
export function onSessionEnd(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Raised to the caller of a request that ended the session (already handled: notice shown, navigating). */
export class SessionEndedError extends Error {
  constructor(readonly reason: SessionEndReason, message: string) {
    super(message);
    this.name = 'SessionEndedError';
  }
}

let lastEndAt = 0;
/** Ends the session on the client. Repeated ends within 3 s (concurrent failing calls) notify only once. */
export function endSession(reason: SessionEndReason, message: string = SESSION_MESSAGES.forcedLogout): SessionEndedError {
  const hadSession = tokens.access() !== null || tokens.refresh() !== null;
  tokens.clear();
  const now = Date.now();
  if (hadSession || now - lastEndAt > 3000) {
    lastEndAt = now;
    if (reason === 'superseded') window.alert(localizeMessage(SESSION_MESSAGES.superseded));
    const end: SessionEnd = { reason, message: reason === 'superseded' ? SESSION_MESSAGES.supersededError : message };
    if (listeners.size === 0) window.location.assign('/');
    for (const l of listeners) l(end);
  }
  return new SessionEndedError(reason, reason === 'superseded' ? SESSION_MESSAGES.supersededError : message);
}

// ---- Helpers ----
function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function isSupersededText(text: string): boolean {
  return SUPERSEDED_MARKERS.some((m) => text.includes(m));
}

function isExpiredBody(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && (body as Record<string, unknown>).code === 'TOKEN_EXPIRED';
  } catch {
    return false;
  }
}

function xsrfHeaders(): Record<string, string> {
  const x = readCookie(XSRF_COOKIE);
  return x ? { [XSRF_HEADER]: x } : {};
}

// ---- Refresh: one at a time; everybody who needs it waits for the same promise (the queue) ----
let refreshing: Promise<string> | null = null;
/** Waits before the 2nd, 3rd and 4th try of a refresh that got no answer: all within the server's 30 s grace. */
const REFRESH_RETRY_DELAYS_MS = [1000, 3000, 6000];

function parsePair(value: unknown): TokenPair | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  return typeof v.accessToken === 'string' && typeof v.refreshToken === 'string'
    ? { accessToken: v.accessToken, refreshToken: v.refreshToken }
    : null;
}

/** Refreshes the token pair once for all concurrent callers; resolves to the new access token. */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= (async () => {
    const refreshToken = tokens.refresh();
    if (!refreshToken) throw endSession('expired');
    let response: Response | undefined;
    // A refresh whose answer is lost on a bad connection may be sent again: the server answers a retry of the same
    // token for 30 s (AUTH_LIMITS.refreshReuseGraceMs), so a few tries within that keep the session.
    for (let attempt = 0; response === undefined; attempt++) {
      try {
        response = await ky.post('/api/refreshToken', {
          headers: { Authorization: `Bearer ${refreshToken}`, ...xsrfHeaders() },
          throwHttpErrors: false,
          retry: 0,
        });
      } catch {
        if (attempt >= REFRESH_RETRY_DELAYS_MS.length) throw endSession('expired');
        await new Promise((r) => setTimeout(r, REFRESH_RETRY_DELAYS_MS[attempt]));
      }
    }
    if (response.ok) {
      const pair = parsePair(await response.json().catch(() => null));
      if (!pair) throw endSession('expired');
      tokens.set(pair);
      return pair.accessToken;
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 && isSupersededText(text)) throw endSession('superseded');
    throw endSession('expired');
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Test seam for unit tests: nothing in flight between tests. */
export function isRefreshing(): boolean {
  return refreshing !== null;
}

async function afterResponse(request: KyRequest, options: { context: Record<string, unknown> }, response: Response): Promise<Response | void> {
  if (response.status === 403) throw endSession('expired');
  if (response.status !== 401) return;
  const text = await response.text().catch(() => '');
  if (isSupersededText(text)) throw endSession('superseded');
  if (!isExpiredBody(text) || options.context.retried === true) return; // other 401s pass on unchanged
  // Someone may have refreshed while this call was in flight: then just retry with the newer token.
  const current = tokens.access();
  const sent = request.headers.get('Authorization');
  const token = current && sent !== `Bearer ${current}` ? current : await refreshAccessToken();
  request.headers.set('Authorization', `Bearer ${token}`);
  return api(request, { context: { retried: true } });
}

export const api = ky.create({
  retry: 0,
  timeout: 60_000,
  hooks: {
    beforeRequest: [
      (request) => {
        request.headers.set('Accept-Language', currentLanguage());
        const token = tokens.access();
        if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
        const method = request.method.toUpperCase();
        if (method !== 'GET' && method !== 'HEAD' && isSameOrigin(request.url)) {
          const x = readCookie(XSRF_COOKIE);
          if (x) request.headers.set(XSRF_HEADER, x);
        }
      },
    ],
    afterResponse: [afterResponse],
  },
});

/** The server's message in an error response body ({message}), if any. */
export async function errorMessage(err: unknown): Promise<string | null> {
  if (!(err instanceof HTTPError)) return null;
  try {
    const body = (await err.response.clone().json()) as unknown;
    const m = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).message : undefined;
    return typeof m === 'string' ? m : null;
  } catch {
    return null;
  }
}

export { HTTPError };
