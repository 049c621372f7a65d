import { useEffect, useState, type ReactNode } from 'react';
import { ProgressSpinner } from 'primereact/progressspinner';
import { useTranslation } from 'react-i18next';
import { guardLogout, useSession } from '../../lib/session';
import { SessionEndedError } from '../../lib/api';

/**
 * Guard of /layout/* (spec section 4): the route is allowed only if the profile fetch succeeds and the encrypted
 * profile decrypts; otherwise logout with 'Session Expired, Please login again' and go to the root path.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { verify } = useSession();
  const [state, setState] = useState<'checking' | 'allowed' | 'refused'>('checking');

  useEffect(() => {
    let live = true;
    verify()
      .then((ok) => {
        if (!live) return;
        if (ok) setState('allowed');
        else {
          setState('refused');
          guardLogout();
        }
      })
      .catch((err: unknown) => {
        if (!live) return;
        setState('refused');
        if (!(err instanceof SessionEndedError)) guardLogout(); // the client already ended it otherwise
      });
    return () => {
      live = false;
    };
  }, [verify]);

  if (state === 'allowed') return <>{children}</>;
  return (
    <div role="status" aria-live="polite" style={{ display: 'flex', justifyContent: 'center', padding: '3rem' }}>
      <ProgressSpinner style={{ width: '48px', height: '48px' }} aria-label={t('auth.checkingSession')} />
    </div>
  );
}
