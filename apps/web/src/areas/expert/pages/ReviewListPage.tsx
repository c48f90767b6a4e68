import { useCallback, useMemo } from 'react';
import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SHEET_VIEW_STATUSES, TEAM_DICT_TYPES, type ExpertProjectRow, type ReviewRound } from '@contest/shared';
import { EMPTY_CELL, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { SheetStatusTag } from '../components/SheetStatusTag';
import { EXPERT_QUERY_KEYS, fetchOverview, fetchProjects, isAgreementRequired } from '../expert-api';
import { ROUND_PAGES, detailPath } from '../paths';
import { formatPoints } from '../review-format';
import { useAgreementLost } from '../use-agreement';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';
import '../expert.css';

const SEARCH_FIELDS: SearchField[] = [
  {
    name: 'status',
    label: 'expert:list.status',
    kind: 'select',
    options: SHEET_VIEW_STATUSES.map((status) => ({ value: status, label: `expert:status.${status}` })),
  },
  { name: 'track', label: 'expert:list.track', kind: 'dict', dictType: TEAM_DICT_TYPES.track },
  { name: 'keyword', label: 'expert:list.keyword', kind: 'text' },
];

/**
 * /expert/review-manage and /expert/review-admin-manage: the projects of the round assigned to
 * the expert (never a conflicted one: the server leaves them out), filters in the URL.
 */
export function ReviewListPage({ round }: { round: ReviewRound }) {
  const { t } = useTranslation('expert');
  const pages = ROUND_PAGES[round];
  const agreementLost = useAgreementLost();
  const overview = useQuery({ queryKey: EXPERT_QUERY_KEYS.overview, queryFn: fetchOverview });
  const progress = overview.data?.rounds?.find((r) => r.round === round);
  const open = progress?.open === true;

  const fetchPage = useCallback(
    async (params: Record<string, unknown>) => {
      try {
        return await fetchProjects(pages.slug, params);
      } catch (error) {
        if (isAgreementRequired(error)) agreementLost();
        throw error;
      }
    },
    [pages.slug, agreementLost],
  );

  const columns = useMemo<SearchColumns<ExpertProjectRow>>(
    () => [
      { title: t('list.projectName'), dataIndex: 'projectName', key: 'projectName', render: (name: string) => <span className="expert-list__name">{name}</span> },
      { title: t('list.track'), dataIndex: 'track', key: 'track', dict: TEAM_DICT_TYPES.track },
      { title: t('list.status'), dataIndex: 'status', key: 'status', render: (_: unknown, row) => <SheetStatusTag status={row.status} /> },
      {
        title: t('list.total'),
        dataIndex: 'total',
        key: 'total',
        render: (total: number | null) => (total === null ? EMPTY_CELL : formatPoints(total)),
      },
      { title: t('list.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true },
      { title: t('list.submittedAt'), dataIndex: 'submittedAt', key: 'submittedAt', dateTime: true },
      {
        title: t('list.action'),
        key: 'action',
        fixed: 'right',
        render: (_: unknown, row) => {
          const action = open && row.status !== 'SUBMITTED' ? 'score' : 'view';
          return (
            <Link to={detailPath(round, row.id)} aria-label={t(`list.${action}Of`, { name: row.projectName })} data-testid="row-action">
              {t(`list.${action}`)}
            </Link>
          );
        },
      },
    ],
    [t, open, round],
  );

  return (
    <div className="expert-list" data-testid={`review-list-${round}`}>
      <HiddenPageHeading />
      {progress && !open && <Alert className="expert-list__alert" type="info" showIcon title={t('list.closed')} data-testid="list-closed" />}
      <SearchTable<ExpertProjectRow>
        queryKey={EXPERT_QUERY_KEYS.list(pages.slug)}
        fetchPage={fetchPage}
        rowKey="id"
        columns={columns}
        searchFields={SEARCH_FIELDS}
        urlState
      />
    </div>
  );
}

export function PrelimReviewListPage() {
  return <ReviewListPage round="PRELIMINARY" />;
}

export function FinalReviewListPage() {
  return <ReviewListPage round="FINAL" />;
}
