import { useState } from 'react';
import { Button, Result, Skeleton, Statistic } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ReviewRound } from '@contest/shared';
import { KitTabs } from '../../../components/admin-kit';
import { AssignDialog } from './AssignDialog';
import { GroupsPanel } from './GroupsPanel';
import { REVIEW_QUERY_KEYS, fetchGroups } from './review-api';
import { RoundProjectsPanel } from './RoundProjectsPanel';
import { RubricCard } from './RubricCard';
import { slugOf, useRoundAccess, type RoundProps } from './round';
import '../admin-pages.css';
import './review.css';

const TABS = ['groups', 'projects', 'rubric'] as const;
type Tab = (typeof TABS)[number];

/**
 * 初赛评审分组 / 决赛评审分组: the round's figures (eligible, not in a group, minimum experts per
 * project) and 自动分配; tabs for the groups, the projects with their placement, and the rubric
 * with the scoring rule. The tab is in the URL (?tab=), so a reload stays on it.
 */
export function ReviewGroupsPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const queryClient = useQueryClient();
  const slug = slugOf(round);
  const access = useRoundAccess(round);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as Tab) : 'groups';
  const [assigning, setAssigning] = useState(false);

  const overview = useQuery({ queryKey: REVIEW_QUERY_KEYS.groups(slug), queryFn: () => fetchGroups(slug) });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.groups(slug) });
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.projects(slug) });
  };

  const setTab = (key: string) =>
    setParams(
      (current) => {
        // The projects tab keeps its filters in the URL; another tab starts clean.
        const next = key === 'projects' ? new URLSearchParams(current) : new URLSearchParams();
        next.set('tab', key);
        return next;
      },
      { replace: true },
    );

  const data = overview.data;
  return (
    <section className="admin-page review-page" data-testid="review-groups-page">
      <div className="review-head">
        <h1 className="admin-page__title">{t(`titles.groups.${round}`)}</h1>
        {access.groupEdit && (
          <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setAssigning(true)} disabled={!data} data-testid="assign-open">
            {t('assign.open')}
          </Button>
        )}
      </div>
      {overview.isError ? (
        <Result
          status="warning"
          title={t('groups.loadFailed')}
          extra={<Button onClick={() => void overview.refetch()}>{t('common.reload')}</Button>}
        />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="groups-loading" />
      ) : (
        <>
          <div className="review-figures" data-testid="groups-figures">
            <Statistic title={t('groups.eligible')} value={data.eligible} />
            <Statistic
              title={t('groups.unassigned')}
              value={data.unassigned}
              styles={data.unassigned > 0 ? { content: { color: 'var(--ant-color-warning, #faad14)' } } : undefined}
            />
            <Statistic title={t('groups.groupCount')} value={data.groups.length} />
            <Statistic title={t('groups.minExperts')} value={data.minExperts} />
          </div>
          <KitTabs
            activeKey={tab}
            onChange={setTab}
            items={[
              {
                key: 'groups',
                txtMes: t('tabs.groups'),
                component: <GroupsPanel round={round} overview={data} canEdit={access.groupEdit} onChanged={refresh} />,
              },
              {
                key: 'projects',
                txtMes: t('tabs.projects'),
                component: <RoundProjectsPanel round={round} overview={data} canEdit={access.groupEdit} onChanged={refresh} />,
              },
              { key: 'rubric', txtMes: t('tabs.rubric'), component: <RubricCard round={round} canEdit={access.groupEdit} /> },
            ]}
          />
        </>
      )}
      <AssignDialog round={round} open={assigning} onClose={() => setAssigning(false)} onApplied={refresh} />
    </section>
  );
}

export function PrelimGroupsPage() {
  return <ReviewGroupsPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalGroupsPage() {
  return <ReviewGroupsPage round={'FINAL' satisfies ReviewRound} />;
}
