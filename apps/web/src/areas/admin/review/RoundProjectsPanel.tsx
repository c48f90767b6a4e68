import { useMemo, useState } from 'react';
import { Button, Form, Select, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GroupsOverview, ReviewRound, RoundProjectRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { ConflictTag } from './ConflictTag';
import { REVIEW_QUERY_KEYS, fetchRoundProjects, moveProject } from './review-api';
import { ReviewReasonDialog } from './ReviewReasonDialog';
import { TRACK_DICT, slugOf } from './round';

/** The select's value for 移出分组 (the call takes null). */
const OUT = '__none__';

export interface RoundProjectsPanelProps {
  round: ReviewRound;
  overview: GroupsOverview | undefined;
  canEdit: boolean;
  onChanged(): void;
}

/** 项目分组: every project of the round with its group, why it is there, scores in / expected and conflicts; 调整分组. */
export function RoundProjectsPanel({ round, overview, canEdit, onChanged }: RoundProjectsPanelProps) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const slug = slugOf(round);
  const [moving, setMoving] = useState<RoundProjectRow | null>(null);
  const [target, setTarget] = useState<string | undefined>(undefined);

  const groups = overview?.groups ?? [];
  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'review:projects.keyword', kind: 'text', placeholder: 'review:projects.keywordPlaceholder' },
      {
        name: 'groupId',
        label: 'review:common.group',
        kind: 'select',
        options: [{ value: 'none', label: 'review:projects.ungrouped' }, ...groups.map((g) => ({ value: g.id, label: g.name }))],
      },
      { name: 'track', label: 'review:common.track', kind: 'dict', dictType: TRACK_DICT },
    ],
    [groups],
  );

  const fetchPage = (params: object) => fetchRoundProjects(slug, params);

  const columns: SearchColumns<RoundProjectRow> = [
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      render: (name: string, row) => (
        <div className="review-cell--wide">
          <div>{name || t('common.untitled')}</div>
          <Typography.Text type="secondary">{row.teamName}</Typography.Text>
        </div>
      ),
    },
    { title: t('common.org'), dataIndex: 'orgName' },
    { title: t('common.track'), dataIndex: 'track', dict: TRACK_DICT },
    {
      title: t('common.group'),
      dataIndex: 'groupName',
      render: (name: string | null) => name ?? <Tag>{t('projects.ungrouped')}</Tag>,
    },
    {
      title: t('projects.source'),
      key: 'source',
      render: (_, row) =>
        row.source ? (
          <div className="review-cell--wide">
            <Tag color={row.source === 'AUTO' ? 'geekblue' : 'purple'}>{t(`projects.sources.${row.source}`)}</Tag>
            {row.reason && <div className="review-reason">{row.reason}</div>}
          </div>
        ) : null,
    },
    {
      title: t('common.scoresIn'),
      key: 'scores',
      render: (_, row) => (row.groupId ? t('common.ofExpected', { n: row.scoresIn, expected: row.expected }) : null),
    },
    { title: t('conflicts.title'), key: 'conflicts', render: (_, row) => <ConflictTag conflicts={row.conflicts} /> },
    ...(canEdit
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, row: RoundProjectRow) => (
              <Tooltip title={row.hasSheets ? t('projects.hasSheets') : undefined}>
                <Button
                  type="link"
                  size="small"
                  disabled={row.hasSheets}
                  onClick={() => {
                    setTarget(undefined);
                    setMoving(row);
                  }}
                  data-testid="project-move"
                >
                  {t('projects.move')}
                </Button>
              </Tooltip>
            ),
          },
        ]
      : []),
  ];

  const move = async (reason: string) => {
    if (!moving) return;
    if (target === undefined) throw new Error(t('projects.targetRequired'));
    await moveProject(slug, moving.id, { groupId: target === OUT ? null : target, ...(reason ? { reason } : {}) });
    void message.success(t('projects.moved'));
    onChanged();
  };

  return (
    <div data-testid="projects-panel">
      <SearchTable<RoundProjectRow>
        queryKey={REVIEW_QUERY_KEYS.projects(slug)}
        fetchPage={fetchPage}
        rowKey="id"
        columns={columns}
        searchFields={fields}
        urlState
      />
      <ReviewReasonDialog
        open={moving !== null}
        title={t('projects.moveTitle')}
        required={false}
        label={t('projects.moveReason')}
        onClose={() => setMoving(null)}
        onSubmit={move}
      >
        {moving && (
          <>
            <p>{t('projects.moveOf', { name: moving.projectName || t('common.untitled'), group: moving.groupName ?? t('projects.ungrouped') })}</p>
            <Form layout="vertical">
              <Form.Item label={t('projects.target')} required htmlFor="review-move-target">
                <Select
                  id="review-move-target"
                  value={target}
                  onChange={setTarget}
                  placeholder={t('projects.targetPlaceholder')}
                  options={[
                    ...groups.filter((g) => g.id !== moving.groupId).map((g) => ({ value: g.id, label: g.name })),
                    ...(moving.groupId ? [{ value: OUT, label: t('projects.moveOut') }] : []),
                  ]}
                  data-testid="move-target"
                />
              </Form.Item>
            </Form>
          </>
        )}
      </ReviewReasonDialog>
    </div>
  );
}
