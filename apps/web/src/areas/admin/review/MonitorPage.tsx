import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 评分监控, both rounds, built by the review-pages helper (issue 11). */
export function PrelimMonitorPage() {
  return <AdminPlaceholderPage />;
}

export function FinalMonitorPage() {
  return <AdminPlaceholderPage />;
}
