import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, InputNumber, Radio, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { PROMOTION_MODES, type PromotionBody, type PromotionMode, type PromotionPreview, type PromotionRankRow, type PromotionResult } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { labelOf, useDictLabels } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { DecidedByTag } from './DecidedByTag';
import { errorText, isStale } from './errors';
import { confirmPromotion, previewPromotion } from './review-api';
import { TRACK_DICT, points } from './round';
import { RuleText } from './RuleText';
import '../admin-pages.css';
import './review.css';

/** api.ts promotionFields: N from 1 to 1000. */
const N_MAX = 1000;

export interface PromotionDialogProps {
  open: boolean;
  onClose(): void;
  /** After the server confirmed: the final list is read again by the caller. */
  onPromoted(result: PromotionResult): void;
}

const sameBody = (a: PromotionBody | null, b: PromotionBody | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * 晋级决赛: from the preliminary ranking, the top N overall, the top N of each track, or projects
 * picked by hand; 预览 shows the whole ranking with who goes (highlighted), who is tied at the cut
 * line and who is in the final already, and warns while preliminary scoring is still open.
 * 确认晋级 confirms exactly what was previewed (its token); a changed ranking is previewed again.
 */
export function PromotionDialog({ open, onClose, onPromoted }: PromotionDialogProps) {
  const { t } = useTranslation('review');
  const { modal } = useFeedback();
  const labels = useDictLabels([TRACK_DICT]);
  const [mode, setMode] = useState<PromotionMode>('TOP_OVERALL');
  const [n, setN] = useState<number | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [preview, setPreview] = useState<PromotionPreview | null>(null);
  const [previewed, setPreviewed] = useState<PromotionBody | null>(null);
  const [loading, setLoading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);

  useEffect(() => {
    if (open) return;
    setMode('TOP_OVERALL');
    setN(null);
    setPicked([]);
    setPreview(null);
    setPreviewed(null);
    setError(null);
    setStale(false);
  }, [open]);

  /** What the form asks for now; null while incomplete. */
  const body = useMemo<PromotionBody | null>(() => {
    if (mode === 'PICKED') return picked.length > 0 ? { mode, ids: [...picked].sort() } : null;
    return n !== null ? { mode, n, ids: [] } : null;
  }, [mode, n, picked]);

  const runPreview = async (request: PromotionBody, keepSelection = false) => {
    setLoading(true);
    setError(null);
    setStale(false);
    try {
      const answer = await previewPromotion(request);
      setPreview(answer);
      if (!keepSelection) setPreviewed(request);
      else setPreviewed(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  };

  // 手动选择 before any ranking is shown: the ranking is read through a preview of the first
  // project (the call needs a choice); nothing counts as chosen until 预览 with the picks.
  const loadRanking = () => void runPreview({ mode: 'TOP_OVERALL', n: 1, ids: [] }, true);

  /** Promotion writes the final list for many projects at once: it asks first, naming how many. */
  const askFirst = () => {
    if (!preview || !body || !previewed || !sameBody(body, previewed)) return;
    const selected = preview.ranking.filter((r) => r.selected);
    modal.confirm({
      title: t('promotion.confirmTitle'),
      content: `${t('promotion.count', { count: selected.length, already: selected.filter((r) => r.inFinal).length })}${t('promotion.confirmHint')}`,
      okText: t('promotion.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => confirm(),
    });
  };

  const confirm = async () => {
    if (!preview || !body || !previewed || !sameBody(body, previewed)) return;
    setConfirming(true);
    setError(null);
    try {
      const result = await confirmPromotion({ ...body, token: preview.token });
      onPromoted(result);
      onClose();
    } catch (e) {
      if (isStale(e)) setStale(true);
      else setError(errorText(e));
    } finally {
      setConfirming(false);
    }
  };

  const changeMode = (next: PromotionMode) => {
    // Switching to 手动选择 starts from what the last preview selected.
    if (next === 'PICKED' && preview && picked.length === 0 && previewed) {
      setPicked(preview.ranking.filter((r) => r.selected).map((r) => r.id));
    }
    setMode(next);
  };

  const current = preview !== null && body !== null && previewed !== null && sameBody(body, previewed);
  const cut = new Set(preview?.atCutLine.map((r) => r.id) ?? []);
  const isChosen = (row: PromotionRankRow) => (mode === 'PICKED' && !current ? picked.includes(row.id) : current && row.selected);
  const already = current ? (preview?.ranking.filter((r) => r.selected && r.inFinal).length ?? 0) : 0;

  const columns: ColumnsType<PromotionRankRow> = [
    { title: t('scores.rank'), dataIndex: 'rank', width: 64, render: (v: number | null) => v ?? '--' },
    { title: t('scores.trackRank'), dataIndex: 'trackRank', width: 80, render: (v: number | null) => v ?? '--' },
    { title: t('common.project'), dataIndex: 'projectName', render: (v: string) => <span className="review-cell--wide">{v || t('common.untitled')}</span> },
    { title: t('common.org'), dataIndex: 'orgName' },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels.data, TRACK_DICT, code) },
    { title: t('promotion.ruleScore'), dataIndex: 'ruleScore', align: 'right', render: (v: number | null) => <strong>{points(v)}</strong> },
    { title: t('scores.decidedBy'), dataIndex: 'decidedBy', render: (v: PromotionRankRow['decidedBy']) => <DecidedByTag decidedBy={v} /> },
    // The latest confidence-on-the-cut run with this N, when the inputs are unchanged since (docs/rules/judging-quality.md).
    ...(preview?.ranking.some((r) => r.pInCut !== null && r.pInCut !== undefined)
      ? [
          {
            title: <span title={t('quality.promotion.pInCutHint')}>{t('quality.promotion.pInCut')}</span>,
            dataIndex: 'pInCut',
            align: 'right' as const,
            render: (v: number | null | undefined) => <span className="review-num" data-testid="p-in-cut">{v === null || v === undefined ? '--' : `${Math.round(v * 100)}%`}</span>,
          },
        ]
      : []),
    {
      title: t('promotion.state'),
      key: 'state',
      render: (_, row) => (
        <Space size={4} wrap>
          {isChosen(row) && <Tag color="green">{t('promotion.selectedTag')}</Tag>}
          {row.inFinal && <Tag>{t('promotion.inFinal')}</Tag>}
          {row.onCut && (
            <Tag color="gold" data-testid="on-cut-tag">
              {t('quality.onCut')}
            </Tag>
          )}
          {cut.has(row.id) && (
            <Tag color="orange" data-testid="cut-line-tag">
              {t('promotion.cutLine')}
            </Tag>
          )}
        </Space>
      ),
    },
  ];

  return (
    <AppDialog
      open={open}
      title={t('promotion.title')}
      width={1100}
      onCancel={() => {
        if (!confirming) onClose();
      }}
      footer={
        <Space wrap>
          <Button onClick={onClose} disabled={confirming}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => body && void runPreview(body)} loading={loading} disabled={!body || confirming} data-testid="promotion-preview">
            {t('promotion.preview')}
          </Button>
          <Button
            type="primary"
            onClick={askFirst}
            loading={confirming}
            disabled={!current || stale || (preview?.selectedCount ?? 0) === 0}
            data-testid="promotion-confirm"
          >
            {t('promotion.confirm')}
          </Button>
        </Space>
      }
      data-testid="promotion-dialog"
    >
      <Form layout="vertical" className="review-promotion-form">
        <Form.Item label={t('promotion.mode')}>
          <Radio.Group
            value={mode}
            onChange={(e) => changeMode(e.target.value as PromotionMode)}
            options={PROMOTION_MODES.map((m) => ({ value: m, label: t(`promotion.modes.${m}`) }))}
            data-testid="promotion-mode"
          />
        </Form.Item>
        {mode !== 'PICKED' ? (
          <Form.Item label={mode === 'TOP_PER_TRACK' ? t('promotion.nPerTrack') : t('promotion.n')} htmlFor="promotion-n" required>
            <InputNumber id="promotion-n" min={1} max={N_MAX} precision={0} value={n} onChange={(v) => setN(typeof v === 'number' ? v : null)} />
          </Form.Item>
        ) : (
          <Form.Item>
            <Space wrap>
              <Typography.Text>{t('promotion.picked', { count: picked.length })}</Typography.Text>
              {!preview && (
                <Button onClick={loadRanking} loading={loading} data-testid="promotion-load-ranking">
                  {t('promotion.loadRanking')}
                </Button>
              )}
            </Space>
          </Form.Item>
        )}
      </Form>
      {stale && (
        <Alert
          type="warning"
          showIcon
          title={t('promotion.stale')}
          action={
            <Button size="small" type="primary" onClick={() => body && void runPreview(body)} data-testid="promotion-stale-repreview">
              {t('promotion.previewAgain')}
            </Button>
          }
          className="review-block"
          data-testid="promotion-stale"
        />
      )}
      {error && <Alert type="error" showIcon title={error} className="review-block" data-testid="review-dialog-error" />}
      {preview && (
        <div data-testid="promotion-result">
          {preview.reviewOpen && <Alert type="warning" showIcon title={t('promotion.reviewOpen')} className="review-block" data-testid="promotion-review-open" />}
          <div className="review-block">
            <RuleText rule={preview.rule} />
          </div>
          {current ? (
            <Typography.Paragraph strong data-testid="promotion-count">
              {t('promotion.count', { count: preview.selectedCount, already })}
              {preview.atCutLine.length > 0 && ` ${t('promotion.cutLineCount', { count: preview.atCutLine.length })}`}
            </Typography.Paragraph>
          ) : (
            <Alert type="info" showIcon title={t('promotion.changed')} className="review-block" data-testid="promotion-changed" />
          )}
          <Table<PromotionRankRow>
            size="small"
            rowKey="id"
            columns={columns}
            dataSource={preview.ranking}
            scroll={{ x: 'max-content' }}
            pagination={{ pageSize: 20, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
            rowClassName={(row) => [isChosen(row) && 'review-row--selected', cut.has(row.id) && 'review-row--cut'].filter(Boolean).join(' ')}
            rowSelection={
              mode === 'PICKED'
                ? {
                    selectedRowKeys: picked,
                    preserveSelectedRowKeys: true,
                    onChange: (keys) => setPicked(keys.map(String)),
                    getCheckboxProps: (row) => ({ 'aria-label': t('promotion.pickOf', { name: row.projectName }) }),
                  }
                : undefined
            }
            locale={{ emptyText: t('promotion.emptyRanking') }}
            data-testid="promotion-ranking"
          />
        </div>
      )}
    </AppDialog>
  );
}
