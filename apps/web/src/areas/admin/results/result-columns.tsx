import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { ResultEntryView } from '@contest/shared';
import { labelOf, useDictLabels } from '../../../components/contest';
import { OutcomeTag } from '../../../components/results';
import { TRACK_DICT, scoreText } from './results-common';

/** The lines of a version (or of a preview): rank, track rank, project and team, org, track, score, outcome. */
export function useEntryColumns(): ColumnsType<ResultEntryView> {
  const { t } = useTranslation('results');
  const labels = useDictLabels([TRACK_DICT]);
  return [
    {
      title: t('entries.rank'),
      dataIndex: 'rank',
      width: 64,
      fixed: 'left',
      render: (v: number | null) => v ?? <Typography.Text type="secondary">{t('entries.unranked')}</Typography.Text>,
    },
    { title: t('entries.trackRank'), dataIndex: 'trackRank', width: 80, render: (v: number | null) => v ?? '--' },
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      render: (name: string, row) => (
        <div className="results-cell--wide">
          <div>{name || t('common.untitled')}</div>
          <Typography.Text type="secondary">{row.teamName}</Typography.Text>
        </div>
      ),
    },
    { title: t('common.org'), dataIndex: 'orgName' },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels.data, TRACK_DICT, code) },
    { title: t('entries.score'), dataIndex: 'score', align: 'right', render: (v: number | null) => <span className="results-num">{scoreText(v)}</span> },
    {
      title: t('entries.outcome'),
      dataIndex: 'outcome',
      render: (_: unknown, row) => <OutcomeTag outcome={row.outcome} awardName={row.awardName} />,
    },
  ];
}
