import { Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CompareRow, ResultMovement } from '@contest/shared';
import { labelOf, useDictLabels } from '../../../components/contest';
import { AppealStatusTag, MovementTag, OutcomeTag } from '../../../components/results';
import { Change, RESULTS_PATHS, RESULT_MOVEMENTS_ORDER, TRACK_DICT, scoreText } from './results-common';

export interface CompareTableProps {
  rows: readonly CompareRow[];
  /** Column headings: the two versions' names (第 1 版 → 第 2 版, 当前 → 新版本). */
  aLabel: string;
  bLabel: string;
}

/**
 * One project per row in two versions: rank a → b, score a → b, outcome / award a → b, how it
 * moved (入选, 落选, 上升, 下降, 新增, 移除, 不变) and the appeals linked to it. Changed rows are marked.
 */
export function CompareTable({ rows, aLabel, bLabel }: CompareTableProps) {
  const { t } = useTranslation('results');
  const labels = useDictLabels([TRACK_DICT]);
  const columns: ColumnsType<CompareRow> = [
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      fixed: 'left',
      render: (name: string, row) => (
        <div className="results-cell--wide">
          <div>{name || t('common.untitled')}</div>
          <Typography.Text type="secondary">{row.teamName}</Typography.Text>
        </div>
      ),
    },
    { title: t('common.org'), dataIndex: 'orgName' },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels.data, TRACK_DICT, code) },
    {
      title: t('compare.rank', { a: aLabel, b: bLabel }),
      key: 'rank',
      render: (_, row) => <Change a={row.rankA} b={row.rankB} />,
    },
    {
      title: t('compare.score', { a: aLabel, b: bLabel }),
      key: 'score',
      render: (_, row) => <Change a={scoreText(row.scoreA)} b={scoreText(row.scoreB)} />,
    },
    {
      title: t('compare.outcome', { a: aLabel, b: bLabel }),
      key: 'outcome',
      render: (_, row) =>
        row.outcomeA === row.outcomeB && row.awardA === row.awardB ? (
          <OutcomeTag outcome={row.outcomeB} awardName={row.awardB} />
        ) : (
          <span className="results-change" data-testid="outcome-change">
            <OutcomeTag outcome={row.outcomeA} awardName={row.awardA} />
            <span aria-hidden>→ </span>
            <OutcomeTag outcome={row.outcomeB} awardName={row.awardB} />
          </span>
        ),
    },
    { title: t('compare.movement'), dataIndex: 'movement', render: (m: ResultMovement) => <MovementTag movement={m} /> },
    {
      title: t('compare.appeals'),
      key: 'appeals',
      render: (_, row) =>
        row.appeals.length === 0 ? null : (
          <Space size={[4, 4]} wrap>
            {row.appeals.map((a) => (
              <Tooltip key={a.id} title={a.reply ? `${a.reason}\n${t('compare.reply', { reply: a.reply })}` : a.reason}>
                <Link to={RESULTS_PATHS.appeal(a.id)} className="results-link" data-testid="linked-appeal">
                  <Space size={2}>
                    <Tag>{t('common.versionN', { n: a.version })}</Tag>
                    <AppealStatusTag status={a.status} />
                  </Space>
                </Link>
              </Tooltip>
            ))}
          </Space>
        ),
    },
  ];
  return (
    <Table<CompareRow>
      size="small"
      rowKey="projectId"
      columns={columns}
      dataSource={[...rows]}
      scroll={{ x: 'max-content' }}
      pagination={{ pageSize: 20, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
      rowClassName={(row) => (row.changed ? 'results-row--changed' : '')}
      locale={{ emptyText: t('compare.empty') }}
      data-testid="compare-table"
    />
  );
}

/** Counts per movement, in a fixed order, zeros left out. */
export function MovementSummary({ summary }: { summary: Record<ResultMovement, number> }) {
  const { t } = useTranslation('results');
  const shown = RESULT_MOVEMENTS_ORDER.filter((m) => (summary[m] ?? 0) > 0);
  return (
    <Space size={[4, 4]} wrap data-testid="movement-summary">
      {shown.length === 0 ? (
        <Typography.Text type="secondary">{t('compare.noChange')}</Typography.Text>
      ) : (
        shown.map((m) => (
          <span key={m} className="results-summary__item">
            <MovementTag movement={m} />
            <span className="results-num">{summary[m]}</span>
          </span>
        ))
      )}
    </Space>
  );
}
