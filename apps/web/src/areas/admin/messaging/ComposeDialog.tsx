import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  BROADCAST_BODY_MAX,
  BROADCAST_MSG as M,
  BROADCAST_SMS_MAX,
  BROADCAST_TITLE_MAX,
  smsSegments,
  type BroadcastChannel,
  type BroadcastDraft,
  type BroadcastPreview,
  type BroadcastSent,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { AppDialog } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { errorFieldOf } from '../../../lib/form-rules';
import { MESSAGING_QUERY_KEYS, fetchTemplates, previewBroadcast, sendBroadcast } from './messaging-api';
import { useMessagingMessage } from './messaging-messages';
import { EMPTY_SEGMENT, SegmentPicker, segmentComplete, useSegmentText, type SegmentValue } from './SegmentPicker';
import { validateAndFocus } from '../../../lib/form-errors';

interface ComposeValues {
  segment?: SegmentValue;
  templateId?: string | null;
  title?: string;
  body?: string;
  smsText?: string;
}

/** The form as the call's body. */
export function toDraft(channel: BroadcastChannel, v: ComposeValues): BroadcastDraft {
  const segment = v.segment ?? EMPTY_SEGMENT;
  return {
    segment: { kind: segment.kind, values: segment.kind === 'ALL' ? [] : segment.values },
    templateId: v.templateId || null,
    ...(channel === 'SMS' ? { smsText: v.smsText?.trim() ?? '' } : { title: v.title?.trim() ?? '', body: v.body ?? '' }),
  };
}

const FIELDS = ['segment', 'title', 'body', 'smsText', 'templateId'] as const;

const TITLE = { INSITE: 'compose.insiteTitle', SMS: 'compose.smsTitle', EMAIL: 'compose.emailTitle' } as const satisfies Record<BroadcastChannel, string>;
/** Email and SMS cannot be taken back once sent: their confirmations say so. */
const CONFIRM = { INSITE: 'compose.confirmInsite', SMS: 'compose.confirmSms', EMAIL: 'compose.confirmEmail' } as const satisfies Record<BroadcastChannel, string>;

export interface ComposeDialogProps {
  channel: BroadcastChannel;
  open: boolean;
  onClose(): void;
  onSent(sent: BroadcastSent): void;
}

/**
 * 发送站内信 / 发送邮件 / 发送短信: recipients (segment), optionally a bulk template, the text (a
 * title and a body for in-site messages and email, variables filled per recipient in email and
 * SMS); 预览 shows
 * how many receive it and how the first three messages read; 发送 (after a confirmation) sends
 * exactly what was previewed. Any change after the preview asks for a new one.
 */
