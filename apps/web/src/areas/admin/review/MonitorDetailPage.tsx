import { Button, Space, Tag, Tooltip } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { MonitorExpertDetail, ReviewRound } from '@contest/shared';
import { DataTable, DetailLayout, type KitColumn } from '../../../components/admin-kit';
import { labelOf, useDictLabels } from '../../../components/contest';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { piiValue } from '../components/PiiText';
import { REVIEW_QUERY_KEYS, fetchMonitorExpert } from './review-api';
import { REVIEW_PATHS, TRACK_DICT, score, slugOf, useRoundAccess, type RoundProps } from './round';
import { SheetStatusTag } from './SheetStatusTag';
import { useExpertRemind } from './use-expert-remind';
import '../admin-pages.css';
import './review.css';

type ProjectRow = MonitorExpertDetail['projects'][number];

/** 评分监控详情 (both rounds): one expert's figures and every project they score, with its sheet's state; 提醒. */
export function MonitorDetailPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const { id = '' } = useParams();
  const slug = slugOf(round);
  const access = useRoundAccess(round);
  const paths = REVIEW_PATHS[round];
  const labels = useDictLabels([TRACK_DICT]);
  const { remind, busy } = useExpertRemind(round);
  const detail = useQuery({ queryKey: REVIEW_QUERY_KEYS.monitorExpert(slug, id), queryFn: () => fetchMonitorExpert(slug, id), enabled: id !== '' });

  const columns: KitColumn<ProjectRow>[] = [
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      render: (name: string, row) => (
        <Space size={4} wrap>
          <Link to={paths.score(row.id)} className="review-link">
            {name || t('common.untitled')}
          </Link>
          {row.extra && (
            <Tag color="purple" data-testid="extra-tag">
              {t('common.extra')}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels.data, TRACK_DICT, code) },
    { title: t('common.group'), dataIndex: 'groupName' },
    { title: t('common.status'), dataIndex: 'status', render: (status: ProjectRow['status']) => <SheetStatusTag status={status} /> },
    { title: t('common.total'), dataIndex: 'total', align: 'right', render: (value: number | null) => (value === null ? null : score(value)) },
    { title: t('common.updatedAt'), dataIndex: 'updatedAt', dateTime: true },
    { title: t('common.submittedAt'), dataIndex: 'submittedAt', dateTime: true },
  ];

  return (
    <RecordDetailShell query={detail} className="review-page review-detail" testId="monitor-detail-page" loadFailed={t('monitor.loadFailed')} reload={t('common.reload')}>
      {(data) => {
        const e = data.expert;
        const remindButton = access.remind && e.remaining > 0 && (
          <Tooltip title={e.remindedToday ? t('monitor.remindedTodayHint') : undefined}>
            <Button
              icon={<BellOutlined />}
              disabled={e.remindedToday}
              loading={busy !== null}
              onClick={() => void remind({ expertIds: [e.expertId] }, e.expertId)}
              data-testid="detail-remind"
            >
              {t('monitor.remind')}
            </Button>
          </Tooltip>
        );
        return (
          <DetailLayout
            title={`${e.code} ${e.name}`}
            status={e.remindedToday ? <Tag color="blue">{t('monitor.remindedTag')}</Tag> : undefined}
            extra={remindButton || undefined}
            sections={[
              {
                key: 'expert',
                title: t('monitor.expertInfo'),
                items: [
                  { label: t('common.expertCode'), value: e.code },
                  { label: t('common.expertName'), value: e.name },
                  // Masked; the eye shows it in full (pii:view), to call the expert.
                  { label: t('monitor.phone'), value: piiValue('expert', e.expertId, 'phone', e.phone) },
                  { label: t('common.org'), value: e.organization },
                  { label: t('common.group'), value: e.groupName },
                  { label: t('monitor.lastActivity'), value: e.lastActivityAt, dateTime: true },
                ],
              },
              {
                key: 'figures',
                title: t('monitor.figures'),
                columns: 3,
                items: [
                  { label: t('monitor.assigned'), value: String(e.assigned) },
                  { label: t('monitor.submitted'), value: String(e.submitted) },
                  { label: t('monitor.draft'), value: String(e.draft) },
                  { label: t('monitor.returned'), value: String(e.returned) },
                  { label: t('monitor.remaining'), value: String(e.remaining) },
                ],
              },
              {
                key: 'projects',
                title: t('monitor.projects', { count: data.projects.length }),
                content: <DataTable<ProjectRow> rowKey="id" columns={columns} dataSource={data.projects} />,
              },
            ]}
          />
        );
      }}
    </RecordDetailShell>
  );
}

export function PrelimMonitorDetailPage() {
  return <MonitorDetailPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalMonitorDetailPage() {
  return <MonitorDetailPage round={'FINAL' satisfies ReviewRound} />;
}
