import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Result, Segmented, Skeleton, Space, Tabs, Typography } from 'antd';
import { ArrowLeftOutlined, ExportOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_MSG,
  SITE_BODY_MAX,
  SITE_CONTENT_PAGES,
  SITE_TITLE_MAX,
  siteBlockBodySchema,
  type SiteBlockAdmin,
  type SiteBlockBody,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { errorFieldOf, schemaRule } from '../../../lib/form-rules';
import { usePermission } from '../../../lib/permission';
import { useDocMessage } from './doc-messages';
import { DOC_QUERY_KEYS, PUBLIC_SITE_CONTENT_KEYS, fetchSiteBlocks, saveSiteBlock } from './documents-api';
import './documents.css';

interface BlockFormValues {
  title: string;
  body: string;
  titleEn: string;
  bodyEn: string;
}

const FORM_FIELDS = new Set<string>(['title', 'body', 'titleEn', 'bodyEn'] satisfies Array<keyof BlockFormValues>);
const isFormField = (field: string | null): field is keyof BlockFormValues => field !== null && FORM_FIELDS.has(field);

const toValues = (b: SiteBlockAdmin): BlockFormValues => ({ title: b.title, body: b.body, titleEn: b.titleEn ?? '', bodyEn: b.bodyEn ?? '' });

/** Blank English texts are sent as none: English pages then show the Chinese. */
export const toBlockBody = (v: BlockFormValues): SiteBlockBody => ({
  title: v.title.trim(),
  body: v.body,
  titleEn: v.titleEn.trim() || null,
  bodyEn: v.bodyEn.trim() ? v.bodyEn : null,
});

// The preview runs in a sandboxed frame without scripts: what is typed here is not yet the
// server's sanitised HTML, so it never enters the console's own document.
const PREVIEW_STYLE =
  'body{margin:12px;font:14px/1.75 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f1f1f;word-break:break-word}' +
  'img{max-width:100%;height:auto}table{border-collapse:collapse}td,th{border:1px solid #d9d9d9;padding:4px 8px}h1,h2,h3{margin:.6em 0 .4em}';
const previewDocument = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>${PREVIEW_STYLE}</style></head><body>${title ? `<h2>${escapeText(title)}</h2>` : ''}${body}</body></html>`;
const escapeText = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * 站点内容 (/admin/user/siteContentManagement-blocks): the home page blocks and the sign-up guide
 * (/sign-guide), in Chinese and English. The body is HTML; the server keeps only its
 * allow-listed part, and the public pages show a saved block at once.
 */
export function SiteBlocksPage() {
  const { t } = useTranslation('docsAdmin');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const blocks = useQuery({ queryKey: DOC_QUERY_KEYS.siteBlocks, queryFn: fetchSiteBlocks });

  return (
    <section className="admin-page site-blocks" data-testid="site-blocks-page">
      <header className="doc-page__header">
        <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)}>
          {tc('actions.back')}
        </Button>
        <h1 className="admin-page__title doc-edit__title">{t('titles.siteBlocks')}</h1>
      </header>
      <Typography.Paragraph type="secondary">{t('blocks.intro')}</Typography.Paragraph>
      {blocks.isError ? (
        <Result status="warning" title={t('blocks.loadFailed')} extra={<Button onClick={() => void blocks.refetch()}>{t('edit.reload')}</Button>} />
      ) : !blocks.data ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <Tabs
          className="site-blocks__tabs"
          items={blocks.data.map((block) => ({
            key: block.key,
            label: t(`blocks.keys.${block.key}`),
            children: <BlockEditor block={block} />,
          }))}
        />
      )}
    </section>
  );
}

function BlockEditor({ block }: { block: SiteBlockAdmin }) {
  const { t } = useTranslation('docsAdmin');
  const { message } = useFeedback();
  const translate = useDocMessage();
  const can = usePermission();
  const editable = can({ codes: ['news:edit'] });
  const queryClient = useQueryClient();
  const [form] = Form.useForm<BlockFormValues>();
  const [saved, setSaved] = useState(block);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [lang, setLang] = useState<'zh' | 'en'>('zh');
  const initial = useMemo(() => toValues(saved), [saved]);
  useEffect(() => form.setFieldsValue(initial), [form, initial]);

  const values = Form.useWatch([], form) as Partial<BlockFormValues> | undefined;
  const preview =
    lang === 'en'
      ? previewDocument(values?.titleEn?.trim() || values?.title || '', values?.bodyEn?.trim() ? values.bodyEn : (values?.body ?? ''))
      : previewDocument(values?.title ?? '', values?.body ?? '');

  const shape = siteBlockBodySchema.shape;
  const rules = {
    title: [schemaRule(shape.title, translate)],
    body: [schemaRule(shape.body, translate)],
    titleEn: [schemaRule(shape.titleEn, translate)],
    bodyEn: [schemaRule(shape.bodyEn, translate)],
  };

  const save = async (v: BlockFormValues) => {
    setSaving(true);
    setProblem(null);
    try {
      const answer = await saveSiteBlock(block.key, toBlockBody(v));
      // The form shows what the server kept (the sanitised HTML), so what is saved is what is seen.
      setSaved(answer);
      form.setFieldsValue(toValues(answer));
      void message.success(translate(DOCUMENT_MSG.siteSaved));
      void queryClient.invalidateQueries({ queryKey: DOC_QUERY_KEYS.siteBlocks });
      void queryClient.invalidateQueries({ queryKey: PUBLIC_SITE_CONTENT_KEYS });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500 || err.status === 401 || err.status === 409) return; // the client has told the user
      const field = errorFieldOf(err);
      if (isFormField(field)) form.setFields([{ name: field, errors: [translate(err.message)] }]);
      else setProblem(translate(err.message));
    } finally {
      setSaving(false);
    }
  };

  const page = SITE_CONTENT_PAGES[block.key];
  return (
    <div className="site-block" data-testid={`site-block-${block.key}`}>
      <div className="site-block__meta">
        <Typography.Text type="secondary" data-testid="site-block-updated">
          {saved.updatedAt
            ? saved.updatedBy
              ? t('blocks.updated', { time: formatDateTimeLabel(saved.updatedAt), by: saved.updatedBy })
              : t('blocks.updatedNoBy', { time: formatDateTimeLabel(saved.updatedAt) })
            : t('blocks.never')}
        </Typography.Text>
        <a href={page} target="_blank" rel="noreferrer">
          <ExportOutlined /> {t('blocks.open', { page })}
        </a>
      </div>
      {!editable && <Alert className="doc-edit__alert" type="info" showIcon title={t('blocks.readOnly')} />}
      {problem && <Alert className="doc-edit__alert" type="error" showIcon title={problem} data-testid="site-block-problem" />}
      <div className="site-block__grid">
        <Form<BlockFormValues> form={form} layout="vertical" initialValues={initial} disabled={!editable || saving} onFinish={(v) => void save(v)}>
          <Form.Item name="title" label={t('blocks.title')} rules={rules.title}>
            <Input maxLength={SITE_TITLE_MAX} showCount />
          </Form.Item>
          <Form.Item name="body" label={t('blocks.body')} rules={rules.body} extra={t('blocks.bodyHelp')}>
            <Input.TextArea autoSize={{ minRows: 6, maxRows: 20 }} maxLength={SITE_BODY_MAX} className="site-block__html" spellCheck={false} />
          </Form.Item>
          <Form.Item name="titleEn" label={t('blocks.titleEn')} rules={rules.titleEn} extra={t('blocks.englishHelp')}>
            <Input maxLength={SITE_TITLE_MAX} lang="en" />
          </Form.Item>
          <Form.Item name="bodyEn" label={t('blocks.bodyEn')} rules={rules.bodyEn}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 20 }} maxLength={SITE_BODY_MAX} className="site-block__html" spellCheck={false} lang="en" />
          </Form.Item>
          {editable && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="site-block-save">
                {t('blocks.save')}
              </Button>
              <Button onClick={() => form.setFieldsValue(initial)} data-testid="site-block-reset">
                {t('blocks.reset')}
              </Button>
            </Space>
          )}
        </Form>
        <Card
          size="small"
          className="site-block__preview"
          title={t('blocks.preview')}
          extra={
            <Segmented
              size="small"
              value={lang}
              onChange={(v) => setLang(v as 'zh' | 'en')}
              options={[
                // Each language named in itself, as the language switch does.
                { value: 'zh', label: <span lang="zh">{t('blocks.previewZh')}</span> },
                { value: 'en', label: <span lang="en">{t('blocks.previewEn')}</span> },
              ]}
            />
          }
        >
          <iframe
            className="site-block__frame"
            title={t('blocks.previewFrame', { name: t(`blocks.keys.${block.key}`) })}
            sandbox=""
            srcDoc={preview}
            data-testid="site-block-preview"
          />
        </Card>
      </div>
    </div>
  );
}
