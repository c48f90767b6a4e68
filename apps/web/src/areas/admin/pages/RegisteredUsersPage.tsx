import { useState } from 'react';
import { Button, DatePicker, Descriptions, Form, Input, Select, Space, Spin } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DATE_FORMATS,
  TEAM_DICT_TYPES,
  USER_TEAM_STATUS_FILTERS,
  type RegisteredUser,
  type TeamStatus,
} from '@contest/shared';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { LabelValue } from '../../../components/admin-kit/LabelValue';
import { SearchTable } from '../../../components/admin-kit/SearchTable';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { ContestStatusTag, labelOf, useDictLabels } from '../../../components/contest';
import { Permission } from '../../../lib/permission';
import {
  ADMIN_QUERY_KEYS,
  exportUsers,
  fetchUser,
  fetchUsers,
  formatDateTime,
  resetUserPassword,
  saveBlob,
  setUserEnabled,
} from '../admin-api';
import { PasswordOnceDialog } from '../components/PasswordOnceDialog';
import { piiValue } from '../components/PiiText';
import { StatusTag } from '../components/StatusTag';
import { useAccountActions } from '../components/use-account-actions';

/** Form values → list query: the registration range becomes from/to dates. */
export function userQueryOf(values: Record<string, unknown>): Record<string, unknown> {
  const { registered, ...rest } = values;
  const range = registered as [Dayjs | null, Dayjs | null] | undefined;
  const query: Record<string, unknown> = { ...rest };
  if (range?.[0]) query.from = range[0].format(DATE_FORMATS.date);
  if (range?.[1]) query.to = range[1].format(DATE_FORMATS.date);
  return query;
}

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
  const item = (label: string, value: React.ReactNode) => ({ label, children: <LabelValue label={null} value={value} ellipsis /> });
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
          item(t('pages.fields.createdAt'), formatDateTime(data.createdAt)),
          item(t('pages.fields.lastLoginAt'), formatDateTime(data.lastLoginAt)),
          item(t('pages.users.agreedAt'), formatDateTime(data.agreedAt)),
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
            item(t('pages.users.submittedAt'), formatDateTime(team.submittedAt)),
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
  const { t: tFiles } = useTranslation('files');
  const queryClient = useQueryClient();
  const [detailId, setDetailId] = useState<string | null>(null);
  const [password, setPassword] = useState<{ account: string; password: string } | null>(null);
  const [exporting, setExporting] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.users });

  const { toggle, reset } = useAccountActions<RegisteredUser>({
    setEnabled: setUserEnabled,
    resetPassword: resetUserPassword,
    refresh: () => void refresh(),
    onPassword: setPassword,
  });

  const download = async (filters: Record<string, unknown>) => {
    setExporting(true);
    try {
      const file = await exportUsers(filters);
      if (file) saveBlob(file, t('pages.users.exportName'));
    } catch {
      // The client has shown the refusal (e.g. too many rows).
    } finally {
      setExporting(false);
    }
  };

  const columns: ColumnsType<RegisteredUser> = [
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
    { title: t('pages.fields.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
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

  const statusOptions = USER_TEAM_STATUS_FILTERS.map((value) => ({
    value,
    label: value === 'NONE' ? t('pages.users.noTeam') : tFiles(`contest.teamStatus.${value as TeamStatus}`),
  }));

  return (
    <section className="admin-page" data-testid="registered-users-page">
      <h1 className="admin-page__title">{t('titles.userTeam')}</h1>
      <SearchTable<RegisteredUser, Record<string, unknown>>
        queryKey={ADMIN_QUERY_KEYS.users}
        fetchPage={fetchUsers}
        rowKey="id"
        columns={columns}
        toQuery={userQueryOf}
        filters={
          <>
            <Form.Item name="username" label={t('pages.fields.username')}>
              <Input allowClear placeholder={t('pages.common.enterPlaceholder')} />
            </Form.Item>
            <Form.Item name="phone" label={t('pages.fields.phone')}>
              <Input allowClear placeholder={t('pages.common.enterPlaceholder')} />
            </Form.Item>
            <Form.Item name="orgName" label={t('pages.users.orgName')}>
              <Input allowClear placeholder={t('pages.common.enterPlaceholder')} />
            </Form.Item>
            <Form.Item name="teamStatus" label={t('pages.users.teamStatus')}>
              <Select allowClear style={{ width: 140 }} placeholder={t('pages.common.all')} options={statusOptions} />
            </Form.Item>
            <Form.Item name="enabled" label={t('pages.fields.status')}>
              <Select
                allowClear
                style={{ width: 120 }}
                placeholder={t('pages.common.all')}
                options={[
                  { value: 'true', label: t('pages.common.enabled') },
                  { value: 'false', label: t('pages.common.disabled') },
                ]}
              />
            </Form.Item>
            <Form.Item name="registered" label={t('pages.fields.createdAt')}>
              <DatePicker.RangePicker format={DATE_FORMATS.date} />
            </Form.Item>
          </>
        }
        toolbar={(filters) => (
          <Permission codes={['user:export']}>
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download(filters)}>
              {t('pages.users.export')}
            </Button>
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
