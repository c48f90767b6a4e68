import { Alert, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type ExpertProjectDetail, type TeamMember } from '@contest/shared';
import { DataTable, DetailLayout, type DetailSection } from '../../../components/admin-kit';
import { labelOf, useDictLabels } from '../../../components/contest';
import { ReviewFiles } from './ReviewFiles';

const DICT_TYPES = [TEAM_DICT_TYPES.title, TEAM_DICT_TYPES.role];

/**
 * What the expert reviews: the project, its files and, unless the review is blind, the team.
 * Contacts (phones, e-mails) are never shown: experts do not get in touch with teams.
 */
export function ReviewMaterials({ detail, watermark }: { detail: ExpertProjectDetail; watermark: string | null }) {
  const { t } = useTranslation('expert');
  const team = detail.blind ? null : detail.team;
  const labels = useDictLabels(DICT_TYPES, team !== null);
  const dict = (type: string, code: string | null | undefined) => (code ? labelOf(labels.data, type, code) : null);
  const person = (name: string | undefined, title: string | undefined, org?: string) =>
    name ? [name, dict(TEAM_DICT_TYPES.title, title), org].filter(Boolean).join(' · ') : null;

  const project: DetailSection = {
    key: 'project',
    title: t('detail.sections.project'),
    items: [
      { label: t('detail.fields.projectName'), value: detail.projectName },
      { label: t('detail.fields.track'), value: detail.track, dict: TEAM_DICT_TYPES.track },
      {
        label: t('detail.fields.keywords'),
        span: 2,
        value:
          detail.keywords.length > 0 ? (
            <Space size={[4, 4]} wrap>
              {detail.keywords.map((k) => (
                <Tag key={k}>{k}</Tag>
              ))}
            </Space>
          ) : null,
      },
      { label: t('detail.fields.summary'), value: detail.summary, span: 2 },
    ],
  };
  const files: DetailSection = {
    key: 'files',
    title: t('detail.sections.files'),
    content: <ReviewFiles detail={detail} watermark={watermark} />,
  };
  const teamSection: DetailSection = team
    ? {
        key: 'team',
        title: t('detail.sections.team'),
        items: [
          { label: t('detail.team.orgName'), value: team.orgName },
          { label: t('detail.team.teamName'), value: team.teamName },
          { label: t('detail.team.leader'), value: person(team.leader?.name, team.leader?.title) },
          { label: t('detail.team.advisor'), value: person(team.advisor?.name, team.advisor?.title, team.advisor?.organization) },
        ],
        content: (
          <div className="expert-team__members">
            <h3 className="expert-team__members-title">{t('detail.team.members')}</h3>
            <DataTable<Omit<TeamMember, 'phone' | 'email'> & { key: number }>
              size="small"
              rowKey="key"
              dataSource={team.members.map((m, key) => ({ ...m, key }))}
              columns={[
                { title: t('detail.team.memberName'), dataIndex: 'name' },
                { title: t('detail.team.memberOrg'), dataIndex: 'organization' },
                { title: t('detail.team.memberTitle'), dataIndex: 'title', render: (code: string) => dict(TEAM_DICT_TYPES.title, code) },
                { title: t('detail.team.memberRole'), dataIndex: 'role', render: (code: string) => dict(TEAM_DICT_TYPES.role, code) },
              ]}
            />
          </div>
        ),
      }
    : {
        key: 'team',
        title: t('detail.sections.team'),
        content: <Alert type="info" showIcon title={t('detail.blind')} data-testid="blind-note" />,
      };

  return <DetailLayout sections={[project, files, teamSection]} />;
}