export function ComposeDialog({ channel, open, onClose, onSent }: ComposeDialogProps) {
  const { t } = useTranslation('messaging');
  const translate = useMessagingMessage();
  const { modal, message } = useFeedback();
  const segmentText = useSegmentText();
  const [form] = Form.useForm<ComposeValues>();
  // The values as typed (onValuesChange, and after every setFieldsValue): what the preview is compared with.
  const [values, setValues] = useState<ComposeValues>({});
  const sync = () => setValues(form.getFieldsValue(true) as ComposeValues);
  const [preview, setPreview] = useState<{ key: string; result: BroadcastPreview } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'send' | null>(null);
  const sms = channel === 'SMS';

  const templates = useQuery({
    queryKey: MESSAGING_QUERY_KEYS.templates(channel, 'BULK'),
    queryFn: () => fetchTemplates(channel, { kind: 'BULK', enabled: true }),
    enabled: open,
    retry: false,
    staleTime: 60_000,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ segment: EMPTY_SEGMENT, templateId: null });
    setValues(form.getFieldsValue(true) as ComposeValues);
    setPreview(null);
    setFailure(null);
  }, [open, form]);

  const draft = useMemo(() => toDraft(channel, values), [channel, values]);
  const draftKey = JSON.stringify(draft);
  const previewed = preview?.key === draftKey ? preview.result : null;
  const smsLength = [...(values.smsText ?? '')].length;

  /** A refusal goes under the field it names, else above the form. */
  const place = (err: unknown) => {
    const text = translate(err instanceof Error ? err.message : String(err));
    const field = errorFieldOf(err);
    if (err instanceof ApiError && field && (FIELDS as readonly string[]).includes(field)) {
      const name = field === 'smsText' && !sms ? 'body' : field;
      form.setFields([{ name: name as keyof ComposeValues, errors: [text] }]);
      return;
    }
    setFailure(text);
  };

  const runPreview = async () => {
    await validateAndFocus(form);
    const current = toDraft(channel, form.getFieldsValue(true) as ComposeValues);
    setBusy('preview');
    setFailure(null);
    try {
      setPreview({ key: JSON.stringify(current), result: await previewBroadcast(channel, current) });
    } catch (err) {
      place(err);
    } finally {
      setBusy(null);
    }
  };

  const send = () => {
    if (!previewed) return;
    modal.confirm({
      title: t('compose.confirmTitle'),
      content: t(CONFIRM[channel], { count: previewed.deliverable, title: draft.title }),
      okText: t('compose.send'),
      cancelText: t('compose.cancel'),
      onOk: async () => {
        setBusy('send');
        try {
          const sent = await sendBroadcast(channel, draft);
          void message.success(translate(M.sent));
          onSent(sent);
        } catch (err) {
          place(err);
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const pickTemplate = (id: string | null) => {
    const tpl = templates.data?.list.find((item) => item.id === id);
    if (!tpl) return;
    form.setFieldsValue(sms ? { smsText: tpl.smsText } : { title: tpl.subject, body: tpl.body });
    sync();
  };

  const templateOptions = (templates.data?.list ?? []).filter((item) => item.id).map((item) => ({ value: item.id!, label: item.name }));
  const segmentRule = {
    validator: async (_rule: unknown, value: SegmentValue | undefined) => {
      if (!segmentComplete(value)) throw new Error(translate(M.segmentValuesRequired));
    },
  };

  return (
    <AppDialog
      open={open}
      title={t(TITLE[channel])}
      onCancel={onClose}
      width={760}
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('compose.cancel')}</Button>
          <Button onClick={() => void runPreview().catch(() => {})} loading={busy === 'preview'} data-testid="compose-preview">
            {t('compose.preview')}
          </Button>
          <Button type="primary" onClick={send} disabled={!previewed || previewed.deliverable === 0} loading={busy === 'send'} data-testid="compose-send">
            {t('compose.send')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" name={`compose-${channel.toLowerCase()}`} data-testid="compose-form" onValuesChange={() => {
          setFailure(null);
          sync();
        }}>
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} data-testid="compose-error" />}
        <Form.Item name="segment" label={t('fields.segment')} required rules={[segmentRule]}>
          <SegmentPicker />
        </Form.Item>
        {templateOptions.length > 0 && (
          <Form.Item name="templateId" label={t('fields.template')} extra={t('compose.templateHint')}>
            <Select allowClear options={templateOptions} placeholder={t('compose.templatePlaceholder')} onChange={(id: string | null) => pickTemplate(id)} data-testid="compose-template" />
          </Form.Item>
        )}
        {sms ? (
          <Form.Item
            name="smsText"
            label={t('fields.smsText')}
            required
            rules={[{ required: true, whitespace: true, message: translate(M.smsTextRequired) }, { max: BROADCAST_SMS_MAX, message: translate(M.smsTextTooLong) }]}
            extra={
              <Space orientation="vertical" size={0}>
                <span data-testid="sms-counter">{t('compose.smsCounter', { count: smsLength, segments: smsSegments(values.smsText ?? '') })}</span>
                <span>{t('compose.smsBilling')}</span>
                <span>{t('compose.variablesHint')}</span>
              </Space>
            }
          >
            <Input.TextArea rows={4} maxLength={BROADCAST_SMS_MAX} placeholder={t('compose.smsPlaceholder')} data-testid="compose-sms" />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="title"
              label={t('fields.title')}
              required
              rules={[{ required: true, whitespace: true, message: translate(M.titleRequired) }, { max: BROADCAST_TITLE_MAX, message: translate(M.titleTooLong) }]}
            >
              <Input maxLength={BROADCAST_TITLE_MAX} showCount placeholder={t('compose.titlePlaceholder')} autoComplete="off" data-testid="compose-title" />
            </Form.Item>
            <Form.Item
              name="body"
              label={t('fields.body')}
              required
              extra={channel === 'INSITE' ? t('compose.insiteNoVariables') : t('compose.variablesHint')}
              rules={[{ required: true, whitespace: true, message: translate(M.bodyRequired) }, { max: BROADCAST_BODY_MAX, message: translate(M.bodyTooLong) }]}
            >
              <Input.TextArea rows={6} maxLength={BROADCAST_BODY_MAX} showCount placeholder={t('compose.bodyPlaceholder')} data-testid="compose-body" />
            </Form.Item>
          </>
        )}
      </Form>

      {preview && !previewed && <Alert type="warning" showIcon title={t('compose.changed')} data-testid="compose-stale" />}
      {!preview && <Typography.Text type="secondary">{t('compose.previewFirst')}</Typography.Text>}
      {previewed && (
        <section className="messaging-preview" aria-label={t('compose.preview')} data-testid="compose-preview-result">
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('fields.segment')}>{segmentText(draft.segment as SegmentValue)}</Descriptions.Item>
            <Descriptions.Item label={t('fields.total')}>
              <Space orientation="vertical" size={0}>
                <span data-testid="preview-total">{t('compose.previewTotal', { total: previewed.total })}</span>
                {previewed.withPhone !== undefined && <span>{t('compose.previewPhones', { count: previewed.withPhone })}</span>}
                {previewed.withEmail !== undefined && <span>{t('compose.previewEmails', { count: previewed.withEmail })}</span>}
                {previewed.smsSegments !== undefined && <span>{t('compose.previewSegments', { count: previewed.smsSegments })}</span>}
              </Space>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} className="messaging-preview__title">
            {t('compose.samples')}
          </Typography.Title>
          {previewed.samples.length === 0 ? (
            <Alert type="info" showIcon title={t('compose.noSamples')} />
          ) : (
            <ul className="messaging-samples">
              {previewed.samples.map((sample) => (
                <li key={sample.accountId} className="messaging-sample" data-testid="preview-sample">
                  <Typography.Text type="secondary">
                    {t('compose.recipient')}：{sample.name}
                    {sample.to ? ` · ${sample.to}` : ''}
                  </Typography.Text>
                  {sms ? (
                    <div className="messaging-sample__text">{sample.smsText}</div>
                  ) : (
                    <>
                      <strong>{sample.title}</strong>
                      <div className="messaging-sample__text">{sample.body}</div>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </AppDialog>
  );
}
