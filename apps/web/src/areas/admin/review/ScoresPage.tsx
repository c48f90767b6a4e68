import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 成绩查询, both rounds, built by the review-pages helper (issue 11). */
export function PrelimScoresPage() {
  return <AdminPlaceholderPage />;
}

export function FinalScoresPage() {
  return <AdminPlaceholderPage />;
}
