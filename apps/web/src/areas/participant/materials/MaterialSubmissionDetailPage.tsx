/** 材料详情 (/material-submission/detail): the preliminary materials, status, files and history. */
import { Alert, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type DictLabels, type PrelimDetail } from '@contest/shared';
import { AttachmentList, ContestStatusTag, StatusHistory, labelOf, useDictLabels } from '../../../components/contest';
import { CONTEST_QUERY_KEYS, fetchMyPrelim } from '../sign/contest-api';
import { prelimFormAllowed } from './materials-loader';
import { ResultCards } from '../results/ResultCards';
import '../sign/sign.css';

const EMPTY = '--';
const LABEL_TYPES = [TEAM_DICT_TYPES.track];

export function MaterialSubmissionDetailPage() {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  const doc = useQuery({ queryKey: CONTEST_QUERY_KEYS.prelim, queryFn: fetchMyPrelim });
  const labels = useDictLabels(LABEL_TYPES);

  if (doc.isError) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void doc.refetch()}>{t('common.reload')}</Button>}
      />
    );
  }
  if (!doc.isSuccess) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!doc.data || doc.data.status === 'NOT_FILLED') {
    return (
      <Result
        status="info"
        title={t('materials.noMaterials')}
        extra={
          <Button type="primary" onClick={() => void navigate('/material-submission')}>
            {t('materials.goSubmit')}
          </Button>
        }
        data-testid="materials-detail-empty"
      />
    );
  }
  return <PrelimView doc={doc.data} labels={labels.data} onEdit={() => void navigate('/material-submission')} />;
}

function PrelimView({ doc, labels, onEdit }: { doc: PrelimDetail; labels: DictLabels | undefined; onEdit(): void }) {
  const { t } = useTranslation('signup');
  const editable = doc.editable && prelimFormAllowed(doc.status);
  // No count without a file: the list already says 未上传, a "--" beside it would read 未上传--.
  const chars =
    doc.applicationChars === null
      ? null
      : doc.maxApplicationChars !== null
        ? t('materials.charsLimit', { count: doc.applicationChars, max: doc.maxApplicationChars })
        : t('materials.chars', { count: doc.applicationChars });

  return (
    <div className="contest-page contest-detail" data-testid="materials-detail">
      <div className="contest-page__head">
        <Typography.Title level={4} className="contest-page__title">
          {doc.projectName || t('materials.detailTitle')} <ContestStatusTag kind="prelim" status={doc.status} />
        </Typography.Title>
        {editable && (
          <Button type="primary" icon={<EditOutlined />} onClick={onEdit} data-testid="edit-materials">
            {t('common.edit')}
          </Button>
        )}
      </div>

      {doc.inFinal && (
        <Alert className="contest-page__alert" type="success" showIcon title={t('materials.inFinalTitle')} description={t('materials.inFinalText')} data-testid="in-final" />
      )}

      {/* 评审结果 of each published round (docs/rules/results.md), with the team's appeal. */}
      <ResultCards />

      {(doc.status === 'REVISING' || doc.status === 'REJECTED') && (
        <Alert
          className="contest-page__alert"
          type={doc.status === 'REVISING' ? 'warning' : 'error'}
          showIcon
          title={doc.status === 'REVISING' ? t('common.revisingTitle') : t('common.rejectedTitle')}
          description={doc.auditReason ? `${t('common.reason')}：${doc.auditReason}` : undefined}
          data-testid="audit-reason"
        />
      )}

      <Card size="small" className="contest-card" title={t('materials.sections.project')}>
        <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('materials.fields.projectName')}>{doc.projectName || EMPTY}</Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.track')}>{labelOf(labels, TEAM_DICT_TYPES.track, doc.track)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.teamName')}>{doc.teamName || EMPTY}</Descriptions.Item>
          <Descriptions.Item label={t('common.submittedAt')}>
            {doc.submittedAt ? dayjs(doc.submittedAt).format('YYYY-MM-DD HH:mm:ss') : EMPTY}
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.keywords')} span={2}>
            {doc.keywords.length > 0 ? (
              <Space size={[4, 4]} wrap>
                {doc.keywords.map((k) => (
                  <Tag key={k}>{k}</Tag>
                ))}
              </Space>
            ) : (
              EMPTY
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.summary')} span={2}>
            <span className="contest-history__reason">{doc.summary || EMPTY}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('materials.sections.files')}>
        <Descriptions column={1} size="small" layout="vertical">
          <Descriptions.Item label={t('materials.fields.application')}>
            <div>
              <AttachmentList files={[doc.application]} />
              {chars && (
                <Typography.Text type="secondary" data-testid="application-chars">
                  {chars}
                </Typography.Text>
              )}
            </div>
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.presentation')}>
            <AttachmentList files={[doc.presentation]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.video')}>
            <AttachmentList files={[doc.video]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('materials.fields.others')}>
            <AttachmentList files={doc.others} />
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('common.history')}>
        <StatusHistory kind="prelim" entries={doc.history} />
      </Card>
    </div>
  );
}
