import { useMemo } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { APPEAL_STATUSES, type AppealRow, type AppealStatus, type ReviewRound } from '@contest/shared';
import { SearchTable, formatDateTime, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { AppealStatusTag } from '../../../components/results';
import { RESULTS_QUERY_KEYS, fetchAppeals } from './results-api';
import { RESULTS_PATHS, ROUNDS, decidable, useResultsAccess } from './results-common';
import '../admin-pages.css';
import './results.css';

/** Shown of an appeal's text in the list; the detail has all of it. */
const REASON_PREVIEW = 60;

/**
 * 申诉处理: every appeal, the waiting ones first by due date (the end of the 公示 period), with
 * filters in the URL (round, status, keyword, only overdue). An overdue appeal carries a red tag;
 * it can still be decided. 处理 opens the detail with the decision panel (`appeal:decide`).
 */
export function AppealsPage() {
  const { t } = useTranslation('results');
  const navigate = useNavigate();
  const access = useResultsAccess();

  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'results:appeals.keyword', kind: 'text', placeholder: 'results:appeals.keywordPlaceholder' },
      { name: 'round', label: 'results:common.round', kind: 'select', options: ROUNDS.map((r) => ({ value: r, label: `results:rounds.${r}` })) },
      { name: 'status', label: 'results:appeals.status', kind: 'select', options: APPEAL_STATUSES.map((s) => ({ value: s, label: `results:appealStatus.${s}` })) },
      { name: 'overdue', label: 'results:appeals.overdueFilter', kind: 'select', options: [{ value: 'true', label: 'results:appeals.overdueOnly' }] },
    ],
    [],
  );

  const columns: SearchColumns<AppealRow> = [
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      fixed: 'left',
      render: (name: string, row) => (
        <div className="results-cell--wide">
          <Link to={RESULTS_PATHS.appeal(row.id)} className="results-link" data-testid="appeal-link">
            {name || t('common.untitled')}
          </Link>
          <div>
            <Typography.Text type="secondary">{row.teamName}</Typography.Text>
          </div>
        </div>
      ),
    },
    { title: t('common.org'), dataIndex: 'orgName' },
    {
      title: t('common.round'),
      dataIndex: 'round',
      render: (r: ReviewRound, row) => (
        <Space size={4}>
          <span>{t(`rounds.${r}`)}</span>
          <Tag>{t('common.versionN', { n: row.version })}</Tag>
        </Space>
      ),
    },
    { title: t('appeals.status'), dataIndex: 'status', render: (s: AppealStatus) => <AppealStatusTag status={s} /> },
    {
      title: t('appeals.reason'),
      dataIndex: 'reason',
      render: (text: string) => (
        <div className="results-cell--wide" title={text}>
          {Array.from(text).length > REASON_PREVIEW ? `${Array.from(text).slice(0, REASON_PREVIEW).join('')}…` : text}
        </div>
      ),
    },
    { title: t('appeals.attachments'), dataIndex: 'attachmentCount', align: 'right' },
    { title: t('appeals.createdAt'), dataIndex: 'createdAt', dateTime: true },
    {
      title: t('appeals.dueAt'),
      dataIndex: 'dueAt',
      dateTime: true,
      render: (at: string, row) => (
        <Space size={4} wrap>
          <span>{formatDateTime(at)}</span>
          {row.overdue && (
            <Tag color="red" data-testid="overdue-tag">
              {t('appeals.overdue')}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('appeals.decided'),
      key: 'decided',
      dateTime: true,
      render: (_, row) =>
        row.decidedAt ? (
          <div>
            <div>{formatDateTime(row.decidedAt)}</div>
            <Typography.Text type="secondary">{row.decidedBy}</Typography.Text>
          </div>
        ) : null,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => void navigate(RESULTS_PATHS.appeal(row.id))} data-testid="appeal-open">
          {access.decide && decidable(row.status) ? t('appeals.decide') : t('common.detail')}
        </Button>
      ),
    },
  ];

  return (
    <section className="admin-page results-page" data-testid="appeals-page">
      <h1 className="admin-page__title">{t('titles.appeals')}</h1>
      <SearchTable<AppealRow>
        queryKey={RESULTS_QUERY_KEYS.appeals}
        fetchPage={fetchAppeals}
        rowKey="id"
        columns={columns}
        searchFields={fields}
        urlState
      />
    </section>
  );
}
