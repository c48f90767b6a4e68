import { AuditedDetailPage } from '../components/audited-submission';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_AUDIT } from './team-audit';
import './team.css';

/** 资格详情 (/admin/competition/qualification-detail/:id): every field, files, history; 审核 while SUBMITTED. */
export function TeamDetailPage() {
  return <AuditedDetailPage workflow={TEAM_AUDIT} view={(team, extra) => <TeamDetailView team={team} extra={extra} />} />;
}
