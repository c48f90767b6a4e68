/** 报名详情 (/my-sign/detail): the team as submitted, its status, files and audit history. */
import { Card, Descriptions, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, teamEditable, type DictLabels, type TeamDetail, type TeamMember } from '@contest/shared';
import { AttachmentList, labelOf, useDictLabels } from '../../../components/contest';
import { EMPTY, SubmissionDetail, dateTimeText } from '../components/SubmissionDetail';
import { GoElsewhere, SubmissionLoad } from '../components/SubmissionLoad';
import { TEAM_FLOW } from './team-flow';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';
import './team.css';

const LABEL_TYPES = Object.values(TEAM_DICT_TYPES);

const text = (value: string | null | undefined) => (value ? value : EMPTY);

export function MyTeamDetailPage() {
  const { t } = useTranslation('signup');
  const labels = useDictLabels(LABEL_TYPES);
  return (
    <>
      <HiddenPageHeading />
      <SubmissionLoad flow={TEAM_FLOW}>
        {(team) =>
          team ? (
            <TeamView team={team} labels={labels.data} />
          ) : (
            <GoElsewhere title={t('sign.noTeam')} label={t('sign.goSign')} to="/my-sign" testId="sign-detail-empty" />
          )
        }
      </SubmissionLoad>
    </>
  );
}

function TeamView({ team, labels }: { team: TeamDetail; labels: DictLabels | undefined }) {
  const { t } = useTranslation('signup');
  const label = (type: string, code: string | null | undefined) => labelOf(labels, type, code);
  const column = { xs: 1, sm: 1, md: 2 } as const;

  return (
    <SubmissionDetail flow={TEAM_FLOW} record={team} name={team.teamName} formAllowed={teamEditable(team.status)}>
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
            {dateTimeText(team.submittedAt)}
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
    </SubmissionDetail>
  );
}
