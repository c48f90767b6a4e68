import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { beijingTimeLabel } from '../../../lib/beijing-time';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROUND_SLUGS, round2, type ContestAttachment, type FileRef, type MyAppeal, type MyResults, type MyRoundResult } from '@contest/shared';
import { AttachmentList } from '../../../components/contest';
import { AppealStatusTag, OutcomeTag, PeriodCountdown, useResultsMessage, useServerClock } from '../../../components/results';
import { AppealDialog } from './AppealDialog';
import { saveBlob } from '../../../lib/save-blob';
import { MY_RESULTS_QUERY_KEY, fetchMyResults, fetchReceipt } from './results-api';
import './results-card.css';

/** Deadlines and decisions: Beijing time, marked as such (lib/beijing-time.ts). */
const time = (iso: string | null) => beijingTimeLabel(iso, 'minute') || '--';
const attachmentOf = (file: FileRef): ContestAttachment => ({ ...file, extension: file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '' });
/** The public notice of the result (大赛动态). */
const noticePath = (id: string) => `/dynamic-detail?id=${encodeURIComponent(id)}`;

/**
 * 评审结果 (docs/rules/results.md): one card per published round with the team's outcome, rank and score,
 * the 公示 period's countdown, the appeal window, the team's appeal and its answer, and 提出申诉
 * while the server says an appeal can be filed (after the window the button is gone and the reason
 * is shown). Nothing before a round is published, nothing when the call fails.
 */
/**
 * Whether the team's final-round result is out (published with its line): the 晋级决赛 banner gives
 * way to it. undefined while the results load; false when they cannot be loaded.
 */
export function useFinalResultOut(): boolean | undefined {
  const mine = useQuery({ queryKey: MY_RESULTS_QUERY_KEY, queryFn: fetchMyResults, retry: false });
  if (mine.isPending) return undefined;
  return (mine.data?.rounds ?? []).some((r) => r.round === 'FINAL' && r.published && r.entry !== null);
}

export function ResultCards() {
  const mine = useQuery({ queryKey: MY_RESULTS_QUERY_KEY, queryFn: fetchMyResults, retry: false });
  const now = useServerClock(mine.data?.now);
  const rounds = (mine.data?.rounds ?? []).filter((r) => r.published);
  if (rounds.length === 0) return null;
  // The latest round first: the final's result is the news once it is out.
  const ordered = [...rounds].sort((a, b) => (a.round === b.round ? 0 : a.round === 'FINAL' ? -1 : 1));
  return (
    <div className="results-cards" data-testid="result-cards">
      {ordered.map((result) => (
        <ResultCard key={result.round} result={result} now={now} />
      ))}
    </div>
  );
}

function ResultCard({ result, now }: { result: MyRoundResult; now: number }) {
  const { t } = useTranslation('results');
  const translate = useResultsMessage();
  const queryClient = useQueryClient();
  const [appealing, setAppealing] = useState(false);
  const { entry, appeal } = result;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: MY_RESULTS_QUERY_KEY });

  return (
    <Card
      size="small"
      className="results-card contest-card"
      data-testid={`result-card-${result.round}`}
      title={t('mine.title', { round: t(`rounds.${result.round}`) })}
      extra={result.version !== null && result.version > 1 ? <Tag color="orange">{t('mine.revised', { n: result.version })}</Tag> : undefined}
    >
      {entry ? (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 1, md: 2 }}
          items={[
            {
              key: 'outcome',
              label: t('mine.outcome'),
              children: (
                <span className="results-card__outcome">
                  <OutcomeTag outcome={entry.outcome} awardName={entry.awardName} />
                </span>
              ),
            },
            ...(entry.rank !== null
              ? [
                  {
                    key: 'rank',
                    label: t('mine.rank'),
                    children: (
                      <span data-testid="my-rank">
                        {entry.trackRank !== null ? t('mine.rankWithTrack', { n: entry.rank, track: entry.trackRank }) : t('mine.rankN', { n: entry.rank })}
                      </span>
                    ),
                  },
                ]
              : []),
            ...(entry.score !== null ? [{ key: 'score', label: t('mine.score'), children: round2(entry.score).toFixed(2) }] : []),
            {
              key: 'period',
              label: t('mine.period'),
              children: result.periodEndsAt && (
                <Space size={4} wrap>
                  <span>{t('mine.until', { at: time(result.periodEndsAt) })}</span>
                  <PeriodCountdown endsAt={result.periodEndsAt} now={now} />
                </Space>
              ),
            },
            ...(result.appealEndsAt
              ? [
                  {
                    key: 'appealWindow',
                    label: t('mine.appealWindow'),
                    children: (
                      <Space size={4} wrap>
                        <span>{t('mine.until', { at: time(result.appealEndsAt) })}</span>
                        <PeriodCountdown endsAt={result.appealEndsAt} now={now} data-testid="appeal-countdown" />
                      </Space>
                    ),
                  },
                ]
              : []),
            ...(result.newsId
              ? [{ key: 'notice', label: t('mine.notice'), children: <Link to={noticePath(result.newsId)}>{t('mine.openNotice')}</Link> }]
              : []),
            ...(result.anchor ? [{ key: 'receipt', label: t('mine.receipt'), span: 'filled' as const, children: <ReceiptItem result={result} anchor={result.anchor} /> }] : []),
          ]}
        />
      ) : (
        <Typography.Paragraph type="secondary" data-testid="no-entry">
          {t('mine.noEntry')}
        </Typography.Paragraph>
      )}

      {appeal && <AppealView appeal={appeal} />}

      {result.canAppeal ? (
        <div className="results-card__actions">
          <Button type="primary" ghost icon={<ExclamationCircleOutlined />} onClick={() => setAppealing(true)} data-testid="appeal-open">
            {t('mine.appeal')}
          </Button>
          <Typography.Text type="secondary">{t('mine.appealHint')}</Typography.Text>
        </div>
      ) : (
        !appeal &&
        result.appealBlocker && (
          <Alert type="info" showIcon className="results-card__blocker" title={translate(result.appealBlocker)} data-testid="appeal-blocker" />
        )
      )}

      <AppealDialog
        round={result.round}
        open={appealing}
        onClose={() => setAppealing(false)}
        onSubmitted={(filed) => {
          // Shown at once; the whole answer (canAppeal, counts) is read again behind it.
          queryClient.setQueryData<MyResults>(MY_RESULTS_QUERY_KEY, (old) =>
            old ? { ...old, rounds: old.rounds.map((r) => (r.round === result.round ? { ...r, appeal: filed, canAppeal: false } : r)) } : old,
          );
          refresh();
        }}
        onRefused={refresh}
      />
    </Card>
  );
}

