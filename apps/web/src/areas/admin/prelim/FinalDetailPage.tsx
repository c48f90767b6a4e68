import { useState } from 'react';
import { Button } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { PrelimAdminDetail } from '@contest/shared';
import { isStale } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_QUERY_KEYS, addToFinal, fetchFinal, removeFromFinal } from './prelim-api';
import { ReasonDialog } from './ReasonDialog';
import './prelim.css';

/**
 * 决赛详情 (/admin/preliminary-admin/detail/:id, id = the materials'): the materials plus how they
 * entered the final (reason, time) and the final-round history; remove (or add back) with a reason.
 */
export function FinalDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const [changing, setChanging] = useState(false);
  const doc = useQuery({ queryKey: PRELIM_QUERY_KEYS.final(id), queryFn: () => fetchFinal(id), enabled: id !== '' });

  const body = (data: PrelimAdminDetail) => {
    const inFinal = data.final?.status === 'IN';
    // Only materials that passed the formal check may (re-)enter the final.
    const canAdd = !inFinal && data.status === 'APPROVED';

    const change = async (reason: string) => {
      const body = { reason, ...(data.final ? { version: data.final.version } : {}) };
      const refresh = () => void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.all });
      try {
        await (inFinal ? removeFromFinal(id, body) : addToFinal(id, body));
      } catch (error) {
        if (!isStale(error)) throw error;
        // Someone changed the entry meanwhile: say so and show it as it is now.
        void message.warning((error as Error).message);
        refresh();
        return;
      }
      void message.success(t(inFinal ? 'pages.prelim.final.removed' : 'pages.prelim.final.added'));
      refresh();
    };

    return (
      <>
        <PrelimDetailView
          doc={data}
          finalFirst
          extra={
            (inFinal || canAdd) && (
              <Permission codes={['final:promote']}>
                <Button
                  danger={inFinal}
                  icon={inFinal ? <MinusCircleOutlined /> : <PlusOutlined />}
                  onClick={() => setChanging(true)}
                  data-testid={inFinal ? 'detail-remove' : 'detail-add'}
                >
                  {inFinal ? t('pages.prelim.final.remove') : t('pages.prelim.final.add')}
                </Button>
              </Permission>
            )
          }
        />
        <ReasonDialog
          open={changing}
          title={inFinal ? t('pages.prelim.final.removeTitle') : t('pages.prelim.final.addTitle')}
          onClose={() => setChanging(false)}
          onSubmit={change}
        >
          <p>{t(inFinal ? 'pages.prelim.final.removeOf' : 'pages.prelim.final.addOf', { name: data.projectName || t('pages.prelim.untitled') })}</p>
        </ReasonDialog>
      </>
    );
  };

  return (
    <RecordDetailShell query={doc} className="prelim-detail" testId="final-detail" loadFailed={t('pages.prelim.loadFailed')} reload={t('pages.prelim.reload')}>
      {body}
    </RecordDetailShell>
  );
}
