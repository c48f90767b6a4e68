import { useState } from 'react';
import { DatePicker, Form, Input, Select, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  DATE_FORMATS,
  LOGIN_METHODS,
  LOGIN_RESULT_LABELS,
  LOGIN_RESULTS,
  OPERATION_RESULTS,
  type LoginRecordView,
  type OperationRecordView,
  type Realm,
} from '@contest/shared';
import { KitTabs } from '../../../components/admin-kit/KitTabs';
import { SearchTable } from '../../../components/admin-kit/SearchTable';
import { useRouteTitle } from '../../../lib/route-handle';
import { ADMIN_QUERY_KEYS, fetchLoginRecords, fetchOperationRecords, formatDateTime } from '../admin-api';

/** Form values → audit query: the realm of the page, the time range as from/to date-times. */
export function auditQueryOf(realm: Realm) {
  return (values: Record<string, unknown>): Record<string, unknown> => {
    const { range, ...rest } = values;
    const pair = range as [Dayjs | null, Dayjs | null] | undefined;
    const query: Record<string, unknown> = { ...rest, realm };
    if (pair?.[0]) query.from = pair[0].format(DATE_FORMATS.datetime);
    if (pair?.[1]) query.to = pair[1].format(DATE_FORMATS.datetime);
    return query;
  };
}

function UserAgent({ value }: { value: string | null }) {
  if (!value) return null;
  return (
    <Tooltip title={value}>
      <span className="audit-user-agent">{value}</span>
    </Tooltip>
  );
}

function TimeRange() {
  const { t } = useTranslation('admin');
  return (
    <Form.Item name="range" label={t('pages.audit.time')}>
      <DatePicker.RangePicker showTime format={DATE_FORMATS.datetime} />
    </Form.Item>
  );
}

function LoginRecords({ realm }: { realm: Realm }) {
  const { t } = useTranslation('admin');
  const columns: ColumnsType<LoginRecordView> = [
    { title: t('pages.audit.time'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 170 },
    { title: t('pages.audit.account'), dataIndex: 'identifier', render: (_, row) => row.username ?? row.identifier },
    { title: t('pages.fields.name'), dataIndex: 'name' },
    { title: t('pages.audit.method'), dataIndex: 'method', render: (v: string) => t(`pages.audit.methods.${v as 'PASSWORD'}`) },
    {
      title: t('pages.audit.result'),
      dataIndex: 'result',
      render: (_, row) => (
        <Tag color={row.result === 'SUCCESS' ? 'success' : 'error'}>{LOGIN_RESULT_LABELS[row.result]}</Tag>
      ),
    },
    { title: 'IP', dataIndex: 'ip' },
    { title: t('pages.audit.userAgent'), dataIndex: 'userAgent', render: (v: string | null) => <UserAgent value={v} />, ellipsis: true },
  ];
  return (
    <SearchTable<LoginRecordView, Record<string, unknown>>
      queryKey={ADMIN_QUERY_KEYS.loginRecords(realm)}
      fetchPage={fetchLoginRecords}
      initialFilters={{ realm }}
      toQuery={auditQueryOf(realm)}
      rowKey="id"
      columns={columns}
      filters={
        <>
          <Form.Item name="username" label={t('pages.audit.account')}>
            <Input allowClear placeholder={t('pages.common.enterPlaceholder')} />
          </Form.Item>
          <Form.Item name="method" label={t('pages.audit.method')}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t('pages.common.all')}
              options={LOGIN_METHODS.map((m) => ({ value: m, label: t(`pages.audit.methods.${m}`) }))}
            />
          </Form.Item>
          <Form.Item name="result" label={t('pages.audit.result')}>
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('pages.common.all')}
              options={LOGIN_RESULTS.map((r) => ({ value: r, label: LOGIN_RESULT_LABELS[r] }))}
            />
          </Form.Item>
          <TimeRange />
        </>
      }
    />
  );
}

/**
 * The name of an operation code ('account:create') or target type ('prelim_doc'); a code the
 * texts do not know yet (a newer server) shows as it is.
 */
export function useAuditNames(): { action(code: string): string; target(type: string): string } {
  const { t, i18n } = useTranslation('admin');
  const named = (key: string, code: string) => (i18n.exists(key, { ns: 'admin' }) ? String(t(key as never)) : code);
  return {
    // ':' would read as a namespace separator: the texts nest the code's two parts instead.
    action: (code) => named(`pages.audit.actionNames.${code.replace(':', '.')}`, code),
    target: (type) => named(`pages.audit.targetTypes.${type}`, type),
  };
}

function OperationRecords({ realm }: { realm: Realm }) {
  const { t } = useTranslation('admin');
  const names = useAuditNames();
  const columns: ColumnsType<OperationRecordView> = [
    { title: t('pages.audit.time'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 170 },
    { title: t('pages.audit.account'), dataIndex: 'username' },
    {
      title: t('pages.audit.action'),
      dataIndex: 'action',
      // The code stays at hand for the 操作 filter, which searches by code.
      render: (code: string) => <span title={code}>{names.action(code)}</span>,
    },
    {
      title: t('pages.audit.target'),
      key: 'target',
      render: (_, row) => (
        <span title={row.targetId ?? undefined}>{row.targetType ? names.target(row.targetType) : null}</span>
      ),
    },
    { title: t('pages.audit.summary'), dataIndex: 'summary', ellipsis: true },
    {
      title: t('pages.audit.result'),
      dataIndex: 'result',
      render: (_, row) => (
        <Tag color={row.result === 'SUCCESS' ? 'success' : 'error'}>{t(`pages.audit.results.${row.result}`)}</Tag>
      ),
    },
    { title: 'IP', dataIndex: 'ip' },
  ];
  return (
    <SearchTable<OperationRecordView, Record<string, unknown>>
      queryKey={ADMIN_QUERY_KEYS.operationRecords(realm)}
      fetchPage={fetchOperationRecords}
      initialFilters={{ realm }}
      toQuery={auditQueryOf(realm)}
      rowKey="id"
      columns={columns}
      filters={
        <>
          <Form.Item name="username" label={t('pages.audit.account')}>
            <Input allowClear placeholder={t('pages.common.enterPlaceholder')} />
          </Form.Item>
          <Form.Item name="action" label={t('pages.audit.action')}>
            <Input allowClear placeholder="account:" />
          </Form.Item>
          <Form.Item name="result" label={t('pages.audit.result')}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t('pages.common.all')}
              options={OPERATION_RESULTS.map((r) => ({ value: r, label: t(`pages.audit.results.${r}`) }))}
            />
          </Form.Item>
          <TimeRange />
        </>
      }
    />
  );
}

/** 行为审计: login records and operation records of one realm's accounts, in two tabs. */
function AuditPage({ realm }: { realm: Realm }) {
  const { t } = useTranslation('admin');
  const title = useRouteTitle();
  const [tab, setTab] = useState('login');
  return (
    <section className="admin-page" data-testid={`audit-page-${realm.toLowerCase()}`}>
      <h1 className="admin-page__title">{title}</h1>
      <KitTabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'login', txtMes: t('pages.audit.loginTab'), component: <LoginRecords realm={realm} /> },
          { key: 'operation', txtMes: t('pages.audit.operationTab'), component: <OperationRecords realm={realm} /> },
        ]}
      />
    </section>
  );
}

export function UserAuditPage() {
  return <AuditPage realm="USER" />;
}

export function AdminAuditPage() {
  return <AuditPage realm="ADMIN" />;
}

export function ExpertAuditPage() {
  return <AuditPage realm="EXPERT" />;
}
