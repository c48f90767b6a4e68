import { useState } from 'react';
import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { REVIEW_ROUNDS, SCORE_LOG_KINDS, type ScoreLogAnchorView, type ScoreLogEntryView, type ScoreLogVerifyAnswer } from '@contest/shared';
import { ExportButton, SearchTable, beijingTitle, formatDateTime, withDateTimes, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { Permission } from '../../../lib/permission';
import { ScoreLogDetail, useScoreLogLabels } from './ScoreLogDetail';
import { SCORE_LOG_EXPORT_URL, SCORE_LOG_QUERY_KEYS, fetchScoreLogAnchors, fetchScoreLogPage, verifyScoreLog } from './score-log-api';
import './score-log.css';

const FIELDS: SearchField[] = [
  { name: 'kind', label: 'scoreLog:filters.kind', kind: 'select', options: SCORE_LOG_KINDS.map((k) => ({ value: k, label: `scoreLog:kind.${k}` })) },
  { name: 'round', label: 'scoreLog:filters.round', kind: 'select', options: REVIEW_ROUNDS.map((r) => ({ value: r, label: `scoreLog:round.${r}` })) },
  { name: 'keyword', label: 'scoreLog:filters.keyword', kind: 'text', placeholder: 'scoreLog:filters.keywordPlaceholder', width: 220 },
  { name: 'subjectId', label: 'scoreLog:filters.subjectId', kind: 'text', placeholder: 'scoreLog:filters.subjectIdPlaceholder', width: 300 },
  { name: 'seq', label: 'scoreLog:filters.seq', kind: 'text', width: 120 },
  { name: 'at', label: 'scoreLog:filters.at', kind: 'dateTimeRange', fromName: 'from', toName: 'to' },
];

/** Characters of a hash shown in the list; the drawer shows all 64. */
const HASH_PREFIX = 12;

/** The entry a verification points at in the list: the broken one, or for a gap the one after it. */
const shownSeqOf = (result: ScoreLogVerifyAnswer | null): number | null => {
  const b = result?.firstBroken;
  if (!b) return null;
  return b.reason === 'GAP' ? Number(b.found) : b.seq;
};

/**
 * 评分存证 (/admin/results/score-log): the tamper-evident log of scores, returns, re-reviews,
 * promotions, publications and appeal decisions (docs/rules/results.md, "Score log"). Filters live in the URL; 校验
 * recomputes the whole chain on the server and names the first broken entry, which the list
 * then marks (and can show alone); holders of score-log:export download it as .xlsx or JSONL
 * (the form an inspector recomputes the hashes from, docs/api-results.md).
 */
export function ScoreLogPage() {
  const { t } = useTranslation('scoreLog');
  const { t: ta } = useTranslation('admin');
  const labels = useScoreLogLabels();
  const [, setParams] = useSearchParams();
  const [open, setOpen] = useState<ScoreLogEntryView | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [result, setResult] = useState<ScoreLogVerifyAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const shownSeq = shownSeqOf(result);

  const verify = async () => {
    setVerifying(true);
    setFailed(false);
    try {
      setResult(await verifyScoreLog());
    } catch {
      // The client has shown the refusal; the panel says the check did not finish.
      setResult(null);
      setFailed(true);
    } finally {
      setVerifying(false);
    }
  };

  const columns: SearchColumns<ScoreLogEntryView> = [
    {
      title: t('fields.seq'),
      dataIndex: 'seq',
      width: 110,
      render: (seq: number) =>
        seq === shownSeq ? (
          <Tag color="error" data-testid="score-log-broken-row">
            {seq} {t('verify.brokenRow')}
          </Tag>
        ) : (
          seq
        ),
    },
    { title: t('fields.at'), dataIndex: 'at', dateTime: true, width: 170 },
    { title: t('fields.kind'), dataIndex: 'kind', render: (kind: string) => labels.kind(kind) },
    { title: t('fields.round'), dataIndex: 'round', render: (round: ScoreLogEntryView['round']) => labels.round(round) },
    {
      title: t('fields.subject'),
      key: 'subject',
      render: (_, row) => (
        <span title={row.subjectId}>
          {labels.subjectType(row.subjectType)} <span className="score-log-hash-cell">{row.subjectId.length > 13 ? `${row.subjectId.slice(0, 8)}…` : row.subjectId}</span>
        </span>
      ),
    },
    { title: t('fields.actor'), dataIndex: 'actorName', render: (name: string) => name || t('fields.system') },
    {
      title: t('fields.hash'),
      dataIndex: 'hash',
      render: (hash: string) => (
        <span className="score-log-hash-cell" title={hash}>
          {hash.slice(0, HASH_PREFIX)}…
        </span>
      ),
    },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setOpen(row)} data-testid="score-log-detail-open">
          {t('actions.detail')}
        </Button>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="score-log-page">
      <h1 className="admin-page__title">{t('title')}</h1>
      <Typography.Paragraph type="secondary" className="score-log-intro">
        {t('intro')}
      </Typography.Paragraph>

      <div className="score-log-verify" data-testid="score-log-verify">
        <Space wrap>
          <Button type="primary" icon={<SafetyCertificateOutlined />} loading={verifying} onClick={() => void verify()} data-testid="score-log-verify-button">
            {result ? t('actions.verifyAgain') : t('actions.verify')}
          </Button>
          <Typography.Text type="secondary">{verifying ? t('verify.running') : t('verify.hint')}</Typography.Text>
        </Space>
        {failed && <Alert className="score-log-verify__result" type="warning" showIcon title={t('verify.failed')} data-testid="score-log-verify-failed" />}
        {result && <VerifyResult result={result} onShow={(seq) => setParams({ seq: String(seq) })} onShowAll={() => setParams({})} />}
        {result && <OtherFindings result={result} />}
      </div>

      <SearchTable<ScoreLogEntryView>
        queryKey={SCORE_LOG_QUERY_KEYS.list}
        fetchPage={fetchScoreLogPage}
        rowKey="seq"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={(filters) => (
          <Permission codes={['score-log:export']}>
            <Space>
              <ExportButton url={SCORE_LOG_EXPORT_URL} params={{ ...filters, format: 'xlsx' }} fallbackName="score-log.xlsx" data-testid="score-log-export-xlsx">
                {t('actions.exportXlsx')}
              </ExportButton>
              <ExportButton url={SCORE_LOG_EXPORT_URL} params={{ ...filters, format: 'jsonl' }} fallbackName="score-log.jsonl" data-testid="score-log-export-jsonl">
                {t('actions.exportJsonl')}
              </ExportButton>
            </Space>
          </Permission>
        )}
      />

      <PublishedHeads />

      <SideDrawer open={open !== null} title={open ? t('detail.title', { seq: open.seq }) : ''} onClose={() => setOpen(null)}>
        {open && <ScoreLogDetail entry={open} broken={open.seq === shownSeq ? result?.firstBroken : undefined} />}
      </SideDrawer>
    </section>
  );
}

