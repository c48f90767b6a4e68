import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 初赛评审分组 / 决赛评审分组, both rounds, built by the review-pages helper (issue 11). */
export function PrelimGroupsPage() {
  return <AdminPlaceholderPage />;
}

export function FinalGroupsPage() {
  return <AdminPlaceholderPage />;
}
