import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_QUERY_KEYS, fetchPrelimDraft } from './prelim-api';
import { useRemindPrelim } from './use-remind-prelim';
import './preliminary.css';

/** 初赛草稿详情 (/admin/preliminary/draft-detail/:id): the draft as saved, read-only, with a reminder. */
export function PrelimDraftDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const doc = useQuery({ queryKey: PRELIM_QUERY_KEYS.draft(id), queryFn: () => fetchPrelimDraft(id), enabled: id !== '' });
  const reminders = useRemindPrelim(() => void doc.refetch());

  return (
    <RecordDetailShell
      query={doc}
      className="prelim-detail"
      testId="prelim-draft-detail"
      loadFailed={t('pages.prelim.loadFailed')}
      reload={t('pages.prelim.reload')}
    >
      {(data) => <PrelimDetailView doc={data} extra={reminders.detailButton(data.id ?? id)} />}
    </RecordDetailShell>
  );
}