/** What a verification found: intact (count, last hash), or the first broken entry with what was expected and found. */
function VerifyResult({ result, onShow, onShowAll }: { result: ScoreLogVerifyAnswer; onShow(seq: number): void; onShowAll(): void }) {
  const { t } = useTranslation('scoreLog');
  const b = result.firstBroken;
  const checkedAt = (
    <div>
      {beijingTitle(t('verify.checkedAt'))}：{formatDateTime(result.checkedAt)}
    </div>
  );
  if (!b && !result.ok) return null;
  if (!b) {
    return (
      <Alert
        className="score-log-verify__result"
        type="success"
        showIcon
        data-testid="score-log-verify-ok"
        title={t('verify.ok')}
        description={
          <>
            <div>{result.count === 0 ? t('verify.empty') : t('verify.okDetail', { count: result.count, lastSeq: result.lastSeq, tookMs: result.tookMs })}</div>
            <div data-testid="score-log-verify-scope">{t('verify.scope', { anchors: result.anchors.count, sheets: result.live.sheets })}</div>
            <div>
              {t('verify.lastHash')}：
              <Typography.Text className="score-log-mono" copyable data-testid="score-log-last-hash">
                {result.lastHash}
              </Typography.Text>
            </div>
            {checkedAt}
          </>
        }
      />
    );
  }
  const shown = b.reason === 'GAP' ? Number(b.found) : b.seq;
  return (
    <Alert
      className="score-log-verify__result"
      type="error"
      showIcon
      data-testid="score-log-verify-broken"
      title={t('verify.broken', { seq: b.seq })}
      description={
        <>
          <div>
            {t('verify.reason')}：{t(`verify.reasons.${b.reason}`)}
          </div>
          <div>
            {t('verify.expected')}：<Typography.Text className="score-log-mono" data-testid="score-log-expected">{b.expected}</Typography.Text>
          </div>
          <div>
            {t('verify.found')}：<Typography.Text className="score-log-mono" data-testid="score-log-found">{b.found}</Typography.Text>
          </div>
          <div>{t('verify.brokenDetail', { count: result.count, tookMs: result.tookMs })}</div>
          {checkedAt}
          <Space style={{ marginTop: 8 }}>
            <Button size="small" danger onClick={() => onShow(shown)} data-testid="score-log-show-broken">
              {t('actions.showBroken')}
            </Button>
            <Button size="small" onClick={onShowAll}>
              {t('actions.showAll')}
            </Button>
          </Space>
        </>
      }
    />
  );
}


