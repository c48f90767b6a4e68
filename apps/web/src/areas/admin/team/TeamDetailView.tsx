import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type TeamAdminDetail, type TeamMember } from '@contest/shared';
import { DataTable, DetailLayout, type DetailSection } from '../../../components/admin-kit';
import { ContestStatusTag, labelOf, useDictLabels } from '../../../components/contest';
import { piiValue } from '../components/PiiText';

const MEMBER_DICTS = [TEAM_DICT_TYPES.title, TEAM_DICT_TYPES.role];

/** Every field of a sign-up (organisation, leader, members, advisor), its files and history. */
export function TeamDetailView({ team, extra, alert }: { team: TeamAdminDetail; extra?: ReactNode; alert?: ReactNode }) {
  const { t } = useTranslation('admin');
  const labels = useDictLabels(MEMBER_DICTS);
  const D = TEAM_DICT_TYPES;
  // Phones, e-mails and the credit code come masked; the eye shows them in full (pii:view).
  const pii = (path: string, value: string | null | undefined) => piiValue('team', team.id, path, value);

  const sections: DetailSection[] = [
    {
      key: 'org',
      title: t('pages.qualification.sections.org'),
      items: [
        { label: t('pages.qualification.fields.orgName'), value: team.orgName },
        { label: t('pages.qualification.fields.orgType'), value: team.orgType, dict: D.orgType },
        { label: t('pages.qualification.fields.creditCode'), value: pii('creditCode', team.creditCode) },
        {
          label: t('pages.qualification.fields.region'),
          value: team.region,
          dict: D.region,
          render: (region) => [region, team.city].filter((x) => typeof x === 'string' && x !== '').join(' '),
        },
        { label: t('pages.qualification.fields.track'), value: team.track, dict: D.track },
        { label: t('pages.qualification.fields.teamName'), value: team.teamName },
        {
          label: t('pages.qualification.fields.account'),
          value: team.owner ? (
            <>
              {team.owner.username}
              {team.owner.phone && <> / {pii('owner.phone', team.owner.phone)}</>}
            </>
          ) : null,
        },
        { label: t('pages.qualification.fields.createdAt'), value: team.createdAt, dateTime: true },
        { label: t('pages.qualification.fields.submittedAt'), value: team.submittedAt, dateTime: true },
        { label: t('pages.qualification.fields.auditedAt'), value: team.auditedAt, dateTime: true },
        { label: t('pages.qualification.fields.auditReason'), value: team.auditReason, span: 2 },
      ],
    },
    {
      key: 'leader',
      title: t('pages.qualification.sections.leader'),
      items: [
        { label: t('pages.qualification.fields.name'), value: team.leader?.name },
        { label: t('pages.qualification.fields.title'), value: team.leader?.title, dict: D.title },
        { label: t('pages.qualification.fields.phone'), value: pii('leader.phone', team.leader?.phone) },
        { label: t('pages.qualification.fields.email'), value: pii('leader.email', team.leader?.email) },
      ],
    },
    {
      key: 'members',
      title: t('pages.qualification.sections.members'),
      content: (
        <DataTable<TeamMember & { key: number }>
          size="small"
          scroll={{ x: 'max-content' }}
          dataSource={team.members.map((m, key) => ({ ...m, key }))}
          columns={[
            { title: t('pages.qualification.fields.name'), dataIndex: 'name' },
            { title: t('pages.qualification.fields.organization'), dataIndex: 'organization' },
            { title: t('pages.qualification.fields.title'), dataIndex: 'title', render: (code: string) => (code ? labelOf(labels.data, D.title, code) : null) },
            { title: t('pages.qualification.fields.role'), dataIndex: 'role', render: (code: string) => (code ? labelOf(labels.data, D.role, code) : null) },
            { title: t('pages.qualification.fields.phone'), dataIndex: 'phone', render: (v: string, row) => pii(`members.${row.key}.phone`, v) },
            { title: t('pages.qualification.fields.email'), dataIndex: 'email', render: (v: string, row) => pii(`members.${row.key}.email`, v) },
          ]}
        />
      ),
    },
    team.advisor
      ? {
          key: 'advisor',
          title: t('pages.qualification.sections.advisor'),
          items: [
            { label: t('pages.qualification.fields.name'), value: team.advisor.name },
            { label: t('pages.qualification.fields.organization'), value: team.advisor.organization },
            { label: t('pages.qualification.fields.title'), value: team.advisor.title, dict: D.title },
            { label: t('pages.qualification.fields.phone'), value: pii('advisor.phone', team.advisor.phone) },
            { label: t('pages.qualification.fields.email'), value: pii('advisor.email', team.advisor.email) },
          ],
        }
      : { key: 'advisor', title: t('pages.qualification.sections.advisor'), content: t('pages.qualification.noAdvisor') },
  ];

  return (
    <DetailLayout
      title={team.teamName || t('pages.qualification.untitled')}
      status={<ContestStatusTag kind="team" status={team.status} />}
      extra={extra}
      alert={alert}
      sections={sections}
      attachments={[
        { label: t('pages.qualification.fields.certificate'), files: [team.certificate] },
        { label: t('pages.qualification.fields.commitment'), files: [team.commitment] },
        { label: t('pages.qualification.fields.recommendation'), files: [team.recommendation] },
      ]}
      history={{ kind: 'team', entries: team.history }}
    />
  );
}
