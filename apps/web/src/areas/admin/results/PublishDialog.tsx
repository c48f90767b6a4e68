import { useEffect, useMemo, useState } from 'react';
import { Alert, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PublishBodyInput, PublishPreview, PublishResult, ReviewRound } from '@contest/shared';
import { AppDialog, beijingTitle, formatDateTime, formatDateTimeLabel } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { useResultsText } from '../../../components/results';
import { AwardsEditor, checkAwards, draftOf, type AwardsDraft } from './AwardsEditor';
import { previewPublish, publishResult } from './results-api';
import { PreviewConfirmFooter, RefusalAlert, slugOf, useRuleSummary } from './results-common';
import { useEntryColumns } from './result-columns';

export interface PublishDialogProps {
  round: ReviewRound;
  open: boolean;
  onClose(): void;
  onPublished(result: PublishResult): void;
}

/**
 * 发布结果 (version 1 of a round). The final sets its award levels first; 预览 shows every line with
 * its outcome, the counts per level and the 公示 period publication would start; 确认发布 (after a
 * confirm) publishes exactly what was previewed, a changed form needs a new preview. Refusals stay
 * in the dialog, with the projects they name (INCOMPLETE: the final projects still missing scores).
 */
export function PublishDialog({ round, open, onClose, onPublished }: PublishDialogProps) {
  const { t } = useTranslation('results');
  const text = useResultsText();
  const { message, modal } = useFeedback();
  const ruleSummary = useRuleSummary();
  const columns = useEntryColumns();
  const defaultNames = useMemo(() => [t('awards.defaultNames.first'), t('awards.defaultNames.second'), t('awards.defaultNames.third')], [t]);
  const [draft, setDraft] = useState<AwardsDraft>(() => draftOf(null, defaultNames));
  const [showErrors, setShowErrors] = useState(false);
  const [preview, setPreview] = useState<PublishPreview | null>(null);
  const [previewed, setPreviewed] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (open) return;
    setDraft(draftOf(null, defaultNames));
    setShowErrors(false);
    setPreview(null);
    setPreviewed(null);
    setError(null);
  }, [open, defaultNames]);

  const isFinal = round === 'FINAL';
  const check = isFinal ? checkAwards(draft) : null;
  /** The request for the form as it is; null while the awards do not pass. */
  const body: PublishBodyInput | null = isFinal ? (check?.rule ? { awards: check.rule } : null) : {};
  const bodyKey = body ? JSON.stringify(body) : null;
  const current = preview !== null && bodyKey !== null && previewed === bodyKey;

  const runPreview = async () => {
    setShowErrors(true);
    if (!body) return;
    setLoading(true);
    setError(null);
    try {
      setPreview(await previewPublish(slugOf(round), body));
      setPreviewed(bodyKey);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };

  const publish = async () => {
    if (!body || !current) return;
    setPublishing(true);
    setError(null);
    try {
      const result = await publishResult(slugOf(round), body);
      void message.success(text('published'));
      onPublished(result);
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setPublishing(false);
    }
  };

  const confirm = () =>
    modal.confirm({
      title: t('publish.confirmTitle', { round: t(`rounds.${round}`) }),
      content: t('publish.confirmText', { count: preview?.total ?? 0, end: formatDateTimeLabel(preview?.periodEndsAt) }),
      okText: t('publish.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => publish(),
    });

  return (
    <AppDialog
      open={open}
      title={t('publish.title', { round: t(`rounds.${round}`) })}
      width={1100}
      onCancel={() => {
        if (!publishing) onClose();
      }}
      footer={
        <PreviewConfirmFooter
          testId="publish"
          previewLabel={t('publish.preview')}
          confirmLabel={t('publish.confirm')}
          onClose={onClose}
          onPreview={() => void runPreview()}
          onConfirm={confirm}
          previewing={loading}
          confirming={publishing}
          canConfirm={!!current}
        />
      }
      data-testid="publish-dialog"
    >
      {isFinal ? (
        <section className="results-block" aria-label={t('awards.title')}>
          <Typography.Title level={5}>{t('awards.title')}</Typography.Title>
          <AwardsEditor value={draft} onChange={setDraft} showErrors={showErrors} disabled={publishing} />
        </section>
      ) : (
        <Alert type="info" showIcon className="results-block" title={t('publish.prelimHint')} />
      )}
      {error !== null && <RefusalAlert error={error} />}
      {preview && (
        <div data-testid="publish-result">
          {!current && <Alert type="info" showIcon className="results-block" title={t('publish.changed')} data-testid="publish-changed" />}
          <Descriptions
            size="small"
            className="results-block"
            column={{ xs: 1, sm: 1, md: 2 }}
            items={[
              { key: 'rule', label: t('publish.rule'), children: ruleSummary(preview.rule), span: 2 },
              { key: 'period', label: beijingTitle(t('publish.periodEnds')), children: formatDateTime(preview.periodEndsAt) },
              { key: 'appeal', label: beijingTitle(t('publish.appealEnds')), children: formatDateTime(preview.appealEndsAt) },
              {
                key: 'count',
                label: t(isFinal ? 'publish.awarded' : 'publish.promoted'),
                children: <span data-testid="publish-count">{t('publish.countOf', { selected: preview.selected, total: preview.total })}</span>,
              },
              ...(isFinal
                ? [
                    {
                      key: 'levels',
                      label: t('publish.levels'),
                      children: (
                        <Space size={[4, 4]} wrap data-testid="publish-levels">
                          {preview.levels.map((l) => (
                            <Tag key={l.code} color="gold">
                              {t('publish.levelCount', { name: l.name, count: l.count })}
                            </Tag>
                          ))}
                        </Space>
                      ),
                    },
                  ]
                : []),
            ]}
          />
          <Table
            size="small"
            rowKey="projectId"
            columns={columns}
            dataSource={preview.entries}
            scroll={{ x: 'max-content' }}
            pagination={{ pageSize: 20, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
            locale={{ emptyText: t('entries.empty') }}
            data-testid="publish-entries"
          />
        </div>
      )}
    </AppDialog>
  );
}
