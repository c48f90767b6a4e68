import { useEffect, useMemo, useState } from 'react';
import { Alert, Checkbox, Form, Input, InputNumber, Radio, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  RESULT_VERSION_REASON_MAX,
  type NewVersionPreview,
  type NewVersionPreviewBody,
  type PrelimSelectionInput,
  type PublishResult,
  type ResultVersionView,
  type ReviewRound,
} from '@contest/shared';
import { AppDialog, formatDateTimeLabel } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { useResultsMessage, useResultsText } from '../../../components/results';
import { AwardsEditor, checkAwards, draftOf, type AwardsDraft } from './AwardsEditor';
import { CompareTable, MovementSummary } from './CompareTable';
import { previewNewVersion, publishNewVersion } from './results-api';
import { PreviewConfirmFooter, RefusalAlert, slugOf, useRuleSummary } from './results-common';

type SelectionChoice = 'DEFAULT' | 'TOP_OVERALL' | 'TOP_PER_TRACK' | 'KEEP';
const SELECTION_CHOICES: readonly SelectionChoice[] = ['DEFAULT', 'TOP_OVERALL', 'TOP_PER_TRACK', 'KEEP'];

export interface NewVersionDialogProps {
  round: ReviewRound;
  /** The version in force (the new one is compared against it). */
  current: ResultVersionView;
  open: boolean;
  onClose(): void;
  onPublished(result: PublishResult): void;
}

/**
 * 发布新版本 after a re-review: why (required), for the preliminary who is promoted (as the current
 * version's rule, the top N overall or per track, or the promoted set kept), for the final the award
 * levels (as now, or set again). 预览 compares the current version with what would be published; a
 * changed rule needs a new preview before 确认发布. Refusals (re-reviews unfinished, final projects that
 * already have scores) name their projects.
 */
