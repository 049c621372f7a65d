import { createContext, useContext } from 'react';
import type { UserProfile } from '../../shared/profile';

/**
 * What the shell needs from the signed-in session. The app wires it to the session of the sign-in feature
 * (useSession) and to the API client; the layout itself never reads tokens or storage.
 */
export interface ShellSession {
  profile: UserProfile;
  /** The user's train list (train_no), trimmed, upper-cased, de-duplicated. */
  trains: readonly string[];
  logout(): void;
  /** GET a JSON resource of the portal API with the session's credentials. */
  getJson(path: string, signal?: AbortSignal): Promise<unknown>;
  /** POST JSON to the portal API with the session's credentials; resolves with the response body. */
  postJson(path: string, body: unknown, signal?: AbortSignal): Promise<unknown>;
}

export const ShellSessionContext = createContext<ShellSession | null>(null);

export function useShellSession(): ShellSession {
  const s = useContext(ShellSessionContext);
  if (!s) throw new Error('useShellSession outside the signed-in shell');
  return s;
}

/** The code shown next to the user's name: lobby for lobby users, division for division users, else zone/office. */
export function unitCode(p: UserProfile): string {
  switch (p.userLevel) {
    case 'LA':
    case 'LU':
      return p.lobbyCode ?? p.divCode ?? '';
    case 'DA':
    case 'DU':
      return p.divCode ?? '';
    case 'ZA':
    case 'ZU':
      return p.rlyCode ?? '';
    default:
      return p.divCode ?? p.lobbyCode ?? p.offCode ?? p.rlyCode ?? '';
  }
}
