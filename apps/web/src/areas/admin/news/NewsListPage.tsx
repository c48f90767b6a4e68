import { Button, Space, Tag } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NEWS_CATEGORIES, NEWS_STATUSES, type AdminNewsRow, type NewsCategory } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { Permission } from '../../../lib/permission';
import { BLOCKS_PATH, NEWS_QUERY_KEYS, detailPath, editPath, fetchNewsList, previewPath } from './news-api';
import { NewsStatusTag } from './NewsStatusTag';
import { useNewsActions } from './use-news-actions';
import './news.css';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'newsAdmin:filters.keyword', kind: 'text', placeholder: 'newsAdmin:filters.keywordPlaceholder', width: 220 },
  { name: 'category', label: 'newsAdmin:filters.category', kind: 'select', options: NEWS_CATEGORIES.map((c) => ({ value: c, label: `newsAdmin:category.${c}` })) },
  { name: 'status', label: 'newsAdmin:filters.status', kind: 'select', options: NEWS_STATUSES.map((s) => ({ value: s, label: `newsAdmin:status.${s}` })) },
  {
    name: 'pinned',
    label: 'newsAdmin:filters.pinned',
    kind: 'select',
    options: [
      { value: 'true', label: 'newsAdmin:pinned.true' },
      { value: 'false', label: 'newsAdmin:pinned.false' },
    ],
  },
  { name: 'publish', label: 'newsAdmin:filters.publishAt', kind: 'dateTimeRange', fromName: 'publishFrom', toName: 'publishTo' },
];

/**
 * 新闻资讯 (/admin/user/siteContentManagement): every article in any status, searched by title,
 * category, status, pinned and publish time; edit, preview, publish or take offline, pin, delete.
 */
export function NewsListPage() {
  const { t } = useTranslation('newsAdmin');
  const { t: ta } = useTranslation('admin');
  const navigate = useNavigate();
  const actions = useNewsActions();

  const columns: SearchColumns<AdminNewsRow> = [
    {
      title: t('fields.title'),
      dataIndex: 'title',
      key: 'title',
      fixed: 'left',
      render: (title: string, row) => (
        <span className="news-list__title">
          {row.pinned && <Tag color="red">{t('pinned.tag')}</Tag>}
          <Link to={detailPath(row.id)} data-testid="row-title">
            {title}
          </Link>
        </span>
      ),
    },
    { title: t('fields.category'), dataIndex: 'category', render: (category: NewsCategory) => t(`category.${category}`) },
    { title: t('fields.status'), dataIndex: 'status', render: (_: unknown, row) => <NewsStatusTag status={row.status} scheduled={row.scheduled} /> },
    { title: t('fields.pinned'), dataIndex: 'pinned', render: (pinned: boolean) => t(`pinned.${pinned}`) },
    { title: t('fields.publishAt'), dataIndex: 'publishAt', key: 'publishAt', dateTime: true, sorter: true },
    { title: t('fields.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true, sorter: true },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap className="news-list__actions">
          <Permission codes={['news:edit']}>
            <Button type="link" size="small" onClick={() => void navigate(editPath(row.id))} data-testid="row-edit">
              {t('actions.edit')}
            </Button>
          </Permission>
          <Button type="link" size="small" href={previewPath(row.id)} target="_blank" rel="noopener" data-testid="row-preview">
            {t('actions.preview')}
          </Button>
          <Permission codes={['news:publish']}>
            {row.status === 'PUBLISHED' ? (
              <Button type="link" size="small" onClick={() => actions.offline(row)} data-testid="row-offline">
                {t('actions.offline')}
              </Button>
            ) : (
              <Button type="link" size="small" onClick={() => actions.publish(row)} data-testid="row-publish">
                {t('actions.publish')}
              </Button>
            )}
            <Button type="link" size="small" onClick={() => actions.pin(row)} data-testid="row-pin">
              {row.pinned ? t('actions.unpin') : t('actions.pin')}
            </Button>
          </Permission>
          <Permission codes={['news:delete']}>
            <Button type="link" size="small" danger onClick={() => actions.remove(row)} data-testid="row-delete">
              {t('actions.delete')}
            </Button>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page news-list" data-testid="news-list-page">
      <h1 className="admin-page__title">{ta('titles.siteContentManagement')}</h1>
      <SearchTable<AdminNewsRow>
        queryKey={NEWS_QUERY_KEYS.list}
        fetchPage={fetchNewsList}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={
          <Permission codes={['news:edit']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(editPath())} data-testid="news-create">
              {t('actions.create')}
            </Button>
            <Button icon={<EditOutlined />} onClick={() => void navigate(BLOCKS_PATH)} data-testid="news-blocks">
              {t('actions.blocks')}
            </Button>
          </Permission>
        }
      />
    </section>
  );
}
