import { Button } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Permission } from '../../../lib/permission';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { auditable } from './fields';
import { PRELIM_PATHS } from './paths';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_QUERY_KEYS, fetchPrelim } from './prelim-api';
import './preliminary.css';

/** 初赛详情 (/admin/preliminary/detail/:id): every field, files, counted characters, history, final-round state. */
export function PrelimDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const doc = useQuery({ queryKey: PRELIM_QUERY_KEYS.detail(id), queryFn: () => fetchPrelim(id), enabled: id !== '' });

  return (
    <RecordDetailShell query={doc} className="prelim-detail" testId="prelim-detail" loadFailed={t('pages.prelim.loadFailed')} reload={t('pages.prelim.reload')}>
      {(data) => (
        <PrelimDetailView
          doc={data}
          extra={
            auditable(data) && (
              <Permission codes={['preliminary:audit']}>
                <Button type="primary" icon={<AuditOutlined />} onClick={() => void navigate(PRELIM_PATHS.audit(id))} data-testid="detail-audit">
                  {t('pages.prelim.list.audit')}
                </Button>
              </Permission>
            )
          }
        />
      )}
    </RecordDetailShell>
  );
}
