import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { NotFoundPage } from '../features/not-found/NotFoundPage';

/** The spec's route table (section 2). */
export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  {
    path: '/layout',
    element: <Outlet />,
    children: [
      // extras: dashboard, devices, feedback, Whats New (lazy; the shell renders them inside the layout)
      { path: 'dashboard', lazy: async () => ({ Component: (await import('../features/dashboard/DashboardPage')).DashboardPage }) },
      { path: 'utilities/devices', lazy: async () => ({ Component: (await import('../features/devices/DevicesPage')).DevicesPage }) },
      { path: 'uikit/feedbackform', lazy: async () => ({ Component: (await import('../features/feedback/FeedbackPage')).FeedbackPage }) },
      { path: 'uikit/whatsnew', lazy: async () => ({ Component: (await import('../features/whats-new/WhatsNewPage')).WhatsNewPage }) },
    ],
  },
  { path: '/notfound', element: <NotFoundPage /> },
  { path: '*', element: <Navigate to="/notfound" replace /> },
]);
