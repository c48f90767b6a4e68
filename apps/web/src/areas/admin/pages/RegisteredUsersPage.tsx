import { useState } from 'react';
import { Button, Descriptions, Space, Spin } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, USER_TEAM_STATUS_FILTERS, type RegisteredUser } from '@contest/shared';
import { ExportButton, SearchTable, beijingTitle, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { LabelValue } from '../../../components/admin-kit/LabelValue';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { ContestStatusTag, labelOf, useDictLabels } from '../../../components/contest';
import { Permission } from '../../../lib/permission';
import {
  ADMIN_QUERY_KEYS,
  fetchUser,
  fetchUsers,
  formatDateTime,
  resetUserPassword,
  setUserEnabled,
} from '../admin-api';
import { PasswordOnceDialog } from '../components/PasswordOnceDialog';
import { piiValue } from '../components/PiiText';
import { StatusTag } from '../components/StatusTag';
import { useAccountActions } from '../components/use-account-actions';

/** The filters of /admin/user/list and /admin/user/export; the registration range is sent as from/to dates. */
const USER_FIELDS: SearchField[] = [
  { name: 'username', label: 'pages.fields.username', kind: 'text' },
  { name: 'phone', label: 'pages.fields.phone', kind: 'text' },
  { name: 'orgName', label: 'pages.users.orgName', kind: 'text' },
  {
    name: 'teamStatus',
    label: 'pages.users.teamStatus',
    kind: 'select',
    width: 140,
    options: USER_TEAM_STATUS_FILTERS.map((value) => ({
      value,
      label: value === 'NONE' ? 'pages.users.noTeam' : `files:contest.teamStatus.${value}`,
    })),
  },
  {
    name: 'enabled',
    label: 'pages.fields.status',
    kind: 'select',
    width: 120,
    options: [
      { value: 'true', label: 'pages.common.enabled' },
      { value: 'false', label: 'pages.common.disabled' },
    ],
  },
  { name: 'registered', label: 'pages.fields.createdAt', kind: 'dateRange', fromName: 'from', toName: 'to' },
];

/** Two label/value columns, one on a phone (two leave a date-time a word per line there). */
const DETAIL_COLUMNS = { xs: 1, sm: 2 } as const;

/** Dictionaries whose codes the team columns hold; shown by their names. */
const TEAM_LABEL_TYPES = [TEAM_DICT_TYPES.track, TEAM_DICT_TYPES.orgType, TEAM_DICT_TYPES.region];

/** Province (by its dictionary name) and city, the city left out when it only repeats the province (北京市 北京市). */
export function placeOf(region: string | null, city: string | null): string {
  return [region, city && city !== region ? city : null].filter(Boolean).join(' ');
}

function UserDetail({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const { data, isPending } = useQuery({ queryKey: ADMIN_QUERY_KEYS.user(id), queryFn: () => fetchUser(id) });
  const labels = useDictLabels(TEAM_LABEL_TYPES, !!data?.team).data;
  if (isPending || !data) return <Spin />;
  const team = data.team;
  const name = (type: string, code: string | null) => (code ? labelOf(labels, type, code) : null);
  // Phones, e-mail and the credit code come masked; the eye shows them in full (pii:view).
  const pii = (path: string, value: string | null) => piiValue('user', data.id, path, value);
  // Descriptions draws the label (and its colon); the value alone goes into LabelValue.
  const item = (label: React.ReactNode, value: React.ReactNode) => ({ label, children: <LabelValue label={null} value={value} ellipsis /> });
  return (
    <div data-testid="user-detail">
      <CardTitle title={t('pages.users.accountInfo')} />
      <Descriptions
        column={DETAIL_COLUMNS}
        items={[
          item(t('pages.fields.username'), data.username),
          item(t('pages.fields.name'), data.name),
          item(t('pages.fields.phone'), pii('phone', data.phone)),
          item(t('pages.fields.email'), pii('email', data.email)),
          item(t('pages.fields.status'), <StatusTag enabled={data.enabled} />),
          item(beijingTitle(t('pages.fields.createdAt')), formatDateTime(data.createdAt)),
          item(beijingTitle(t('pages.fields.lastLoginAt')), formatDateTime(data.lastLoginAt)),
          item(beijingTitle(t('pages.users.agreedAt')), formatDateTime(data.agreedAt)),
        ]}
      />
      <CardTitle title={t('pages.users.teamInfo')} />
      {team ? (
        <Descriptions
          column={DETAIL_COLUMNS}
          items={[
            item(t('pages.users.orgName'), team.orgName),
            item(t('pages.users.teamName'), team.teamName),
            item(t('pages.users.teamStatus'), <ContestStatusTag kind="team" status={team.status} />),
            item(t('pages.users.track'), name(TEAM_DICT_TYPES.track, team.track)),
            item(t('pages.users.orgType'), name(TEAM_DICT_TYPES.orgType, team.orgType)),
            item(t('pages.users.creditCode'), pii('team.creditCode', team.creditCode)),
            item(t('pages.users.region'), placeOf(name(TEAM_DICT_TYPES.region, team.region), team.city)),
            item(
              t('pages.users.leader'),
              team.leaderName || team.leaderPhone ? (
                <>
                  {team.leaderName} {pii('team.leaderPhone', team.leaderPhone)}
                </>
              ) : null,
            ),
            item(t('pages.users.memberCount'), team.memberCount),
            item(beijingTitle(t('pages.users.submittedAt')), formatDateTime(team.submittedAt)),
          ]}
        />
      ) : (
        <LabelValue label={t('pages.users.teamStatus')} value={t('pages.users.noTeam')} />
      )}
    </div>
  );
}

/** 注册用户管理 (/admin/user/team): search, list, detail drawer, disable/enable, reset password, export. */
export function RegisteredUsersPage() {
  const { t } = useTranslation('admin');
  // The team status options are named by the files texts.
  useTranslation('files');
  const queryClient = useQueryClient();
  const [detailId, setDetailId] = useState<string | null>(null);
  const [password, setPassword] = useState<{ account: string; password: string } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.users });

  const { toggle, reset } = useAccountActions<RegisteredUser>({
    setEnabled: setUserEnabled,
    resetPassword: resetUserPassword,
    refresh: () => void refresh(),
    onPassword: setPassword,
  });

  const columns: SearchColumns<RegisteredUser> = [
    { title: t('pages.fields.username'), dataIndex: 'username' },
    { title: t('pages.fields.name'), dataIndex: 'name' },
    { title: t('pages.fields.phone'), dataIndex: 'phone', render: (v: string | null, row) => piiValue('user', row.id, 'phone', v) },
    { title: t('pages.fields.email'), dataIndex: 'email', render: (v: string | null, row) => piiValue('user', row.id, 'email', v) },
    { title: t('pages.users.orgName'), key: 'orgName', render: (_, row) => row.team?.orgName },
    { title: t('pages.users.teamName'), key: 'teamName', render: (_, row) => row.team?.teamName },
    {
      title: t('pages.users.teamStatus'),
      key: 'teamStatus',
      render: (_, row) => (row.team ? <ContestStatusTag kind="team" status={row.team.status} /> : t('pages.users.noTeam')),
    },
    { title: t('pages.fields.status'), dataIndex: 'enabled', render: (_, row) => <StatusTag enabled={row.enabled} /> },
    { title: t('pages.fields.createdAt'), dataIndex: 'createdAt', dateTime: true },
    {
      title: t('kit.actions'),
      key: 'actions',
      render: (_, row) => (
        <Space size={0} wrap>
          <Permission codes={['user:view']}>
            <Button type="link" size="small" onClick={() => setDetailId(row.id)}>
              {t('pages.common.detail')}
            </Button>
          </Permission>
          <Permission codes={['user:disable']}>
            <Button type="link" size="small" danger={row.enabled} onClick={() => toggle(row)}>
              {row.enabled ? t('pages.common.disable') : t('pages.common.enable')}
            </Button>
          </Permission>
          <Permission codes={['user:reset-password']}>
            <Button type="link" size="small" onClick={() => reset(row)}>
              {t('pages.common.resetPassword')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="registered-users-page">
      <h1 className="admin-page__title">{t('titles.userTeam')}</h1>
      <SearchTable<RegisteredUser, Record<string, unknown>>
        queryKey={ADMIN_QUERY_KEYS.users}
        fetchPage={fetchUsers}
        rowKey="id"
        columns={columns}
        searchFields={USER_FIELDS}
        urlState
        toolbar={(filters) => (
          <Permission codes={['user:export']}>
            <ExportButton url="/admin/user/export" params={filters} fallbackName={t('pages.users.exportName')}>
              {t('pages.users.export')}
            </ExportButton>
          </Permission>
        )}
      />
      <SideDrawer open={detailId !== null} title={t('pages.users.detailTitle')} onClose={() => setDetailId(null)}>
        {detailId && <UserDetail id={detailId} />}
      </SideDrawer>
      <PasswordOnceDialog
        account={password?.account ?? ''}
        password={password?.password ?? null}
        onClose={() => setPassword(null)}
      />
    </section>
  );
}
