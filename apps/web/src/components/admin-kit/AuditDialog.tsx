import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Radio, Tag, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_OUTCOMES, AUDIT_REASON_MAX, type AuditOutcome } from '@contest/shared';
import { ApiError } from '../../api';
import { AppDialog } from './AppDialog';
import { refusalText } from './refusal-text';
import { useDictOptions } from './kit-data';
import './kit.css';
import { validateAndFocus } from '../../lib/form-errors';

/** Dictionary type of the preset reasons (admin-editable in 数据字典). */
export const AUDIT_REASON_DICT = 'AUDIT_REASON';

export interface AuditDecision {
  outcome: AuditOutcome;
  /** Trimmed; '' when approving without a remark. */
  reason: string;
}

interface AuditValues {
  outcome: AuditOutcome;
  reason?: string;
}

/** A refusal because the record changed since it was read (docs/api-contest.md: data.reason STALE). */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && (error.data as { reason?: unknown } | null)?.reason === 'STALE';
}

/** What to show in the form for a failed submit; null when the client already said all (cancel, forced logout). */
function errorText(error: unknown): string | null {
  return refusalText(error);
}

/** Appends a preset to the reason (or fills an empty one); a preset already there is not repeated. */
export function withPreset(current: string | undefined, preset: string): string {
  const text = (current ?? '').trim();
  if (text === '') return preset;
  if (text.includes(preset)) return text;
  return `${text}；${preset}`;
}

