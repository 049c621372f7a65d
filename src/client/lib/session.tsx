import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  SESSION_MESSAGES, STORAGE_KEYS, type ProfileResponse, type TokenPair, type TrainManningRequest,
} from '../../shared/auth-contract';
import { parseProfile, type UserProfile } from '../../shared/profile';
import { api, endSession, onSessionEnd, SessionEndedError, tokenSubject, tokens } from './api';
import { decryptValue, encryptValue } from './payload-crypto';
import { localizeMessage } from '../i18n/messages';
import type { NoticeSeverity, QueuedNotice } from './notices';

const SessionToasts = lazy(() => import('./SessionToasts'));

/** Session storage keys of spec section 3. */
export const ACCESS_TOKEN = STORAGE_KEYS.accessToken;
export const REFRESH_TOKEN = STORAGE_KEYS.refreshToken;
export const ENCRYPT = STORAGE_KEYS.trains;

export interface SessionValue {
  /** The decrypted, validated profile; null until the guard (or the login) has fetched it. */
  profile: UserProfile | null;
  /** The user's train numbers (trimmed, upper-cased, de-duplicated), kept encrypted under ENCRYPT. */
  trains: string[];
  /** After OTP success: stores the tokens, fetches the profile and loads the train list. */
  completeLogin(pair: TokenPair): Promise<void>;
  /** The guard's check: fetches and decrypts the profile (and the train list if not stored); false on failure. */
  verify(): Promise<boolean>;
  /** Logout of spec section 4: server call with the token subject, clear, alert, go to /. */
  logout(): Promise<void>;
  /** Shows a toast (kept across navigation). */
  notify(severity: NoticeSeverity, text: string): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/** The train-list request of spec section 6 for a profile (the server re-checks it against the stored profile). */
export function trainRequestFor(p: UserProfile): TrainManningRequest {
  const su =
    p.userLevel === 'SU' || p.offCode === 'PTS' || p.offCode === 'CTCRB' ||
    (p.userLevel === 'RO' && (p.offType === 'ZN' || p.offType === 'HQ'));
  if (su) return { userLevel: 'SU' };
  switch (p.userLevel) {
    case 'ZA': case 'ZU': return { userLevel: p.userLevel, code: p.rlyCode ?? '' };
    case 'DA': case 'DU': return { userLevel: p.userLevel, code: p.divCode ?? '' };
    case 'LA': case 'LU': return { userLevel: p.userLevel, code: p.lobbyCode ?? '' };
    default: return { userLevel: p.userLevel, code: p.offCode ?? '' };
  }
}

/** Train numbers from the response: trimmed, upper-cased, de-duplicated (spec section 3), order kept. */
export function normaliseTrainList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out = new Set<string>();
  for (const item of value) {
    const raw = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).train_no : item;
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const no = String(raw).trim().toUpperCase();
    if (no) out.add(no);
  }
  return [...out];
}

/** The stored (encrypted) train list, or null when missing or undecryptable. */
export async function readStoredTrains(): Promise<string[] | null> {
  const value = await decryptValue(sessionStorage.getItem(ENCRYPT));
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
}

async function fetchProfile(): Promise<UserProfile | null> {
  const body = await api.get('/api/userprofile').json<ProfileResponse>();
  return parseProfile(await decryptValue(body?.encryptedProfile));
}

async function fetchTrains(profile: UserProfile): Promise<string[]> {
  const list = normaliseTrainList(await api.post('/api/TrainManningData', { json: trainRequestFor(profile) }).json<unknown>());
  sessionStorage.setItem(ENCRYPT, await encryptValue(list));
  return list;
}

/** Holds the signed-in state; place it inside the router (it navigates). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [profile, setProfile] = useState<UserProfile | null>(null);
  // Filled by verify() (stored list) or the login; nothing shows the list before either has run.
  const [trains, setTrains] = useState<string[]>([]);
  // Notices wait here until the toast chunk has loaded (it loads with the first one).
  const [notices, setNotices] = useState<QueuedNotice[]>([]);
  const [toasts, setToasts] = useState(false);
  const noticeSeq = useRef(0);

  const notify = useCallback((severity: NoticeSeverity, text: string) => {
    noticeSeq.current += 1;
    const id = noticeSeq.current;
    setToasts(true);
    setNotices((q) => [...q, { id, severity, text: localizeMessage(text) }]);
  }, []);
  const noticesShown = useCallback((ids: number[]) => setNotices((q) => q.filter((n) => !ids.includes(n.id))), []);

  const reset = useCallback(() => {
    setProfile(null);
    setTrains([]);
  }, []);

  useEffect(
    () =>
      onSessionEnd((end) => {
        reset();
        if (end.reason === 'expired') notify('error', end.message);
        navigate('/', { replace: true });
      }),
    [navigate, notify, reset],
  );

  const loadTrains = useCallback(async (p: UserProfile): Promise<void> => {
    try {
      setTrains(await fetchTrains(p));
    } catch (err) {
      if (err instanceof SessionEndedError) throw err;
      setTrains([]); // the strip shows nothing; the session stays
    }
  }, []);

  const completeLogin = useCallback(
    async (pair: TokenPair): Promise<void> => {
      tokens.set(pair);
      const p = await fetchProfile();
      if (!p) return; // the guard will refuse /layout and log out
      setProfile(p);
      await loadTrains(p);
    },
    [loadTrains],
  );

  const verify = useCallback(async (): Promise<boolean> => {
    if (!tokens.access()) return false;
    const p = await fetchProfile(); // SessionEndedError propagates: already handled by the client
    if (!p) return false;
    setProfile(p);
    const stored = await readStoredTrains();
    if (stored) setTrains(stored);
    else await loadTrains(p);
    return true;
  }, [loadTrains]);

  const logout = useCallback(async (): Promise<void> => {
    const token = tokens.access();
    if (!token) {
      tokens.clear();
      reset();
      navigate('/', { replace: true });
      return;
    }
    try {
      await api.post('/api/logout', { json: { userId: tokenSubject(token) ?? '' } });
    } catch (err) {
      if (err instanceof SessionEndedError) return; // forced logout already done
    }
    tokens.clear();
    reset();
    window.alert(localizeMessage(SESSION_MESSAGES.loggedOut));
    navigate('/', { replace: true });
  }, [navigate, reset]);

  const value = useMemo<SessionValue>(
    () => ({ profile, trains, completeLogin, verify, logout, notify }),
    [profile, trains, completeLogin, verify, logout, notify],
  );
  return (
    <SessionContext.Provider value={value}>
      {toasts && (
        <Suspense fallback={null}>
          <SessionToasts queue={notices} onShown={noticesShown} />
        </Suspense>
      )}
      {children}
    </SessionContext.Provider>
  );
}

/** The session: profile, train list, logout() and friends. Only inside SessionProvider. */
export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession() must be used inside <SessionProvider>');
  return v;
}

/** Ends the session on the client with the guard's message (spec section 4). */
export function guardLogout(): void {
  endSession('expired', SESSION_MESSAGES.guardFailed);
}
