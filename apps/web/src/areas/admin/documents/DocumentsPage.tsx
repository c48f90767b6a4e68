import { Button, Space, Tag, Typography } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_MSG, DOC_AUDIENCES, DOC_CATEGORIES, formatFileSize, type DocAudience, type DocCategory, type DocumentAdminRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { menuCodes } from '../../../components/admin-kit/console-menu';
import { downloadAttachment } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { useStaffInfo } from '../../../lib/session';
import { StatusTag } from '../components/StatusTag';
import { useDocMessage } from './doc-messages';
import { DOC_PATHS, DOC_QUERY_KEYS, PUBLIC_DOCUMENT_KEYS, deleteDocument, fetchDocuments, setDocumentEnabled } from './documents-api';
import './documents.css';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'docsAdmin:filters.keyword', kind: 'text', placeholder: 'docsAdmin:filters.keywordPlaceholder', width: 220 },
  { name: 'category', label: 'docsAdmin:fields.category', kind: 'select', options: DOC_CATEGORIES.map((c) => ({ value: c, label: `docsAdmin:category.${c}` })) },
  { name: 'audience', label: 'docsAdmin:fields.audience', kind: 'select', options: DOC_AUDIENCES.map((a) => ({ value: a, label: `docsAdmin:audience.${a}` })) },
  {
    name: 'enabled',
    label: 'docsAdmin:fields.enabled',
    kind: 'select',
    options: [
      { value: 'true', label: 'pages.common.enabled' },
      { value: 'false', label: 'pages.common.disabled' },
    ],
  },
];

const CATEGORY_COLOR: Record<DocCategory, string> = { TEMPLATE: 'blue', GUIDE: 'green', DATA: 'purple' };
const AUDIENCE_COLOR: Record<DocAudience, string> = { PUBLIC: 'default', PARTICIPANT: 'cyan', APPROVED: 'gold' };

/**
 * 文档管理 (/admin/user/docManage): templates, guides and data documents with their audience,
 * code and order; create and edit on /admin/user/docManagement-edit/{id?}; enable/disable and
 * delete behind a confirm. The site blocks' editor is linked from the header.
 */
export function DocumentsPage() {
  const { t } = useTranslation('docsAdmin');
  const { t: ta } = useTranslation('admin');
  const navigate = useNavigate();
  const { message, modal } = useFeedback();
  const translate = useDocMessage();
  const queryClient = useQueryClient();
  const menus = useStaffInfo('ADMIN').data?.menus;
  const canOpenBlocks = menus ? menuCodes(menus).has('siteContentManagement') : false;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: DOC_QUERY_KEYS.all });
    void queryClient.invalidateQueries({ queryKey: PUBLIC_DOCUMENT_KEYS });
  };

  const toggle = (row: DocumentAdminRow) => {
    const enable = !row.enabled;
    modal.confirm({
      title: ta('pages.common.confirmTitle'),
      content: t(enable ? 'list.confirmEnable' : 'list.confirmDisable', { title: row.title }),
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      onOk: async () => {
        await setDocumentEnabled(row.id, enable);
        void message.success(translate(enable ? DOCUMENT_MSG.docEnabled : DOCUMENT_MSG.docDisabled));
        refresh();
      },
    });
  };

  const remove = (row: DocumentAdminRow) => {
    modal.confirm({
      title: ta('pages.common.confirmTitle'),
      content: t('list.confirmDelete', { title: row.title }),
      okText: ta('kit.ok'),
      okButtonProps: { danger: true },
      cancelText: ta('kit.cancel'),
      onOk: async () => {
        await deleteDocument(row.id);
        void message.success(translate(DOCUMENT_MSG.docDeleted));
        refresh();
      },
    });
  };

  const download = async (row: DocumentAdminRow) => {
    try {
      await downloadAttachment(row.file);
    } catch {
      // The client has shown the reason.
    }
  };

  const columns: SearchColumns<DocumentAdminRow> = [
    {
      title: t('fields.title'),
      dataIndex: 'title',
      key: 'title',
      sorter: true,
      fixed: 'left',
      render: (title: string, row) => (
        <div className="doc-title">
          <span>{title}</span>
          {row.titleEn && (
            <Typography.Text type="secondary" className="doc-title__en" lang="en">
              {row.titleEn}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('fields.category'), dataIndex: 'category', render: (c: DocCategory) => <Tag color={CATEGORY_COLOR[c]}>{t(`category.${c}`)}</Tag> },
    { title: t('fields.audience'), dataIndex: 'audience', render: (a: DocAudience) => <Tag color={AUDIENCE_COLOR[a]}>{t(`audience.${a}`)}</Tag> },
    { title: t('fields.code'), dataIndex: 'code', render: (code: string | null) => (code ? <code className="doc-code">{code}</code> : null) },
    {
      title: t('fields.file'),
      dataIndex: 'file',
      render: (_: unknown, row) => (
        <div className="doc-file">
          <Button type="link" size="small" className="doc-file__name" onClick={() => void download(row)} aria-label={t('list.downloadOf', { name: row.file.name })}>
            {row.file.name}
          </Button>
          <Typography.Text type="secondary">{formatFileSize(row.file.size)}</Typography.Text>
        </div>
      ),
    },
    { title: t('fields.sort'), dataIndex: 'sort', key: 'sort', sorter: true },
    { title: t('fields.enabled'), dataIndex: 'enabled', render: (enabled: boolean) => <StatusTag enabled={enabled} /> },
    { title: t('fields.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true, sorter: true },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Permission codes={['doc:edit']}>
            <Button type="link" size="small" onClick={() => void navigate(DOC_PATHS.edit(row.id))} data-testid="row-edit">
              {ta('pages.common.edit')}
            </Button>
            <Button type="link" size="small" danger={row.enabled} onClick={() => toggle(row)} data-testid="row-toggle">
              {row.enabled ? ta('pages.common.disable') : ta('pages.common.enable')}
            </Button>
          </Permission>
          <Permission codes={['doc:delete']}>
            <Button type="link" size="small" danger onClick={() => remove(row)} data-testid="row-delete">
              {ta('pages.common.delete')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="documents-page">
      <header className="doc-page__header">
        <h1 className="admin-page__title">{ta('titles.docManage')}</h1>
        {canOpenBlocks && (
          <Link to={DOC_PATHS.siteBlocks} className="doc-page__blocks-link" data-testid="open-site-blocks">
            <EditOutlined /> {t('list.siteBlocks')}
          </Link>
        )}
      </header>
      <SearchTable<DocumentAdminRow>
        queryKey={DOC_QUERY_KEYS.list}
        fetchPage={fetchDocuments}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={
          <Permission codes={['doc:edit']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(DOC_PATHS.create)} data-testid="doc-create">
              {t('list.create')}
            </Button>
          </Permission>
        }
      />
    </section>
  );
}
