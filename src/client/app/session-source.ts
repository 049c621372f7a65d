import { createContext, useContext } from 'react';
import type { ShellSession } from '../layout/shell-session';

/**
 * Merge point with sign-in: the session the signed-in shell runs on, or null when nobody is signed in (then /layout
 * sends the visitor to the login screen). The sign-in feature provides it (useSession plus the API client).
 */
export const SessionSourceContext = createContext<ShellSession | null>(null);

export function useSessionSource(): ShellSession | null {
  return useContext(SessionSourceContext);
}
