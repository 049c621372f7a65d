import { createBrowserRouter, Navigate, Outlet, ScrollRestoration } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { SessionProvider } from '../lib/session';
import { loadAppTexts } from '../i18n';

/** Every route: scroll positions are restored on back/forward (anchor scrolling lives in the layout). */
function Root() {
  return (
    <SessionProvider>
      <ScrollRestoration />
      <Outlet />
    </SessionProvider>
  );
}

const placeholders = () => import('../features/dashboard-placeholder/pages');

/**
 * The spec's route table (section 2). SessionProvider sits inside the router: it navigates on session end.
 * Only the login screen is in the entry chunk; the signed-in shell and every page load when first visited, with
 * their texts (loadAppTexts), so the first load of /login stays small.
 */
export const router = createBrowserRouter([
  {
    element: <Root />,
    HydrateFallback: () => null,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { path: '/login', element: <LoginPage /> },
      {
        path: '/layout',
        lazy: async () => {
          const [shell] = await Promise.all([import('./ShellRoute'), loadAppTexts()]);
          return { Component: shell.GuardedShellRoute };
        },
        children: [
          { index: true, element: <Navigate to="dashboard" replace /> },
          { path: 'dashboard', lazy: async () => ({ Component: (await import('./DashboardRoute')).DashboardRoute }) },
          {
            path: 'uikit',
            children: [
              { index: true, element: <Navigate to="/layout/dashboard" replace /> },
              { path: 'feedbackform', lazy: async () => ({ Component: (await import('../features/feedback/FeedbackPage')).FeedbackPage }) },
              { path: 'whatsnew', lazy: async () => ({ Component: (await import('../features/whats-new/WhatsNewPage')).WhatsNewPage }) },
              { path: 'devices', lazy: async () => ({ Component: (await import('../features/devices/DevicesPage')).DevicesPage }) },
              { path: 'subscriptions', lazy: async () => ({ Component: (await import('../features/subscriptions/SubscriptionsPage')).SubscriptionsPage }) },
              { path: 'myviews', lazy: async () => ({ Component: (await import('../features/saved-views/MyViewsPage')).MyViewsPage }) },
              { path: ':reportId', lazy: async () => ({ Component: (await import('./ReportRoute')).ReportRoute }) },
            ],
          },
          // The Devices page moved into the menu (UTILITIES); links saved at its old address still open it.
          { path: 'utilities/devices', element: <Navigate to="/layout/uikit/devices" replace /> },
          { path: 'utilities/*', lazy: async () => ({ Component: (await placeholders()).UtilitiesPage }) },
        ],
      },
      // Authentication area: its contents are not part of the spec; it leads to the login screen.
      { path: '/auth/*', element: <Navigate to="/login" replace /> },
      {
        path: '/notfound',
        lazy: async () => {
          const [page] = await Promise.all([import('../features/not-found/NotFoundPage'), loadAppTexts()]);
          return { Component: page.NotFoundPage };
        },
      },
      { path: '*', element: <Navigate to="/notfound" replace /> },
    ],
  },
]);