/** The team's appeal: its state, what was written and attached, and the organisers' answer. */
function AppealView({ appeal }: { appeal: MyAppeal }) {
  const { t } = useTranslation('results');
  const note =
    appeal.status === 'SUBMITTED'
      ? t('mine.appealWaiting', { at: time(appeal.dueAt) })
      : appeal.status === 'ACCEPTED'
        ? t('mine.appealAccepted')
        : appeal.status === 'RESOLVED'
          ? t('mine.appealResolved', { n: appeal.resolvedVersion ?? appeal.version + 1 })
          : null;
  return (
    <div className="results-card__appeal" data-testid="my-appeal">
      <Space size={4} wrap>
        <strong>{t('mine.myAppeal')}</strong>
        <AppealStatusTag status={appeal.status} audience="user" />
        <Typography.Text type="secondary">{t('mine.filedAt', { at: time(appeal.createdAt) })}</Typography.Text>
      </Space>
      {note && (
        <Typography.Paragraph className="results-card__note" data-testid="appeal-note">
          {note}
        </Typography.Paragraph>
      )}
      <div className="results-card__text">{appeal.reason}</div>
      {appeal.attachments.length > 0 && <AttachmentList files={appeal.attachments.map(attachmentOf)} />}
      {appeal.reply && (
        <div className="results-card__reply" data-testid="appeal-reply">
          <strong>{t('mine.reply')}</strong>
          {appeal.decidedAt && <Typography.Text type="secondary"> {time(appeal.decidedAt)}</Typography.Text>}
          <div className="results-card__text">{appeal.reply}</div>
        </div>
      )}
    </div>
  );
}

/**
 * 存证回执 (docs/security.md): the head published with the notice, and the team's own score-log
 * entries with their Merkle paths as a JSON file anyone can check against it (docs/security.md).
 */
function ReceiptItem({ result, anchor }: { result: MyRoundResult; anchor: NonNullable<MyRoundResult['anchor']> }) {
  const { t } = useTranslation('results');
  const [loading, setLoading] = useState(false);
  const download = async () => {
    setLoading(true);
    try {
      const receipt = await fetchReceipt(ROUND_SLUGS[result.round]);
      const blob = new Blob([`${JSON.stringify(receipt, null, 2)}\n`], { type: 'application/json' });
      saveBlob({ blob, fileName: null }, `score-receipt-${ROUND_SLUGS[result.round]}-v${receipt.publication.version}.json`);
    } catch {
      // The API client has shown the refusal.
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="results-card__receipt" data-testid="receipt">
      <Typography.Text type="secondary">{t('mine.receiptHead', { seq: anchor.seq })}</Typography.Text>
      <Typography.Text className="results-card__hash" copyable={{ text: anchor.merkleRoot }} data-testid="receipt-root">
        {t('mine.receiptRoot')}：{anchor.merkleRoot}
      </Typography.Text>
      <div>
        <Button size="small" icon={<DownloadOutlined />} loading={loading} onClick={() => void download()} data-testid="receipt-download">
          {t('mine.receiptDownload')}
        </Button>
      </div>
    </div>
  );
}
