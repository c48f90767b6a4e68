import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RUBRIC_TOTAL, isValidPoints, type Criterion, type ExpertProjectDetail, type SheetBody } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { formatPoints } from '../review-format';
import { validateAndFocus } from '../../../lib/form-errors';
import { useCriterionText } from '../../../lib/criterion-text';

/** How long the comment may be (sheetBodySchema). */
export const COMMENT_MAX = 1000;

interface FormValues {
  scores: Record<string, number | null | undefined>;
  comment: string;
}

type Mode = 'draft' | 'submit';

export interface ScoreFormProps {
  detail: ExpertProjectDetail;
  /** PUT sheet; resolves once saved (the page reloads the sheet), rejects when refused. */
  onSave(body: SheetBody): Promise<unknown>;
  /** POST sheet/submit; same contract. */
  onSubmit(body: SheetBody): Promise<unknown>;
  /** The form holds edits not saved yet. */
  onDirtyChange(dirty: boolean): void;
}

const filledScores = (criteria: readonly Criterion[], scores: FormValues['scores'] | undefined): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const c of criteria) {
    const value = scores?.[c.key];
    if (typeof value === 'number' && Number.isFinite(value)) out[c.key] = value;
  }
  return out;
};

function ReadOnlySheet({ detail }: { detail: ExpertProjectDetail }) {
  const { t } = useTranslation('expert');
  const text = useCriterionText();
  const sheet = detail.sheet;
  return (
    <div className="expert-score__readonly" data-testid="score-readonly">
      <dl className="expert-score__list">
        {detail.criteria.map((c) => (
          <div key={c.key} className="expert-score__item">
            <dt>{text(c).name}</dt>
            <dd data-testid={`score-value-${c.key}`}>
              {sheet && typeof sheet.scores[c.key] === 'number' ? formatPoints(sheet.scores[c.key]!) : '--'} / {c.max}
            </dd>
          </div>
        ))}
      </dl>
      <Typography.Text type="secondary">{t('form.comment')}</Typography.Text>
      <Typography.Paragraph className="expert-score__comment-text" data-testid="comment-readonly">
        {sheet?.comment || '--'}
      </Typography.Paragraph>
    </div>
  );
}

/**
 * The score sheet (docs/rules/review.md, "Score sheets"): each criterion 0..max in 0.5 steps beside its description, the
 * total as it is typed, a comment (required on submit), 保存草稿 and 提交评分 behind a confirmation.
 * Read-only once submitted, or outside the review window. Client checks use the server's words.
 */