export function NewVersionDialog({ round, current, open, onClose, onPublished }: NewVersionDialogProps) {
  const { t } = useTranslation('results');
  const text = useResultsText();
  const translate = useResultsMessage();
  const ruleSummary = useRuleSummary();
  const { message, modal } = useFeedback();
  const isFinal = round === 'FINAL';
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [choice, setChoice] = useState<SelectionChoice>('DEFAULT');
  const [n, setN] = useState<number | null>(null);
  const [newAwards, setNewAwards] = useState(false);
  const [draft, setDraft] = useState<AwardsDraft>(() => draftOf(current.rule.awards, []));
  const [showErrors, setShowErrors] = useState(false);
  const [preview, setPreview] = useState<NewVersionPreview | null>(null);
  const [previewed, setPreviewed] = useState<string | null>(null);
  const [changedOnly, setChangedOnly] = useState(true);
  const [loading, setLoading] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (open) return;
    setReason('');
    setReasonError(null);
    setChoice('DEFAULT');
    setN(null);
    setNewAwards(false);
    setDraft(draftOf(current.rule.awards, []));
    setShowErrors(false);
    setPreview(null);
    setPreviewed(null);
    setChangedOnly(true);
    setError(null);
  }, [open, current]);

  /** What the rule part of the request is now; null while incomplete (N missing, awards invalid). */
  const rule = useMemo<Omit<NewVersionPreviewBody, 'reason'> | null>(() => {
    if (isFinal) {
      if (!newAwards) return {};
      const checked = checkAwards(draft);
      return checked.rule ? { awards: checked.rule } : null;
    }
    if (choice === 'DEFAULT') return {};
    if (choice === 'KEEP') return { selection: { mode: 'KEEP' } satisfies PrelimSelectionInput };
    return n === null ? null : { selection: { mode: choice, n } satisfies PrelimSelectionInput };
  }, [isFinal, newAwards, draft, choice, n]);
  const ruleKey = rule ? JSON.stringify(rule) : null;
  const isCurrent = preview !== null && ruleKey !== null && previewed === ruleKey;

  const checkReason = (): string | null => {
    const trimmed = reason.trim();
    const message = trimmed === '' ? text('versionReasonRequired') : Array.from(trimmed).length > RESULT_VERSION_REASON_MAX ? text('versionReasonTooLong') : null;
    setReasonError(message);
    return message ? null : trimmed;
  };

  const runPreview = async () => {
    setShowErrors(true);
    if (!rule) return;
    setLoading(true);
    setError(null);
    try {
      const trimmed = reason.trim();
      setPreview(await previewNewVersion(slugOf(round), { ...rule, ...(trimmed ? { reason: trimmed } : {}) }));
      setPreviewed(ruleKey);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };

  const publish = async (why: string) => {
    if (!rule) return;
    setPublishing(true);
    setError(null);
    try {
      const result = await publishNewVersion(slugOf(round), { ...rule, reason: why });
      void message.success(text('versionPublished'));
      onPublished(result);
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setPublishing(false);
    }
  };

  const confirm = () => {
    const why = checkReason();
    if (!why || !isCurrent) return;
    modal.confirm({
      title: t('newVersion.confirmTitle', { n: current.version + 1 }),
      content: t('newVersion.confirmText', { resolves: preview?.resolves ?? 0 }),
      okText: t('newVersion.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => publish(why),
    });
  };

  const rows = preview ? (changedOnly ? preview.rows.filter((r) => r.changed) : preview.rows) : [];

  return (
    <AppDialog
      open={open}
      title={t('newVersion.title', { round: t(`rounds.${round}`), n: current.version + 1 })}
      width={1200}
      onCancel={() => {
        if (!publishing) onClose();
      }}
      footer={
        <PreviewConfirmFooter
          testId="new-version"
          previewLabel={t('newVersion.preview')}
          confirmLabel={t('newVersion.confirm')}
          onClose={onClose}
          onPreview={() => void runPreview()}
          onConfirm={confirm}
          previewing={loading}
          confirming={publishing}
          canConfirm={isCurrent}
        />
      }
      data-testid="new-version-dialog"
    >
      <Typography.Paragraph type="secondary">{t('newVersion.intro', { n: current.version })}</Typography.Paragraph>
      <Form layout="vertical" className="results-form">
        <Form.Item
          label={t('newVersion.reason')}
          htmlFor="new-version-reason"
          required
          validateStatus={reasonError ? 'error' : undefined}
          help={reasonError ? translate(reasonError) : undefined}
        >
          <Input.TextArea
            id="new-version-reason"
            rows={3}
            value={reason}
            count={{ show: true, max: RESULT_VERSION_REASON_MAX }}
            placeholder={t('newVersion.reasonPlaceholder')}
            onChange={(e) => {
              setReason(e.target.value);
              if (reasonError) setReasonError(null);
            }}
          />
        </Form.Item>
        {isFinal ? (
          <Form.Item label={t('newVersion.awards')}>
            <Typography.Paragraph type="secondary">{t('newVersion.currentRule', { rule: ruleSummary(current.rule) })}</Typography.Paragraph>
            <Checkbox checked={newAwards} onChange={(e) => setNewAwards(e.target.checked)} data-testid="new-version-awards">
              {t('newVersion.setAwards')}
            </Checkbox>
            {newAwards && (
              <div className="results-block">
                <AwardsEditor value={draft} onChange={setDraft} showErrors={showErrors} disabled={publishing} />
              </div>
            )}
          </Form.Item>
        ) : (
          <Form.Item label={t('newVersion.selection')}>
            <Radio.Group
              value={choice}
              onChange={(e) => setChoice(e.target.value as SelectionChoice)}
              options={SELECTION_CHOICES.map((c) => ({
                value: c,
                label: c === 'DEFAULT' ? t('newVersion.selections.DEFAULT', { rule: ruleSummary(current.rule) }) : t(`newVersion.selections.${c}`),
              }))}
              className="results-radio-column"
              data-testid="new-version-selection"
            />
            {(choice === 'TOP_OVERALL' || choice === 'TOP_PER_TRACK') && (
              <div className="results-block">
                <label htmlFor="new-version-n" className="results-inline-label">
                  {t(choice === 'TOP_PER_TRACK' ? 'newVersion.nPerTrack' : 'newVersion.n')}
                </label>
                <InputNumber<number>
                  id="new-version-n"
                  min={1}
                  max={1000}
                  precision={0}
                  value={n}
                  status={showErrors && n === null ? 'error' : undefined}
                  onChange={(v) => setN(typeof v === 'number' ? v : null)}
                />
                {showErrors && n === null && (
                  <div className="results-awards__error" role="alert">
                    {text('promotionNInvalid')}
                  </div>
                )}
              </div>
            )}
          </Form.Item>
        )}
      </Form>
      {error !== null && <RefusalAlert error={error} />}
      {preview && (
        <div data-testid="new-version-result">
          {!isCurrent && <Alert type="info" showIcon className="results-block" title={t('publish.changed')} data-testid="new-version-changed" />}
          <div className="results-block">
            <Typography.Paragraph>{t('newVersion.previewRule', { rule: ruleSummary(preview.rule) })}</Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              {t('newVersion.previewOf', { n: preview.current.version, at: formatDateTimeLabel(preview.current.publishedAt) })}
            </Typography.Paragraph>
            {preview.resolves > 0 && (
              <Alert type="info" showIcon title={t('newVersion.resolves', { count: preview.resolves })} data-testid="new-version-resolves" />
            )}
          </div>
          <div className="results-toolbar">
            <MovementSummary summary={preview.summary} />
            <label className="results-switch">
              <Switch size="small" checked={changedOnly} onChange={setChangedOnly} />
              <span>{t('compare.changedOnly')}</span>
            </label>
          </div>
          <CompareTable rows={rows} aLabel={t('newVersion.currentLabel')} bLabel={t('newVersion.newLabel')} />
        </div>
      )}
    </AppDialog>
  );
}
