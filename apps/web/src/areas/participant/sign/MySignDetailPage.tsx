/** 报名详情 (/my-sign/detail): the team as submitted, its status, files and audit history. */
import { Alert, Button, Card, Descriptions, Result, Skeleton, Table, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, teamEditable, type DictLabels, type TeamDetail, type TeamMember } from '@contest/shared';
import { AttachmentList, ContestStatusTag, StatusHistory, labelOf, useDictLabels } from '../../../components/contest';
import { CONTEST_QUERY_KEYS, fetchMyTeam } from './contest-api';
import './sign.css';

const EMPTY = '--';
const LABEL_TYPES = Object.values(TEAM_DICT_TYPES);

const text = (value: string | null | undefined) => (value ? value : EMPTY);

export function MySignDetailPage() {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  const team = useQuery({ queryKey: CONTEST_QUERY_KEYS.team, queryFn: fetchMyTeam });
  const labels = useDictLabels(LABEL_TYPES);

  if (team.isError) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void team.refetch()}>{t('common.reload')}</Button>}
      />
    );
  }
  if (!team.isSuccess) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!team.data) {
    return (
      <Result
        status="info"
        title={t('sign.noTeam')}
        extra={
          <Button type="primary" onClick={() => void navigate('/my-sign')}>
            {t('sign.goSign')}
          </Button>
        }
        data-testid="sign-detail-empty"
      />
    );
  }
  return <TeamView team={team.data} labels={labels.data} onEdit={() => void navigate('/my-sign')} />;
}

function TeamView({ team, labels, onEdit }: { team: TeamDetail; labels: DictLabels | undefined; onEdit(): void }) {
  const { t } = useTranslation('signup');
  const label = (type: string, code: string | null | undefined) => labelOf(labels, type, code);
  const editable = team.editable && teamEditable(team.status);
  const column = { xs: 1, sm: 1, md: 2 } as const;

  return (
    <div className="contest-page contest-detail" data-testid="sign-detail">
      <div className="contest-page__head">
        <Typography.Title level={4} className="contest-page__title">
          {team.teamName || t('sign.detailTitle')} <ContestStatusTag kind="team" status={team.status} />
        </Typography.Title>
        {editable && (
          <Button type="primary" icon={<EditOutlined />} onClick={onEdit} data-testid="edit-sign">
            {t('common.edit')}
          </Button>
        )}
      </div>

      {(team.status === 'REVISING' || team.status === 'REJECTED') && (
        <Alert
          className="contest-page__alert"
          type={team.status === 'REVISING' ? 'warning' : 'error'}
          showIcon
          title={team.status === 'REVISING' ? t('common.revisingTitle') : t('common.rejectedTitle')}
          description={team.auditReason ? `${t('common.reason')}：${team.auditReason}` : undefined}
          data-testid="audit-reason"
        />
      )}

      <Card size="small" className="contest-card" title={t('sign.sections.org')}>
        <Descriptions column={column} size="small">
          <Descriptions.Item label={t('sign.fields.orgName')}>{text(team.orgName)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.orgType')}>{label(TEAM_DICT_TYPES.orgType, team.orgType)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.creditCode')}>{text(team.creditCode)}</Descriptions.Item>
          <Descriptions.Item label={`${t('sign.fields.region')} / ${t('sign.fields.city')}`}>
            {label(TEAM_DICT_TYPES.region, team.region)} {team.city}
          </Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.track')}>{label(TEAM_DICT_TYPES.track, team.track)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.teamName')}>{text(team.teamName)}</Descriptions.Item>
          <Descriptions.Item label={t('common.submittedAt')}>
            {team.submittedAt ? dayjs(team.submittedAt).format('YYYY-MM-DD HH:mm:ss') : EMPTY}
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('sign.sections.leader')}>
        <Descriptions column={column} size="small">
          <Descriptions.Item label={t('sign.fields.name')}>{text(team.leader?.name)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.title')}>{label(TEAM_DICT_TYPES.title, team.leader?.title)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.phone')}>{text(team.leader?.phone)}</Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.email')}>{text(team.leader?.email)}</Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('sign.sections.members')}>
        <Table<TeamMember & { key: number }>
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={team.members.map((m, key) => ({ ...m, key }))}
          columns={[
            { title: t('sign.fields.name'), dataIndex: 'name', render: text },
            { title: t('sign.fields.organization'), dataIndex: 'organization', render: text },
            { title: t('sign.fields.title'), dataIndex: 'title', render: (code: string) => label(TEAM_DICT_TYPES.title, code) },
            { title: t('sign.fields.role'), dataIndex: 'role', render: (code: string) => label(TEAM_DICT_TYPES.role, code) },
            { title: t('sign.fields.phone'), dataIndex: 'phone', render: text },
            { title: t('sign.fields.email'), dataIndex: 'email', render: text },
          ]}
        />
      </Card>

      {team.advisor && (
        <Card size="small" className="contest-card" title={t('sign.sections.advisor')}>
          <Descriptions column={column} size="small">
            <Descriptions.Item label={t('sign.fields.name')}>{text(team.advisor.name)}</Descriptions.Item>
            <Descriptions.Item label={t('sign.fields.organization')}>{text(team.advisor.organization)}</Descriptions.Item>
            <Descriptions.Item label={t('sign.fields.title')}>{label(TEAM_DICT_TYPES.title, team.advisor.title)}</Descriptions.Item>
            <Descriptions.Item label={t('sign.fields.phone')}>{text(team.advisor.phone)}</Descriptions.Item>
            <Descriptions.Item label={t('sign.fields.email')}>{text(team.advisor.email)}</Descriptions.Item>
          </Descriptions>
        </Card>
      )}

      <Card size="small" className="contest-card" title={t('sign.sections.files')}>
        <Descriptions column={1} size="small" layout="vertical">
          <Descriptions.Item label={t('sign.fields.certificate')}>
            <AttachmentList files={[team.certificate]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.commitment')}>
            <AttachmentList files={[team.commitment]} />
          </Descriptions.Item>
          <Descriptions.Item label={t('sign.fields.recommendation')}>
            <AttachmentList files={[team.recommendation]} />
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card size="small" className="contest-card" title={t('common.history')}>
        <StatusHistory kind="team" entries={team.history} />
      </Card>
    </div>
  );
}