export function ScoreForm({ detail, onSave, onSubmit, onDirtyChange }: ScoreFormProps) {
  const { t } = useTranslation('expert');
  const text = useCriterionText();
  const { modal } = useFeedback();
  const [form] = Form.useForm<FormValues>();
  const mode = useRef<Mode>('draft');
  const [busy, setBusy] = useState<Mode | null>(null);
  const sheet = detail.sheet;
  const criteria = detail.criteria;
  const maxTotal = criteria.reduce((sum, c) => sum + c.max, 0) || RUBRIC_TOTAL;

  const watched = Form.useWatch('scores', form);
  const total = Object.values(filledScores(criteria, watched)).reduce((sum, v) => sum + v, 0);

  // A fresh sheet (mounted anew per version) starts clean.
  useEffect(() => onDirtyChange(false), [onDirtyChange]);

  const bodyOf = (values: FormValues): SheetBody => ({
    scores: filledScores(criteria, values.scores),
    comment: values.comment ?? '',
    ...(sheet ? { version: sheet.version } : {}),
  });

  const validate = async (as: Mode): Promise<FormValues | null> => {
    mode.current = as;
    try {
      await validateAndFocus(form);
      return form.getFieldsValue(true) as FormValues;
    } catch {
      return null;
    } finally {
      mode.current = 'draft';
    }
  };

  const run = async (as: Mode, values: FormValues) => {
    setBusy(as);
    try {
      await (as === 'draft' ? onSave : onSubmit)(bodyOf(values));
    } catch {
      // The page has said why (or reloaded a stale sheet).
    } finally {
      setBusy(null);
    }
  };

  const saveDraft = async () => {
    const values = await validate('draft');
    if (values) await run('draft', values);
  };

  const submit = async () => {
    const values = await validate('submit');
    if (!values) return;
    modal.confirm({
      title: t('form.confirmTitle'),
      content: t('form.confirmContent'),
      okText: t('form.confirmOk'),
      cancelText: t('form.cancel'),
      onOk: () => {
        void run('submit', values);
      },
    });
  };

  const status = (
    <div className="expert-score__status" data-testid="sheet-state">
      {sheet?.status === 'SUBMITTED' && (
        <>
          <Tag color="success">{t('status.SUBMITTED')}</Tag>
          <Typography.Text type="secondary" data-testid="submitted-at">
            {t('form.submittedAt', { time: formatDateTimeLabel(sheet.submittedAt) ?? '--' })}
          </Typography.Text>
        </>
      )}
      {sheet?.status === 'DRAFT' && (
        <>
          <Tag color="processing">{t('status.DRAFT')}</Tag>
          <Typography.Text type="secondary">{t('form.draftSavedAt', { time: formatDateTimeLabel(sheet.updatedAt) ?? '--' })}</Typography.Text>
        </>
      )}
      {sheet?.status === 'RETURNED' && <Tag color="error">{t('status.RETURNED')}</Tag>}
      {!sheet && <Tag>{t('status.NONE')}</Tag>}
    </div>
  );

  const totalLine = (
    <div className="expert-score__total" aria-live="polite">
      <span>{t('form.total')}</span>
      <strong data-testid="score-total">
        {formatPoints(detail.editable ? total : (sheet?.total ?? 0))} / {maxTotal}
      </strong>
    </div>
  );

  return (
    <Card className="expert-score" title={<h2 className="expert-score__title">{t('form.title')}</h2>} data-testid="score-form">
      {status}
      {!detail.open && <Alert className="expert-score__alert" type="warning" showIcon title={t('form.closed')} data-testid="review-closed" />}
      {!detail.editable ? (
        <>
          {totalLine}
          <ReadOnlySheet detail={detail} />
        </>
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{
            scores: Object.fromEntries(criteria.map((c) => [c.key, sheet?.scores[c.key] ?? null])),
            comment: sheet?.comment ?? '',
          }}
          onValuesChange={() => onDirtyChange(true)}
          onFinish={() => undefined}
        >
          {criteria.map((c) => (
            <Form.Item
              key={c.key}
              name={['scores', c.key]}
              label={t('form.criterionLabel', { name: text(c).name, max: c.max })}
              extra={text(c).description || undefined}
              rules={[
                {
                  validator: (_, value: unknown) => {
                    if (value === null || value === undefined || value === '') {
                      return mode.current === 'submit' ? Promise.reject(new Error(t('form.scoreRequired'))) : Promise.resolve();
                    }
                    return isValidPoints(value, c.max) ? Promise.resolve() : Promise.reject(new Error(t('form.scoreInvalid')));
                  },
                },
              ]}
            >
              {/* No min/max here: the field would clamp silently; out-of-range values get the server's text instead. */}
              <InputNumber<number>
                className="expert-score__input"
                step={0.5}
                // The step would show 20 as 20.0; whole points read better whole.
                formatter={(value, { userTyping, input }) => (userTyping ? input : value === undefined ? '' : String(value).replace(/\.0$/, ''))}
                inputMode="decimal"
                placeholder={t('form.scorePlaceholder', { max: c.max })}
                suffix={`/ ${c.max}`}
                // The range is told to screen readers without min/max (which would clamp): 0 to the criterion's maximum.
                aria-valuemin={0}
                aria-valuemax={c.max}
                data-testid={`score-input-${c.key}`}
              />
            </Form.Item>
          ))}
          {totalLine}
          <Form.Item
            name="comment"
            label={t('form.comment')}
            rules={[
              {
                validator: (_, value: unknown) => {
                  const text = typeof value === 'string' ? value : '';
                  if (mode.current === 'submit' && text.trim() === '') return Promise.reject(new Error(t('form.commentRequired')));
                  if (Array.from(text).length > COMMENT_MAX) return Promise.reject(new Error(t('form.commentTooLong')));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <Input.TextArea
              rows={5}
              showCount
              maxLength={COMMENT_MAX}
              placeholder={t('form.commentPlaceholder')}
              data-testid="score-comment"
            />
          </Form.Item>
          <div className="expert-score__actions">
            <Button onClick={() => void saveDraft()} loading={busy === 'draft'} disabled={busy === 'submit'} data-testid="save-draft">
              {t('form.saveDraft')}
            </Button>
            <Button type="primary" onClick={() => void submit()} loading={busy === 'submit'} disabled={busy === 'draft'} data-testid="submit-sheet">
              {t('form.submit')}
            </Button>
          </div>
        </Form>
      )}
    </Card>
  );
}
