import { createBrowserRouter, Navigate } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { NotFoundPage } from '../features/not-found/NotFoundPage';

/** The spec's route table (section 2). */
export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/notfound', element: <NotFoundPage /> },
  { path: '*', element: <Navigate to="/notfound" replace /> },
]);
