import { useState } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REVIEW_MSG, REVIEW_ROUNDS, type ExpertRow } from '@contest/shared';
import { ExportButton, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { labelOf, useDictLabels } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { PasswordOnceDialog } from '../components/PasswordOnceDialog';
import { piiValue } from '../components/PiiText';
import { StatusTag } from '../components/StatusTag';
import { useAccountActions } from '../components/use-account-actions';
import { ExpertFormDialog, TRACK_DICT } from './ExpertFormDialog';
import { ExpertImportDialog } from './ExpertImportDialog';
import { EXPERT_EXPORT_URL, EXPERT_QUERY_KEYS, fetchExperts, resetExpertPassword, setExpertEnabled } from './experts-api';
import { useExpertMessage } from './expert-messages';
import './experts.css';

const TITLE_DICT = 'PROFESSIONAL_TITLE';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'experts:filters.keyword', kind: 'text', placeholder: 'experts:filters.keywordPlaceholder', width: 220 },
  { name: 'track', label: 'experts:filters.track', kind: 'dict', dictType: TRACK_DICT },
  {
    name: 'enabled',
    label: 'experts:filters.status',
    kind: 'select',
    options: [
      { value: 'true', label: 'pages.common.enabled' },
      { value: 'false', label: 'pages.common.disabled' },
    ],
  },
];

/** How an expert is named in confirmations and the password dialog. */
const accountOf = (row: ExpertRow) => ({ id: row.id, username: `${row.name}（${row.code}）`, enabled: row.enabled });

/**
 * 专家库 (/admin/grade/database-expert): search; create and edit (tracks, organisation with its
 * credit code, declared conflicts); enable/disable; reset password (shown once); import from
 * .xlsx with a per-row report; export.
 */
export function ExpertsPage() {
  const { t } = useTranslation('experts');
  const { t: ta } = useTranslation('admin');
  const { message } = useFeedback();
  const translate = useExpertMessage();
  const queryClient = useQueryClient();
  const labels = useDictLabels([TRACK_DICT, TITLE_DICT]).data;
  const [editing, setEditing] = useState<ExpertRow | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [password, setPassword] = useState<{ account: string; password: string } | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: EXPERT_QUERY_KEYS.all });

  const { toggle, reset } = useAccountActions<ReturnType<typeof accountOf>>({
    setEnabled: setExpertEnabled,
    resetPassword: resetExpertPassword,
    refresh,
    onPassword: setPassword,
  });

  const columns: SearchColumns<ExpertRow> = [
    { title: t('fields.code'), dataIndex: 'code', key: 'code', sorter: true, fixed: 'left' },
    { title: t('fields.name'), dataIndex: 'name', key: 'name', sorter: true },
    // Phone and credit code come masked; the eye shows the expert's in full (pii:view).
    { title: t('fields.phone'), dataIndex: 'phone', render: (phone: string | null, row) => piiValue('expert', row.id, 'phone', phone) },
    {
      title: t('fields.organization'),
      dataIndex: 'organization',
      render: (organization: string, row) => (
        <div className="expert-org">
          <span>{organization}</span>
          {row.orgCreditCode && (
            <Typography.Text type="secondary" className="expert-org__code">
              {t('creditCodePrefix')}
              {piiValue('expert', row.id, 'orgCreditCode', row.orgCreditCode)}
            </Typography.Text>
          )}
        </div>
      ),
    },
    // Free text, or a 职称 code (demo data, imports): a code shows its name in the page's language.
    { title: t('fields.title'), dataIndex: 'title', render: (title: string | null) => labelOf(labels, TITLE_DICT, title) },
    {
      title: t('fields.tracks'),
      dataIndex: 'tracks',
      render: (tracks: string[]) =>
        tracks.length ? (
          <span className="expert-tracks" data-testid="expert-tracks">
            {tracks.map((code) => (
              <Tag key={code}>{labelOf(labels, TRACK_DICT, code)}</Tag>
            ))}
          </span>
        ) : null,
    },
    {
      title: t('fields.groups'),
      dataIndex: 'groups',
      render: (groups: ExpertRow['groups']) => {
        const held = REVIEW_ROUNDS.filter((round) => groups[round]);
        if (!held.length) return null;
        return (
          <div className="expert-groups">
            {held.map((round) => (
              <span key={round}>
                {t(`rounds.${round}`)}：{groups[round]}
              </span>
            ))}
          </div>
        );
      },
    },
    {
      title: t('fields.agreed'),
      dataIndex: 'agreed',
      render: (agreed: boolean) => <Tag color={agreed ? 'success' : 'default'}>{agreed ? t('agreed.yes') : t('agreed.no')}</Tag>,
    },
    { title: t('fields.status'), dataIndex: 'enabled', render: (enabled: boolean) => <StatusTag enabled={enabled} /> },
    { title: t('fields.lastLoginAt'), dataIndex: 'lastLoginAt', key: 'lastLoginAt', dateTime: true, sorter: true },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Permission codes={['expert:edit']}>
            <Button type="link" size="small" onClick={() => setEditing(row)} data-testid="row-edit">
              {ta('pages.common.edit')}
            </Button>
          </Permission>
          <Permission codes={['expert:disable']}>
            <Button type="link" size="small" danger={row.enabled} onClick={() => toggle(accountOf(row))} data-testid="row-toggle">
              {row.enabled ? ta('pages.common.disable') : ta('pages.common.enable')}
            </Button>
          </Permission>
          <Permission codes={['expert:reset-password']}>
            <Button type="link" size="small" onClick={() => reset(accountOf(row))} data-testid="row-reset">
              {ta('pages.common.resetPassword')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="experts-page">
      <h1 className="admin-page__title">{ta('titles.databaseExpert')}</h1>
      <SearchTable<ExpertRow>
        queryKey={EXPERT_QUERY_KEYS.list}
        fetchPage={fetchExperts}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={(filters) => (
          <>
            <Permission codes={['expert:edit']}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="expert-create">
                {t('actions.create')}
              </Button>
            </Permission>
            <Permission codes={['expert:import']}>
              <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="expert-import-open">
                {t('actions.import')}
              </Button>
            </Permission>
            <Permission codes={['expert:export']}>
              <ExportButton url={EXPERT_EXPORT_URL} params={filters} fallbackName={t('actions.exportName')} />
            </Permission>
          </>
        )}
      />

      <ExpertFormDialog
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={({ created }) => {
          setEditing(null);
          if (created) {
            void message.success(translate(REVIEW_MSG.expertCreated));
            setPassword({ account: `${created.name}（${created.code}）`, password: created.password });
          } else {
            void message.success(translate(REVIEW_MSG.expertSaved));
          }
          refresh();
        }}
      />

      <ExpertImportDialog
        open={importing}
        onClose={(imported) => {
          setImporting(false);
          if (imported) refresh();
        }}
      />

      <PasswordOnceDialog account={password?.account ?? ''} password={password?.password ?? null} onClose={() => setPassword(null)} />
    </section>
  );
}
