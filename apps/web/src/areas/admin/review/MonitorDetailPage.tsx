import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 评分监控详情, both rounds, built by the review-pages helper (issue 11). */
export function PrelimMonitorDetailPage() {
  return <AdminPlaceholderPage />;
}

export function FinalMonitorDetailPage() {
  return <AdminPlaceholderPage />;
}
