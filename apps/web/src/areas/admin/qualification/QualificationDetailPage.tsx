import { AuditedDetailPage } from '../components/audited-submission';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_WORKFLOW } from './team-workflow';
import './qualification.css';

/** 资格详情 (/admin/competition/qualification-detail/:id): every field, files, history; 审核 while SUBMITTED. */
export function QualificationDetailPage() {
  return <AuditedDetailPage workflow={TEAM_WORKFLOW} view={(team, extra) => <TeamDetailView team={team} extra={extra} />} />;
}
