import { useTranslation } from 'react-i18next';
import { DraftDetailPage } from '../components/audited-submission';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_AUDIT } from './team-audit';
import './team.css';

/** 报名草稿详情 (/admin/competition/qualification-draft/:id): the draft as saved, read-only. */
export function TeamDraftDetailPage() {
  const { t } = useTranslation('admin');
  return (
    <DraftDetailPage
      workflow={TEAM_AUDIT}
      view={(team, extra) => {
        const reminded = team.lastRemindedOn && t('pages.qualificationDraft.lastRemindedLine', { day: team.lastRemindedOn });
        return <TeamDetailView team={team} extra={extra} alert={reminded ? <div className="qualification-detail__note">{reminded}</div> : null} />;
      }}
    />
  );
}
