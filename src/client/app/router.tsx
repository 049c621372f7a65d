import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { SessionGuard } from '../features/auth/SessionGuard';
import { NotFoundPage } from '../features/not-found/NotFoundPage';
import { SessionProvider, useSession } from '../lib/session';

/** Placeholder of the signed-in shell (replaced by src/client/layout): who is signed in, trains, Logout. */
function LayoutPlaceholder() {
  const { profile, trains, logout } = useSession();
  return (
    <main>
      <header>
        <strong data-testid="profile-name">{profile?.name}</strong> <span data-testid="profile-designation">{profile?.designation}</span>{' '}
        <span data-testid="profile-code">{profile?.divCode ?? profile?.lobbyCode ?? profile?.rlyCode ?? profile?.userLevel}</span>
        <button type="button" onClick={() => void logout()}>
          Logout
        </button>
      </header>
      <p data-testid="train-count">{trains.length} trains</p>
      <Outlet />
    </main>
  );
}

/** The spec's route table (section 2). SessionProvider sits inside the router: it navigates on session end. */
export const router = createBrowserRouter([
  {
    element: (
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    ),
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { path: '/login', element: <LoginPage /> },
      {
        path: '/layout',
        element: (
          <SessionGuard>
            <LayoutPlaceholder />
          </SessionGuard>
        ),
        children: [
          { index: true, element: <Navigate to="dashboard" replace /> },
          // extras: dashboard, devices, feedback, Whats New (lazy)
          { path: 'dashboard', lazy: async () => ({ Component: (await import('../features/dashboard/DashboardPage')).DashboardPage }) },
          { path: 'utilities/devices', lazy: async () => ({ Component: (await import('../features/devices/DevicesPage')).DevicesPage }) },
          { path: 'uikit/feedbackform', lazy: async () => ({ Component: (await import('../features/feedback/FeedbackPage')).FeedbackPage }) },
          { path: 'uikit/whatsnew', lazy: async () => ({ Component: (await import('../features/whats-new/WhatsNewPage')).WhatsNewPage }) },
          { path: '*', element: <h2>Coming soon</h2> },
        ],
      },
      { path: '/notfound', element: <NotFoundPage /> },
      { path: '*', element: <Navigate to="/notfound" replace /> },
    ],
  },
]);
