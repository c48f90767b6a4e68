import { useRef, useState, type FocusEvent } from 'react';
import { Alert, Button, Checkbox, Col, Descriptions, Form, Input, Row, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  TEMPLATE_EVENTS_EN,
  BULK_TEMPLATE_VARIABLES,
  MESSAGE_CHANNELS,
  TEMPLATE_MSG as TM,
  exampleVariables,
  fillTemplate,
  smsSegments,
  unknownTemplateVariables,
  unknownVariablesMessage,
  type MessageChannel,
  type MessageTemplateItem,
  type TemplateBodyInput,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { AppDialog, isStale } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { errorFieldOf } from '../../../lib/form-rules';
import { MESSAGING_QUERY_KEYS, createTemplate, fetchTemplate, updateTemplate } from './messaging-api';
import { useMessagingMessage } from './messaging-messages';
import { validateAndFocus } from '../../../lib/form-errors';

export interface TemplateFormValues {
  name: string;
  channels: MessageChannel[];
  subject: string;
  body: string;
  smsText: string;
  /** English texts (event templates): sent to accounts whose language is English; empty sends the Chinese. */
  subjectEn: string;
  bodyEn: string;
  smsTextEn: string;
  smsTemplateId: string;
}

type TextField = 'subject' | 'body' | 'smsText' | 'subjectEn' | 'bodyEn' | 'smsTextEn';
type TextElement = HTMLInputElement | HTMLTextAreaElement;

const NAME_MAX = 50;
const SUBJECT_MAX = 100;
const BODY_MAX = 2000;
const SMS_MAX = 500;
const SMS_ID = /^[A-Za-z0-9_-]{0,64}$/;

/** What the form starts from: the template, or an empty bulk template. */
/** The English texts as one framed group (antd's form styles give a bare legend a full-width rule). */
const ENGLISH_FIELDSET = { border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 8, padding: '4px 16px 0', margin: '8px 0 16px' } as const;
const ENGLISH_LEGEND = { width: 'auto', border: 0, padding: '0 8px', margin: 0, fontSize: 14 } as const;

export function templateFormValues(item: MessageTemplateItem | null): TemplateFormValues {
  return {
    name: item?.name ?? '',
    channels: item ? [...item.channels] : [],
    subject: item?.subject ?? '',
    body: item?.body ?? '',
    smsText: item?.smsText ?? '',
    subjectEn: item?.subjectEn ?? '',
    bodyEn: item?.bodyEn ?? '',
    smsTextEn: item?.smsTextEn ?? '',
    smsTemplateId: item?.smsTemplateId ?? '',
  };
}

/**
 * The form as the call's body; `version` is the one the editor loaded (absent for a new template).
 * `english`: an event template, whose English texts go along (bulk templates have none to edit).
 */
export function toTemplateBody(values: TemplateFormValues, version?: number, english = false): TemplateBodyInput {
  return {
    name: values.name.trim(),
    channels: MESSAGE_CHANNELS.filter((c) => values.channels.includes(c)),
    subject: values.subject.trim(),
    body: values.body,
    smsText: values.smsText.trim(),
    ...(english ? { subjectEn: values.subjectEn.trim(), bodyEn: values.bodyEn, smsTextEn: values.smsTextEn.trim() } : {}),
    smsTemplateId: values.smsTemplateId.trim() || null,
    ...(version !== undefined ? { version } : {}),
  };
}

/** The English counterpart of each text field. */
const ENGLISH_OF = { subject: 'subjectEn', body: 'bodyEn', smsText: 'smsTextEn' } as const;

/** Which text fields the chosen channels use (in-site and email: title and text; SMS: its text). */
export function fieldsOf(channels: readonly MessageChannel[]): TextField[] {
  const mail = channels.includes('INSITE') || channels.includes('EMAIL');
  return [...(mail ? (['subject', 'body'] as const) : []), ...(channels.includes('SMS') ? (['smsText'] as const) : [])];
}

export interface TemplateEditorProps {
  open: boolean;
  /** The template to edit or view; null creates a bulk template. */
  template: MessageTemplateItem | null;
  /** Without the 编辑短信模板 button: the same view, nothing to change. */
  readOnly: boolean;
  onClose(): void;
}

/**
 * The message template editor (PUT/POST /admin/templates): name, channels, title, text, SMS text
 * and gateway template id; the template's variables as chips inserted at the cursor; a preview
 * with sample values as the server would fill them; the SMS length and billed parts. A refusal goes
 * under its field (unknown variables included); STALE offers to load the other editor's version.
 */
export function TemplateEditor({ open, template, readOnly, onClose }: TemplateEditorProps) {
  const { t } = useTranslation('messaging');
  // The template being edited: replaced by a reload after a STALE refusal; a new form mounts with it.
  const [loaded, setLoaded] = useState<{ item: MessageTemplateItem | null; revision: number } | null>(null);
  const [opened, setOpened] = useState<MessageTemplateItem | null | undefined>(undefined);
  if (open && opened !== template) {
    setOpened(template);
    setLoaded({ item: template, revision: (loaded?.revision ?? 0) + 1 });
  }
  if (!open && opened !== undefined) setOpened(undefined);

  const item = loaded?.item ?? null;
  const title = readOnly ? t('templates.editor.viewTitle') : item ? t('templates.editor.editTitle') : t('templates.editor.createTitle');
  return (
    <AppDialog open={open} title={title} onCancel={onClose} width={1000} footer={null}>
      {open && loaded && (
        <EditorForm
          key={`${item?.key ?? 'new'}:${loaded.revision}`}
          item={item}
          readOnly={readOnly}
          onClose={onClose}
          onReloaded={(fresh) => setLoaded({ item: fresh, revision: loaded.revision + 1 })}
        />
      )}
    </AppDialog>
  );
}

interface EditorFormProps {
  item: MessageTemplateItem | null;
  readOnly: boolean;
  onClose(): void;
  onReloaded(fresh: MessageTemplateItem): void;
}

function EditorForm({ item, readOnly, onClose, onReloaded }: EditorFormProps) {
  const { t, i18n } = useTranslation('messaging');
  const englishPage = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  const translate = useMessagingMessage();
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<TemplateFormValues>();
  const [busy, setBusy] = useState<'save' | 'reload' | null>(null);
  const [stale, setStale] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The text field the cursor was last in, so a chip inserts there (its selection survives the blur).
  const focused = useRef<{ name: TextField; el: TextElement } | null>(null);

  const variables = item ? item.variables : [...BULK_TEMPLATE_VARIABLES];
  const examples = exampleVariables(variables);
  const watch = { form, preserve: true } as const;
  const channels = (Form.useWatch('channels', watch) as MessageChannel[] | undefined) ?? item?.channels ?? [];
  const subject = (Form.useWatch('subject', watch) as string | undefined) ?? '';
  const body = (Form.useWatch('body', watch) as string | undefined) ?? '';
  const smsText = (Form.useWatch('smsText', watch) as string | undefined) ?? '';
  const subjectEn = (Form.useWatch('subjectEn', watch) as string | undefined) ?? '';
  const bodyEn = (Form.useWatch('bodyEn', watch) as string | undefined) ?? '';
  const smsTextEn = (Form.useWatch('smsTextEn', watch) as string | undefined) ?? '';
  // Event templates have English texts (docs/decisions.md, "English"); bulk sends go out as typed.
  const english = !!item?.code;
  const shownChinese = fieldsOf(channels);
  const shownEnglish = english ? shownChinese.map((f) => ENGLISH_OF[f as keyof typeof ENGLISH_OF]) : [];
  const shown: TextField[] = [...shownChinese, ...shownEnglish];
  const unknown = unknownTemplateVariables([subject, body, smsText, ...(english ? [subjectEn, bodyEn, smsTextEn] : [])], variables);
  const smsSample = fillTemplate(smsText.trim(), examples);

  const track = (name: TextField) => (event: FocusEvent<TextElement>) => {
    focused.current = { name, el: event.target };
  };

  /** Puts `{variable}` where the cursor was (replacing a selection), else at the end of the first shown text. */
  const insert = (variable: string) => {
    const token = `{${variable}}`;
    const target = focused.current && shown.includes(focused.current.name) ? focused.current : null;
    const name = target?.name ?? shown[shown.length > 1 && shown[0] === 'subject' ? 1 : 0];
    if (!name) return;
    const value = (form.getFieldValue(name) as string | undefined) ?? '';
    const start = target ? (target.el.selectionStart ?? value.length) : value.length;
    const end = target ? (target.el.selectionEnd ?? start) : start;
    form.setFields([{ name, value: value.slice(0, start) + token + value.slice(end), errors: [] }]);
    setFailure(null);
    const el = target?.el;
    if (el) {
      const caret = start + token.length;
      // After React wrote the new value (which moves the caret to the end).
      setTimeout(() => {
        el.focus();
        el.setSelectionRange(caret, caret);
      }, 0);
    }
  };

  /** A refusal under the field it names (when shown), STALE as the reload banner, else above the form. */
  const showError = (err: unknown) => {
    if (!(err instanceof ApiError)) return;
    if (isStale(err)) {
      setStale(true);
      return;
    }
    const field = errorFieldOf(err);
    const text = translate(err.message);
    if (field && (['name', 'channels', 'smsTemplateId', ...shown] as string[]).includes(field)) {
      form.setFields([{ name: field as keyof TemplateFormValues, errors: [text] }]);
      return;
    }
    setFailure(text);
  };

  const save = async () => {
    try {
      await validateAndFocus(form);
    } catch {
      return;
    }
    const values = { ...templateFormValues(null), ...(form.getFieldsValue(true) as Partial<TemplateFormValues>) };
    setBusy('save');
    setFailure(null);
    try {
      const answer = item ? await updateTemplate(item.key, toTemplateBody(values, item.version, english)) : await createTemplate(toTemplateBody(values));
      void message.success(translate(answer.message));
      void queryClient.invalidateQueries({ queryKey: MESSAGING_QUERY_KEYS.templatesAll });
      onClose();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(null);
    }
  };

  const reload = async () => {
    if (!item) return;
    setBusy('reload');
    try {
      const fresh = await fetchTemplate(item.key);
      void queryClient.invalidateQueries({ queryKey: MESSAGING_QUERY_KEYS.templatesAll });
      onReloaded(fresh);
    } catch (err) {
      showError(err);
    } finally {
      setBusy(null);
    }
  };

  const required = (text: string) => ({ required: true, whitespace: true, message: translate(text) });
  const max = (n: number, text: string) => ({ max: n, message: translate(text) });
  const channelsRule = {
    validator: async (_rule: unknown, value: MessageChannel[] | undefined) => {
      if (!value || value.length === 0) throw new Error(translate(TM.templateChannelsRequired));
    },
  };
  const smsIdRule = {
    validator: async (_rule: unknown, value: string | undefined) => {
      if (!SMS_ID.test((value ?? '').trim())) throw new Error(translate(TM.templateSmsIdInvalid));
    },
  };

  return (
    <div data-testid="template-editor">
      {readOnly && <Alert type="info" showIcon title={t('templates.editor.readOnly')} style={{ marginBottom: 16 }} />}
      {stale && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={translate(TM.templateStale)}
          description={t('templates.editor.stale')}
          action={
            <Button size="small" onClick={() => void reload()} loading={busy === 'reload'} data-testid="template-reload">
              {t('templates.editor.reload')}
            </Button>
          }
          data-testid="template-stale"
        />
      )}
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} data-testid="template-error" />}
      {item?.code && (
        <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('templates.editor.event')}>
            {/* The event is the system's (not the operator's name for the template): English pages name it in English. */}
            {englishPage ? `${TEMPLATE_EVENTS_EN[item.code].subject} (${item.code})` : `${item.eventName}（${item.code}）`}
          </Descriptions.Item>
          {item.audience && <Descriptions.Item label={t('templates.editor.audience')}>{t(`templates.editor.audiences.${item.audience}`)}</Descriptions.Item>}
        </Descriptions>
      )}
      <Row gutter={24}>
        <Col xs={24} lg={14}>
          <Form<TemplateFormValues>
            form={form}
            layout="vertical"
            name="message-template"
            initialValues={templateFormValues(item)}
            disabled={readOnly}
            onValuesChange={() => setFailure(null)}
          >
            <Form.Item name="name" label={t('templates.name')} required rules={[required(TM.templateNameRequired), max(NAME_MAX, TM.templateNameTooLong)]}>
              <Input maxLength={NAME_MAX} showCount placeholder={t('templates.editor.namePlaceholder')} autoComplete="off" />
            </Form.Item>
            <Form.Item name="channels" label={t('templates.channels')} required rules={[channelsRule]}>
              <Checkbox.Group options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(`channel.${c}`) }))} />
            </Form.Item>

            <div className="template-variables" data-testid="template-variables">
              <Typography.Text strong>{t('templates.editor.variables')}</Typography.Text>
              {variables.length === 0 ? (
                <Typography.Text type="secondary">{t('templates.editor.noVariables')}</Typography.Text>
              ) : (
                <>
                  {!readOnly && <Typography.Text type="secondary">{t('templates.editor.variablesHint')}</Typography.Text>}
                  <Space size={[8, 8]} wrap>
                    {variables.map((v) => (
                      <Button
                        key={v}
                        size="small"
                        disabled={readOnly || shown.length === 0}
                        // Keeps the cursor (and focus) in the text field while the chip is pressed.
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => insert(v)}
                        data-testid={`template-var-${v}`}
                      >
                        <code>{`{${v}}`}</code> {t(`variables.${v}` as 'variables.name')}
                      </Button>
                    ))}
                  </Space>
                </>
              )}
            </div>

            {shown.includes('subject') && (
              <Form.Item
                name="subject"
                label={t('templates.subject')}
                extra={t('templates.editor.subjectHint')}
                required
                rules={[required(TM.templateSubjectRequired), max(SUBJECT_MAX, TM.templateSubjectTooLong)]}
              >
                <Input maxLength={SUBJECT_MAX} showCount placeholder={t('templates.editor.subjectPlaceholder')} autoComplete="off" onFocus={track('subject')} />
              </Form.Item>
            )}
            {shown.includes('body') && (
              <Form.Item
                name="body"
                label={t('templates.body')}
                extra={t('templates.editor.bodyHint')}
                required
                rules={[required(TM.templateBodyRequired), max(BODY_MAX, TM.templateBodyTooLong)]}
              >
                <Input.TextArea rows={6} maxLength={BODY_MAX} showCount placeholder={t('templates.editor.bodyPlaceholder')} onFocus={track('body')} />
              </Form.Item>
            )}
            {shown.includes('smsText') && (
              <>
                <Form.Item
                  name="smsText"
                  label={t('templates.smsText')}
                  required
                  rules={[required(TM.templateSmsTextRequired), max(SMS_MAX, TM.templateSmsTextTooLong)]}
                  extra={
                    <Space orientation="vertical" size={0}>
                      <span data-testid="template-sms-counter">{t('templates.editor.smsCounter', { count: [...smsSample].length, segments: smsSegments(smsSample) })}</span>
                      <span>{t('compose.smsBilling')}</span>
                    </Space>
                  }
                >
                  <Input.TextArea rows={4} maxLength={SMS_MAX} placeholder={t('templates.editor.smsPlaceholder')} onFocus={track('smsText')} />
                </Form.Item>
                <Form.Item name="smsTemplateId" label={t('templates.smsTemplateId')} rules={[smsIdRule]}>
                  <Input maxLength={64} placeholder={t('templates.editor.smsTemplateIdPlaceholder')} autoComplete="off" />
                </Form.Item>
              </>
            )}
            {shownEnglish.length > 0 && (
              <fieldset className="template-english" data-testid="template-english" style={ENGLISH_FIELDSET}>
                <legend style={ENGLISH_LEGEND}>
                  <Typography.Text strong>{t('templates.editor.english')}</Typography.Text>
                </legend>
                <Typography.Paragraph type="secondary">{t('templates.editor.englishHint')}</Typography.Paragraph>
                {shownEnglish.includes('subjectEn') && (
                  <Form.Item name="subjectEn" label={t('templates.subjectEn')} rules={[max(SUBJECT_MAX, TM.templateSubjectEnTooLong)]}>
                    <Input maxLength={SUBJECT_MAX} showCount autoComplete="off" lang="en" onFocus={track('subjectEn')} />
                  </Form.Item>
                )}
                {shownEnglish.includes('bodyEn') && (
                  <Form.Item name="bodyEn" label={t('templates.bodyEn')} rules={[max(BODY_MAX, TM.templateBodyEnTooLong)]}>
                    <Input.TextArea rows={4} maxLength={BODY_MAX} showCount lang="en" onFocus={track('bodyEn')} />
                  </Form.Item>
                )}
                {shownEnglish.includes('smsTextEn') && (
                  <Form.Item name="smsTextEn" label={t('templates.smsTextEn')} rules={[max(SMS_MAX, TM.templateSmsTextEnTooLong)]}>
                    <Input.TextArea rows={3} maxLength={SMS_MAX} lang="en" onFocus={track('smsTextEn')} />
                  </Form.Item>
                )}
              </fieldset>
            )}
          </Form>
        </Col>
        <Col xs={24} lg={10}>
          <section className="messaging-preview template-preview" aria-label={t('templates.editor.preview')} data-testid="template-preview">
            <Typography.Title level={5} className="messaging-preview__title">
              {t('templates.editor.preview')}
            </Typography.Title>
            {unknown.length > 0 && <Alert type="warning" showIcon title={translate(unknownVariablesMessage(unknown))} style={{ marginBottom: 8 }} data-testid="template-unknown" />}
            {channels.length === 0 ? (
              <Typography.Text type="secondary">{t('templates.editor.previewEmpty')}</Typography.Text>
            ) : (
              <ul className="messaging-samples">
                {MESSAGE_CHANNELS.filter((c) => channels.includes(c)).map((c) => (
                  <li key={c} className="messaging-sample" data-testid={`template-preview-${c}`}>
                    <Typography.Text type="secondary">{t(`channel.${c}`)}</Typography.Text>
                    {c === 'SMS' ? (
                      <div className="messaging-sample__text">{smsSample}</div>
                    ) : (
                      <>
                        <strong>{fillTemplate(subject.trim(), examples)}</strong>
                        <div className="messaging-sample__text">{fillTemplate(body, examples)}</div>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </Col>
      </Row>
      <div className="template-editor__footer">
        <Space wrap>
          {readOnly ? (
            <Button onClick={onClose}>{t('templates.editor.close')}</Button>
          ) : (
            <>
              <Button onClick={onClose}>{t('templates.editor.cancel')}</Button>
              <Button type="primary" onClick={() => void save()} loading={busy === 'save'} disabled={busy !== null || stale} data-testid="template-save">
                {t('templates.editor.save')}
              </Button>
            </>
          )}
        </Space>
      </div>
    </div>
  );
}
