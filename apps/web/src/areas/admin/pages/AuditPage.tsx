import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  LOGIN_METHODS,
  LOGIN_RESULTS,
  OPERATION_RESULTS,
  type LoginRecordView,
  type OperationRecordView,
  type Realm,
} from '@contest/shared';
import { KitTabs, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useRouteTitle } from '../../../lib/route-handle';
import { ADMIN_QUERY_KEYS, fetchLoginRecords, fetchOperationRecords } from '../admin-api';

function UserAgent({ value }: { value: string | null }) {
  if (!value) return null;
  return (
    <Tooltip title={value}>
      <span className="audit-user-agent">{value}</span>
    </Tooltip>
  );
}

/** Account and time range, common to both tabs; the time range is sent as from/to date-times. */
const ACCOUNT: SearchField = { name: 'username', label: 'pages.audit.account', kind: 'text' };
const TIME_RANGE: SearchField = { name: 'range', label: 'pages.audit.time', kind: 'dateTimeRange', fromName: 'from', toName: 'to' };

const LOGIN_FIELDS: SearchField[] = [
  ACCOUNT,
  {
    name: 'method',
    label: 'pages.audit.method',
    kind: 'select',
    width: 120,
    options: LOGIN_METHODS.map((m) => ({ value: m, label: `pages.audit.methods.${m}` })),
  },
  {
    name: 'result',
    label: 'pages.audit.result',
    kind: 'select',
    width: 140,
    options: LOGIN_RESULTS.map((r) => ({ value: r, label: `pages.audit.loginResults.${r}` })),
  },
  TIME_RANGE,
];

const OPERATION_FIELDS: SearchField[] = [
  ACCOUNT,
  // The filter searches by code: an exact one or a prefix ending in ':'.
  { name: 'action', label: 'pages.audit.action', kind: 'text', placeholder: 'account:' },
  {
    name: 'result',
    label: 'pages.audit.result',
    kind: 'select',
    width: 120,
    options: OPERATION_RESULTS.map((r) => ({ value: r, label: `pages.audit.results.${r}` })),
  },
  TIME_RANGE,
];

function LoginRecords({ realm }: { realm: Realm }) {
  const { t } = useTranslation('admin');
  const columns: SearchColumns<LoginRecordView> = [
    { title: t('pages.audit.timeColumn'), dataIndex: 'createdAt', dateTime: true, width: 170 },
    { title: t('pages.audit.account'), dataIndex: 'identifier', render: (_, row) => row.username ?? row.identifier },
    { title: t('pages.fields.name'), dataIndex: 'name' },
    { title: t('pages.audit.method'), dataIndex: 'method', render: (v: string) => t(`pages.audit.methods.${v as 'PASSWORD'}`) },
    {
      title: t('pages.audit.result'),
      dataIndex: 'result',
      render: (_, row) => (
        <Tag color={row.result === 'SUCCESS' ? 'success' : 'error'}>{t(`pages.audit.loginResults.${row.result}`)}</Tag>
      ),
    },
    { title: 'IP', dataIndex: 'ip' },
    { title: t('pages.audit.userAgent'), dataIndex: 'userAgent', render: (v: string | null) => <UserAgent value={v} />, ellipsis: true },
  ];
  return (
    <SearchTable<LoginRecordView, Record<string, unknown>>
      queryKey={ADMIN_QUERY_KEYS.loginRecords(realm)}
      // The realm is the page's, not a filter: it stays out of the form and the URL.
      fetchPage={(q) => fetchLoginRecords({ ...q, realm })}
      rowKey="id"
      columns={columns}
      searchFields={LOGIN_FIELDS}
      urlState
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
  const columns: SearchColumns<OperationRecordView> = [
    { title: t('pages.audit.timeColumn'), dataIndex: 'createdAt', dateTime: true, width: 170 },
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
      // The realm is the page's, not a filter: it stays out of the form and the URL.
      fetchPage={(q) => fetchOperationRecords({ ...q, realm })}
      rowKey="id"
      columns={columns}
      searchFields={OPERATION_FIELDS}
      urlState
    />
  );
}

type Tab = 'login' | 'operation';

/**
 * 行为审计: login records and operation records of one realm's accounts, in two tabs. The tab and
 * the open tab's filters are in the URL (?tab=operation); switching tabs starts the other list unfiltered.
 */
function AuditPage({ realm }: { realm: Realm }) {
  const { t } = useTranslation('admin');
  const title = useRouteTitle();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'operation' ? 'operation' : 'login';
  const setTab = (key: string) => setParams(key === 'operation' ? { tab: key } : {}, { replace: true });
  return (
    <section className="admin-page" data-testid={`audit-page-${realm.toLowerCase()}`}>
      <h1 className="admin-page__title">{title}</h1>
      <KitTabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'login', txtMes: t('pages.audit.loginTab'), component: tab === 'login' ? <LoginRecords realm={realm} /> : null },
          {
            key: 'operation',
            txtMes: t('pages.audit.operationTab'),
            component: tab === 'operation' ? <OperationRecords realm={realm} /> : null,
          },
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
