import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { useRemindDrafts } from './use-remind-drafts';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_QUERY_KEYS, fetchDraft } from './team-api';
import './qualification.css';

/** 报名草稿详情 (/admin/competition/qualification-draft/:id): the draft as saved, read-only. */
export function QualificationDraftDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const team = useQuery({ queryKey: TEAM_QUERY_KEYS.draft(id), queryFn: () => fetchDraft(id), enabled: id !== '' });
  const reminders = useRemindDrafts(() => void team.refetch());

  return (
    <RecordDetailShell
      query={team}
      className="qualification-detail"
      testId="qualification-draft-detail"
      loadFailed={t('pages.qualification.loadFailed')}
      reload={t('pages.qualification.reload')}
    >
      {(data) => (
        <TeamDetailView
          team={data}
          extra={reminders.detailButton(data.id)}
          alert={
            data.lastRemindedOn ? (
              <div className="qualification-detail__note">{t('pages.qualificationDraft.lastRemindedLine', { day: data.lastRemindedOn })}</div>
            ) : null
          }
        />
      )}
    </RecordDetailShell>
  );
}
