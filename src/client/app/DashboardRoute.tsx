import { DashboardPage } from '../features/dashboard/DashboardPage';
import { SubscribeButton } from '../features/subscriptions/SubscribeButton';

/** /layout/dashboard: the dashboard, with "E-mail me the dashboard" (a PDF of its cards). */
export function DashboardRoute() {
  return <DashboardPage actions={<SubscribeButton target="dashboard" />} />;
}
