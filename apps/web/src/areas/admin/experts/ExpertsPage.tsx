import { AdminPlaceholderPage } from '../pages/AdminPlaceholderPage';

/** PLACEHOLDER: 专家库 (/admin/grade/database-expert), built by the experts helper (issue 11). */
export function ExpertsPage() {
  return <AdminPlaceholderPage />;
}
