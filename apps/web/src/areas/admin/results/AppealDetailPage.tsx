import { Empty, Space, Tag, Timeline, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { AppealDetail, AppealHistoryEntry, ContestAttachment, FileRef, ResultEntryView } from '@contest/shared';
import { DataTable, DetailLayout, formatDateTime, formatDateTimeLabel } from '../../../components/admin-kit';
import { AppealStatusTag, OutcomeTag } from '../../../components/results';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { AppealDecidePanel } from './AppealDecidePanel';
import { RESULTS_QUERY_KEYS, fetchAppeal } from './results-api';
import { TRACK_DICT, decidable, scoreText, useResultsAccess } from './results-common';
import '../admin-pages.css';
import './results.css';

const attachmentOf = (file: FileRef): ContestAttachment => ({ ...file, extension: file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '' });

/**
 * 申诉详情: the team, the project, the appeal's text and attachments (with preview), the project's line
 * in the version appealed against and in the current one, the decision once taken, the history; and,
 * for `appeal:decide` holders while it waits, the decision panel.
 */
export function AppealDetailPage() {
  const { t } = useTranslation('results');
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const access = useResultsAccess();
  const detail = useQuery({ queryKey: RESULTS_QUERY_KEYS.appeal(id), queryFn: () => fetchAppeal(id), enabled: id !== '' });

  const afterDecision = (next: AppealDetail) => {
    queryClient.setQueryData(RESULTS_QUERY_KEYS.appeal(id), next);
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.appeals });
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.overview });
  };
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.appeal(id) });
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.appeals });
  };

  return (
    <RecordDetailShell query={detail} className="results-page results-detail" testId="appeal-detail-page" loadFailed={t('common.loadFailed')} reload={t('common.reload')}>
      {(data) => (
        <DetailLayout
          title={data.projectName || t('common.untitled')}
          status={<AppealStatusTag status={data.status} />}
          sections={[
            {
              key: 'appeal',
              title: t('detail.appeal'),
              items: [
                { label: t('common.team'), value: data.teamName },
                { label: t('common.org'), value: data.orgName },
                { label: t('common.round'), value: `${t(`rounds.${data.round}`)} · ${t('common.versionN', { n: data.version })}` },
                { label: t('appeals.createdAt'), value: data.createdAt, dateTime: true },
                {
                  label: t('appeals.dueAt'),
                  dateTime: true,
                  value: (
                    <Space size={4} wrap>
                      <span>{formatDateTime(data.dueAt)}</span>
                      {data.overdue && (
                        <Tag color="red" data-testid="overdue-tag">
                          {t('appeals.overdue')}
                        </Tag>
                      )}
                    </Space>
                  ),
                },
                { label: t('common.track'), value: data.entry?.track ?? data.currentEntry?.track ?? null, dict: TRACK_DICT },
                { label: t('appeals.reason'), value: <div className="results-text" data-testid="appeal-reason">{data.reason}</div>, span: 2 },
              ],
            },
            { key: 'lines', title: t('detail.lines'), content: <LinesTable appeal={data} /> },
            ...(data.status !== 'SUBMITTED'
              ? [
                  {
                    key: 'decision',
                    title: t('detail.decision'),
                    items: [
                      { label: t('detail.decidedAt'), value: data.decidedAt, dateTime: true },
                      { label: t('detail.decidedBy'), value: data.decidedBy },
                      { label: t('decide.reply'), value: <div className="results-text" data-testid="appeal-reply">{data.reply}</div>, span: 2 },
                      ...(data.rereview
                        ? [
                            {
                              label: t('decide.mode'),
                              value:
                                data.rereview.mode === 'ADD_EXPERTS'
                                  ? t('detail.addedExperts', { count: data.rereview.expertIds.length })
                                  : t('rereviewMode.RETURN_SCORES'),
                            },
                          ]
                        : []),
                      ...(data.resolvedVersion !== null ? [{ label: t('detail.resolvedVersion'), value: t('common.versionN', { n: data.resolvedVersion }) }] : []),
                    ],
                  },
                ]
              : []),
            ...(decidable(data.status) && access.decide
              ? [
                  {
                    key: 'decide',
                    title: t('decide.title'),
                    content: <AppealDecidePanel key={data.rowVersion} appeal={data} onDecided={afterDecision} onReload={reload} />,
                  },
                ]
              : []),
            { key: 'history', title: t('detail.history'), content: <AppealHistory entries={data.history} /> },
          ]}
          attachments={[{ label: t('appeals.attachments'), files: data.attachments.map(attachmentOf) }]}
        />
      )}
    </RecordDetailShell>
  );
}

interface LineRow {
  key: string;
  label: string;
  entry: ResultEntryView | null;
}

/** The project's line in the version appealed against and in the current version. */
function LinesTable({ appeal }: { appeal: AppealDetail }) {
  const { t } = useTranslation('results');
  const rows: LineRow[] = [
    { key: 'appealed', label: t('detail.appealedLine', { n: appeal.version }), entry: appeal.entry },
    { key: 'current', label: t('detail.currentLine'), entry: appeal.currentEntry },
  ];
  const columns: ColumnsType<LineRow> = [
    { title: t('versions.version'), dataIndex: 'label' },
    { title: t('entries.rank'), key: 'rank', render: (_, r) => r.entry?.rank ?? null },
    { title: t('entries.trackRank'), key: 'trackRank', render: (_, r) => r.entry?.trackRank ?? null },
    { title: t('entries.score'), key: 'score', render: (_, r) => (r.entry ? scoreText(r.entry.score) : null) },
    { title: t('entries.outcome'), key: 'outcome', render: (_, r) => (r.entry ? <OutcomeTag outcome={r.entry.outcome} awardName={r.entry.awardName} /> : null) },
  ];
  return <DataTable<LineRow> rowKey="key" columns={columns} dataSource={rows} data-testid="appeal-lines" />;
}

/** The appeal's states and the project's results, oldest first; staff by name. */
function AppealHistory({ entries }: { entries: readonly AppealHistoryEntry[] }) {
  const { t } = useTranslation('results');
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noHistory')} />;
  const stateName = (entry: AppealHistoryEntry, status: string | null): string | null => {
    if (!status) return null;
    const key = entry.subject === 'APPEAL' ? `appealStatus.${status}` : `outcome.${status}`;
    return t(key as 'appealStatus.SUBMITTED', { defaultValue: status });
  };
  return (
    <Timeline
      data-testid="appeal-history"
      items={entries.map((e) => {
        const from = stateName(e, e.fromStatus);
        const to = stateName(e, e.toStatus);
        return {
          key: e.id,
          content: (
            <div data-testid="appeal-history-entry">
              <Space size={4} wrap>
                <Tag>{t(`detail.subject.${e.subject}`)}</Tag>
                <strong>{from ? `${from} → ${to}` : to}</strong>
                <Typography.Text type="secondary">
                  {formatDateTimeLabel(e.createdAt)} · {e.actorName}
                  {e.actorRealm === 'USER' ? ` ${t('detail.byTeam')}` : ''}
                </Typography.Text>
              </Space>
              {e.reason && <div className="results-text">{e.reason}</div>}
            </div>
          ),
        };
      })}
    />
  );
}