/**
 * What the chain alone cannot show (docs/security.md): a published head the log no longer matches
 * (rewritten after publication, even with every hash recomputed), and the first score sheet whose
 * live data differs from its last entry, named by sheet, project, expert and field.
 */
function OtherFindings({ result }: { result: ScoreLogVerifyAnswer }) {
  const { t } = useTranslation('scoreLog');
  const a = result.anchors.firstMismatch;
  const d = result.live.firstDifference;
  return (
    <>
      {a && (
        <Alert
          className="score-log-verify__result"
          type="error"
          showIcon
          data-testid="score-log-anchor-mismatch"
          title={t('verify.anchorMismatch', { round: t(`round.${a.round}`), version: a.version, seq: a.seq })}
          description={
            <>
              <div>
                {t('verify.reason')}：{t(`verify.anchorReasons.${a.reason}`)}
              </div>
              <div>
                {t('verify.published')}：<Typography.Text className="score-log-mono">{a.expected}</Typography.Text>
              </div>
              <div>
                {t('verify.recomputed')}：<Typography.Text className="score-log-mono">{a.found || '—'}</Typography.Text>
              </div>
            </>
          }
        />
      )}
      {d && (
        <Alert
          className="score-log-verify__result"
          type="error"
          showIcon
          data-testid="score-log-live-difference"
          title={t('verify.liveDifference')}
          description={
            <>
              <div>
                {t('verify.reason')}：{t(`verify.liveReasons.${d.reason}`)}
              </div>
              <div data-testid="score-log-live-where">
                {t('verify.liveWhere', { sheet: d.sheetId, project: d.projectName || d.projectId, expert: d.expertCode || d.expertId, field: d.field })}
              </div>
              <div>
                {t('verify.inLog', { seq: d.seq ?? '—' })}：<Typography.Text className="score-log-mono">{d.expected || '—'}</Typography.Text>
              </div>
              <div>
                {t('verify.now')}：<Typography.Text className="score-log-mono">{d.found || '—'}</Typography.Text>
              </div>
            </>
          }
        />
      )}
    </>
  );
}

/** The heads printed in the 公示 notices: what receipts and later verifications are held to. */
function PublishedHeads() {
  const { t } = useTranslation('scoreLog');
  const { data } = useQuery({ queryKey: SCORE_LOG_QUERY_KEYS.anchors, queryFn: fetchScoreLogAnchors });
  const list = data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <div className="score-log-anchors" data-testid="score-log-anchors">
      <h2 className="score-log-anchors__title">{t('anchors.title')}</h2>
      <Typography.Paragraph type="secondary">{t('anchors.hint')}</Typography.Paragraph>
      <Table<ScoreLogAnchorView>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={list}
        scroll={{ x: 'max-content' }}
        columns={withDateTimes<ScoreLogAnchorView>([
          { title: t('anchors.publishedAt'), dataIndex: 'publishedAt', dateTime: true },
          { title: t('anchors.version'), key: 'version', render: (_: unknown, a) => t('anchors.versionText', { round: t(`round.${a.round}`), version: a.version }) },
          { title: t('anchors.seq'), dataIndex: 'seq' },
          { title: t('anchors.headHash'), dataIndex: 'headHash', render: (v: string) => <Typography.Text className="score-log-mono" copyable>{v}</Typography.Text> },
          { title: t('anchors.merkleRoot'), dataIndex: 'merkleRoot', render: (v: string) => <Typography.Text className="score-log-mono" copyable>{v}</Typography.Text> },
        ])}
      />
    </div>
  );
}
