import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 成绩详情, both rounds, built by the review-pages helper (issue 11). */
export function PrelimScoreDetailPage() {
  return <AdminPlaceholderPage />;
}

export function FinalScoreDetailPage() {
  return <AdminPlaceholderPage />;
}