function AuditFields({
  form,
  outcomes,
  count,
  disabled,
}: {
  form: FormInstance<AuditValues>;
  outcomes: readonly AuditOutcome[];
  count?: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin');
  const presets = useDictOptions([AUDIT_REASON_DICT])[AUDIT_REASON_DICT] ?? [];
  const outcome = Form.useWatch('outcome', form);
  const needsReason = outcome !== undefined && outcome !== 'APPROVED';
  return (
    <>
      {count !== undefined && (
        <Alert className="kit-audit__count" type="info" showIcon title={t('kit.audit.count', { count })} data-testid="audit-count" />
      )}
      <Form.Item name="outcome" label={t('kit.audit.outcome')} rules={[{ required: true }]}>
        <Radio.Group
          // A group of choices named as its field (the label element names no group).
          aria-label={t('kit.audit.outcome')}
          optionType="button"
          buttonStyle="solid"
          disabled={disabled}
          options={outcomes.map((o) => ({ value: o, label: t(`kit.audit.outcomes.${o}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="reason"
        label={t('kit.audit.reason')}
        required={needsReason}
        dependencies={['outcome']}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              const text = (value ?? '').trim();
              if (getFieldValue('outcome') !== 'APPROVED' && text === '') throw new Error(t('kit.audit.reasonRequired'));
              if (Array.from(text).length > AUDIT_REASON_MAX) throw new Error(t('kit.audit.reasonTooLong', { max: AUDIT_REASON_MAX }));
            },
          }),
        ]}
        extra={
          needsReason && presets.length > 0 ? (
            <div className="kit-audit__presets" data-testid="audit-presets">
              <span>{t('kit.audit.presets')}</span>
              {presets.map((p) => (
                <Tag
                  key={p.value}
                  className="kit-audit__preset"
                  role="button"
                  tabIndex={0}
                  onClick={() => {
                    if (disabled) return;
                    form.setFieldValue('reason', withPreset(form.getFieldValue('reason') as string | undefined, p.label));
                    void form.validateFields(['reason']).catch(() => undefined);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') (e.currentTarget as HTMLElement).click();
                  }}
                >
                  {p.label}
                </Tag>
              ))}
            </div>
          ) : null
        }
      >
        <Input.TextArea
          rows={4}
          disabled={disabled}
          count={{ show: true, max: AUDIT_REASON_MAX }}
          placeholder={needsReason ? t('kit.audit.reasonPlaceholder') : t('kit.audit.remarkPlaceholder')}
        />
      </Form.Item>
    </>
  );
}

function useAuditSubmit(form: FormInstance<AuditValues>, onSubmit: (decision: AuditDecision) => Promise<unknown> | unknown) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Resolves true when the decision went through. */
  const submit = async (): Promise<boolean> => {
    let values: AuditValues;
    try {
      values = await validateAndFocus(form);
    } catch {
      return false;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ outcome: values.outcome, reason: (values.reason ?? '').trim() });
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}

export interface AuditDialogProps {
  open: boolean;
  onClose(): void;
  /** Sends the decision; a rejection keeps the dialog open with the error's message, a resolution closes it. */
  onSubmit(decision: AuditDecision): Promise<unknown> | unknown;
  /** How many records the decision applies to (said when more than one, or when `batch`). */
  count?: number;
  batch?: boolean;
  title?: ReactNode;
  outcomes?: readonly AuditOutcome[];
  initialOutcome?: AuditOutcome;
}

/** 审核: approve, return for revision or reject, with a reason unless approving. */
export function AuditDialog({ open, onClose, onSubmit, count, batch, title, outcomes = AUDIT_OUTCOMES, initialOutcome }: AuditDialogProps) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<AuditValues>();
  const { busy, error, setError, submit } = useAuditSubmit(form, onSubmit);
  const showCount = count !== undefined && (batch || count > 1);

  useEffect(() => {
    if (!open) return;
    setError(null);
  }, [open, setError]);

  const close = () => onClose();

  return (
    <AppDialog
      open={open}
      title={title ?? (showCount ? t('kit.audit.batchTitle') : t('kit.audit.title'))}
      okText={t('kit.audit.submit')}
      confirmLoading={busy}
      onOk={() => void submit().then((done) => done && close())}
      onCancel={() => {
        if (!busy) close();
      }}
      data-testid="audit-dialog"
    >
      <Form<AuditValues>
        form={form}
        layout="vertical"
        // The dialog's content is destroyed when hidden; the next opening starts from initialValues.
        clearOnDestroy
        initialValues={{ outcome: initialOutcome ?? outcomes[0] ?? 'APPROVED', reason: '' }}
        data-testid="audit-form"
      >
        <AuditFields form={form} outcomes={outcomes} count={showCount ? count : undefined} disabled={busy} />
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="audit-error" />}
    </AppDialog>
  );
}

export interface AuditPanelProps {
  /** Sends the decision; on success the form empties for the next record, on failure it shows the message. */
  onSubmit(decision: AuditDecision): Promise<unknown> | unknown;
  outcomes?: readonly AuditOutcome[];
  /** More buttons beside 提交 (跳过...). */
  extra?: ReactNode;
  disabled?: boolean;
  /** Change it (e.g. the record's id) to empty the form. */
  resetKey?: string | number;
  title?: ReactNode;
}

/** The audit form inline (the audit queue's decision panel). */
export function AuditPanel({ onSubmit, outcomes = AUDIT_OUTCOMES, extra, disabled, resetKey, title }: AuditPanelProps) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<AuditValues>();
  const { busy, error, setError, submit } = useAuditSubmit(form, onSubmit);

  useEffect(() => {
    form.resetFields();
    setError(null);
  }, [resetKey, form, setError]);

  return (
    <div className="kit-audit-panel" data-testid="audit-panel">
      {title && <div className="kit-audit-panel__title">{title}</div>}
      <Form<AuditValues>
        form={form}
        layout="vertical"
        initialValues={{ outcome: outcomes[0] ?? 'APPROVED', reason: '' }}
        disabled={disabled}
        data-testid="audit-form"
      >
        <AuditFields form={form} outcomes={outcomes} disabled={busy || disabled} />
        {error && <Alert className="kit-audit__count" type="error" showIcon title={error} data-testid="audit-error" />}
        <div className="kit-audit__actions">
          <Button
            type="primary"
            loading={busy}
            disabled={disabled}
            onClick={() =>
              void submit().then((done) => {
                if (done) form.resetFields();
              })
            }
          >
            {t('kit.audit.submit')}
          </Button>
          {extra}
        </div>
      </Form>
    </div>
  );
}
