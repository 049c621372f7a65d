import { useMemo, type ReactNode } from 'react';
import { api } from '../lib/api';
import { useSession } from '../lib/session';
import type { ShellSession } from '../layout/shell-session';
import { SessionSourceContext } from './session-source';

/** Gives the shell its session: the signed-in profile and train list, logout, and the API client. */
export function ShellSessionBridge({ children }: { children: ReactNode }) {
  const { profile, trains, logout } = useSession();
  const value = useMemo<ShellSession | null>(
    () =>
      profile
        ? {
            profile,
            trains,
            logout: () => void logout(),
            getJson: (path, signal) => api.get(path, signal ? { signal } : {}).json<unknown>(),
            postJson: (path, body, signal) => api.post(path, { json: body, ...(signal ? { signal } : {}) }).json<unknown>(),
          }
        : null,
    [profile, trains, logout],
  );
  return <SessionSourceContext.Provider value={value}>{children}</SessionSourceContext.Provider>;
}
