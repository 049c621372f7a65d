import { Navigate } from 'react-router-dom';
import { AppLayout } from '../layout/AppLayout';
import { LayoutProvider } from '../layout/LayoutContext';
import { ShellSessionContext } from '../layout/shell-session';
import { AccessibilityPanel } from '../features/accessibility/AccessibilityPanel';
import { TrainStrip } from '../features/train-strip/TrainStrip';
import { FooterGame } from '../features/game/FooterGame';
import { SessionGuard } from '../features/auth/SessionGuard';
import { useSessionSource } from './session-source';
import { ShellSessionBridge } from './ShellSessionBridge';

/** /layout: the signed-in shell, composed from the layout and the shell's features. */
export function ShellRoute() {
  const session = useSessionSource();
  if (!session) return <Navigate to="/" replace />;
  return (
    <ShellSessionContext.Provider value={session}>
      <LayoutProvider>
        <AppLayout
          accessibility={<AccessibilityPanel />}
          trainStrip={<TrainStrip trains={session.trains} postJson={session.postJson} />}
          renderGame={(exit) => <FooterGame onExit={exit} />}
        />
      </LayoutProvider>
    </ShellSessionContext.Provider>
  );
}

/** The /layout route element: the session guard, then the shell on the signed-in session (a lazy chunk of its own). */
export function GuardedShellRoute() {
  return (
    <SessionGuard>
      <ShellSessionBridge>
        <ShellRoute />
      </ShellSessionBridge>
    </SessionGuard>
  );
}
