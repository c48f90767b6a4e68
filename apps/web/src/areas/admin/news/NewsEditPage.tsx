import { useState } from 'react';
import { Alert, Button, Col, DatePicker, Form, Input, Result, Row, Select, Skeleton, Space, Switch, Tabs, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import {
  DATE_FORMATS,
  NEWS_CATEGORIES,
  NEWS_MSG,
  newsBodySchema,
  type AdminNewsDetail,
  type ApiEnvelope,
  type NewsBody,
  type NewsCategory,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { isStale } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { MultiUpload, type UploadValueItem } from '../../../components/upload';
import { errorFieldOf, schemaRule } from '../../../lib/form-rules';
import { usePermission } from '../../../lib/permission';
import { LIST_PATH, NEWS_QUERY_KEYS, createNews, editPath, fetchNewsDetail, previewPath, publishNews, updateNews } from './news-api';
import { NEWS_IMAGE_ACCEPT, NEWS_IMAGE_MAX_BYTES } from './news-image-upload';
import { useNewsMessage } from './news-messages';
import { NewsStatusTag } from './NewsStatusTag';
import { RichTextEditor } from './RichTextEditor';
import { useUnsavedGuard } from './use-unsaved-guard';
import './news.css';
import { validateAndFocus } from '../../../lib/form-errors';

export interface NewsFormValues {
  category?: NewsCategory;
  title?: string;
  titleEn?: string;
  summary?: string;
  summaryEn?: string;
  body?: string;
  bodyEn?: string;
  source?: string;
  cover?: UploadValueItem[];
  publishAt?: Dayjs | null;
  pinned?: boolean;
}

const EN_FIELDS = ['titleEn', 'summaryEn', 'bodyEn'];
const FORM_FIELDS = ['category', 'title', 'titleEn', 'summary', 'summaryEn', 'body', 'bodyEn', 'source', 'cover', 'publishAt', 'pinned'];

const blankToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

/** The form as the call's body: blanks null, the cover by its uniqueNo, the time in ISO. */
export function toNewsBody(values: NewsFormValues): NewsBody {
  const cover = values.cover?.[0];
  return {
    category: values.category as NewsCategory,
    title: values.title?.trim() ?? '',
    titleEn: blankToNull(values.titleEn),
    summary: values.summary?.trim() ?? '',
    summaryEn: blankToNull(values.summaryEn),
    body: values.body ?? '',
    bodyEn: values.bodyEn || null,
    source: blankToNull(values.source),
    cover: cover ? (cover.id ?? cover.filePath) : null,
    publishAt: values.publishAt ? values.publishAt.toISOString() : null,
    pinned: values.pinned ?? false,
  };
}

export function valuesOf(article: AdminNewsDetail | undefined): NewsFormValues {
  if (!article) return { category: undefined, pinned: false, body: '', bodyEn: '', cover: [] };
  return {
    category: article.category,
    title: article.title,
    titleEn: article.titleEn ?? '',
    summary: article.summary,
    summaryEn: article.summaryEn ?? '',
    body: article.body,
    bodyEn: article.bodyEn ?? '',
    source: article.source ?? '',
    cover:
      article.cover && article.coverPath
        ? [{ uid: article.cover, id: article.cover, filePath: article.coverPath, fileName: article.cover, fileSize: 0 }]
        : [],
    publishAt: article.publishAt ? dayjs(article.publishAt) : null,
    pinned: article.pinned,
  };
}

/**
 * /admin/user/siteContentManagement-edit/{id?}: a new article without an id. Loads the article,
 * then the form; a save that lands (or a reload) remounts the form on the new version.
 */
export function NewsEditPage() {
  const { id } = useParams();
  const { t } = useTranslation('newsAdmin');
  const query = useQuery({ queryKey: NEWS_QUERY_KEYS.detail(id ?? ''), queryFn: () => fetchNewsDetail(id!), enabled: !!id, retry: false });
  if (id && query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('detail.notFound') : t('edit.loadFailed')}
        extra={!missing && <Button onClick={() => void query.refetch()}>{t('actions.reload')}</Button>}
      />
    );
  }
  if (id && !query.data) return <Skeleton active paragraph={{ rows: 12 }} />;
  return <NewsEditForm key={`${id ?? 'new'}:${query.data?.updatedAt ?? ''}`} article={query.data} onReload={() => void query.refetch()} />;
}

function NewsEditForm({ article, onReload }: { article: AdminNewsDetail | undefined; onReload(): void }) {
  const { t } = useTranslation('newsAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const translate = useNewsMessage();
  const can = usePermission();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NewsFormValues>();
  const [tab, setTab] = useState('zh');
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [stale, setStale] = useState(false);
  const { dirty, setDirty } = useUnsavedGuard();
  const canEdit = can({ codes: ['news:edit'] });
  const canPublish = canEdit && can({ codes: ['news:publish'] });
  const cover = Form.useWatch('cover', form);

  const rule = (field: keyof typeof newsBodySchema.shape) => schemaRule(newsBodySchema.shape[field], translate);

  /** Shows a refusal: under its field (switching to its tab), as the STALE banner, or as a toast. */
  const showError = (err: unknown) => {
    if (isStale(err)) {
      setStale(true);
      return;
    }
    const field = errorFieldOf(err);
    if (err instanceof ApiError && field && FORM_FIELDS.includes(field)) {
      form.setFields([{ name: field as keyof NewsFormValues, errors: [translate(err.message)] }]);
      setTab(EN_FIELDS.includes(field) ? 'en' : 'zh');
      return;
    }
    if (err instanceof ApiError) void message.error(translate(err.message));
  };

  /** Validates, saves (create or update with the version read) and returns the saved article. */
  const save = async (): Promise<AdminNewsDetail | null> => {
    let values: NewsFormValues;
    try {
      values = await validateAndFocus(form);
    } catch (failed) {
      const first = (failed as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0]?.name[0];
      if (typeof first === 'string') setTab(EN_FIELDS.includes(first) ? 'en' : 'zh');
      return null;
    }
    const body = toNewsBody(values);
    try {
      const answer: ApiEnvelope<AdminNewsDetail> = article ? await updateNews(article.id, { ...body, updatedAt: article.updatedAt }) : await createNews(body);
      return commit(answer);
    } catch (err) {
      showError(err);
      return null;
    }
  };

  const commit = (answer: ApiEnvelope<AdminNewsDetail>): AdminNewsDetail => {
    const saved = answer.data;
    setDirty(false);
    void message.success(translate(answer.message));
    queryClient.setQueryData(NEWS_QUERY_KEYS.detail(saved.id), saved);
    void queryClient.invalidateQueries({ queryKey: NEWS_QUERY_KEYS.list });
    if (!article) void navigate(editPath(saved.id), { replace: true });
    return saved;
  };

  const onSaveDraft = async () => {
    setBusy('save');
    try {
      await save();
    } finally {
      setBusy(null);
    }
  };

  const onPublish = async () => {
    try {
      await validateAndFocus(form);
    } catch (failed) {
      const first = (failed as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0]?.name[0];
      if (typeof first === 'string') setTab(EN_FIELDS.includes(first) ? 'en' : 'zh');
      return;
    }
    const values = form.getFieldsValue(true) as NewsFormValues;
    const title = values.title?.trim() ?? '';
    const at = values.publishAt;
    const content = at && at.isAfter(dayjs()) ? t('confirm.publishScheduled', { title, time: at.format(DATE_FORMATS.datetime) }) : t('confirm.publish', { title });
    modal.confirm({
      title: t('confirm.title'),
      content,
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      onOk: async () => {
        setBusy('publish');
        try {
          const saved = dirty || !article ? await save() : article;
          if (!saved) return;
          const answer = await publishNews(saved.id, values.publishAt ? values.publishAt.toISOString() : null, true);
          setDirty(false);
          void message.success(translate(answer.message));
          void queryClient.invalidateQueries({ queryKey: NEWS_QUERY_KEYS.all });
          void navigate(LIST_PATH);
        } catch (err) {
          showError(err);
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const items = [
    {
      key: 'zh',
      label: t('edit.zh'),
      forceRender: true,
      children: (
        <>
          <Form.Item name="title" label={t('fields.title')} rules={[rule('title')]} required>
            <Input placeholder={t('edit.titlePlaceholder')} maxLength={100} showCount />
          </Form.Item>
          <Form.Item name="summary" label={t('fields.summary')} rules={[rule('summary')]}>
            <Input.TextArea placeholder={t('edit.summaryPlaceholder')} maxLength={300} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item name="body" label={t('fields.body')} rules={[rule('body')]}>
            <RichTextEditor ariaLabel={t('fields.body')} placeholder={t('edit.bodyPlaceholder')} disabled={!canEdit} />
          </Form.Item>
        </>
      ),
    },
    {
      key: 'en',
      label: t('edit.en'),
      forceRender: true,
      children: (
        <>
          <Alert type="info" showIcon className="news-edit__hint" title={t('edit.enHint')} />
          <Form.Item name="titleEn" label={t('fields.titleEn')} rules={[rule('titleEn')]}>
            <Input maxLength={100} showCount />
          </Form.Item>
          <Form.Item name="summaryEn" label={t('fields.summaryEn')} rules={[rule('summaryEn')]}>
            <Input.TextArea maxLength={300} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item name="bodyEn" label={t('fields.bodyEn')} rules={[rule('bodyEn')]}>
            <RichTextEditor ariaLabel={t('fields.bodyEn')} disabled={!canEdit} />
          </Form.Item>
        </>
      ),
    },
  ];

  const coverPath = cover?.[0]?.filePath;

  return (
    <section className="admin-page news-edit" data-testid="news-edit-page">
      <div className="news-edit__head">
        <h1 className="admin-page__title">{article ? t('edit.editTitle') : t('edit.newTitle')}</h1>
        <Typography.Text type="secondary" className="news-edit__status">
          {t('edit.statusLine')}
          {article ? <NewsStatusTag status={article.status} scheduled={article.scheduled} /> : t('edit.notSaved')}
        </Typography.Text>
      </div>
      {stale && (
        <Alert
          type="warning"
          showIcon
          className="news-edit__hint"
          title={translate(NEWS_MSG.newsStale)}
          description={t('edit.stale')}
          action={
            <Button size="small" onClick={onReload} data-testid="news-reload">
              {t('actions.reload')}
            </Button>
          }
          data-testid="news-stale"
        />
      )}
      <Form<NewsFormValues>
        form={form}
        layout="vertical"
        initialValues={valuesOf(article)}
        onValuesChange={() => setDirty(true)}
        disabled={!canEdit}
        scrollToFirstError
      >
        <Row gutter={24}>
          <Col xs={24} lg={16}>
            <Tabs activeKey={tab} onChange={setTab} items={items} />
          </Col>
          <Col xs={24} lg={8}>
            <Form.Item
              name="category"
              label={t('fields.category')}
              rules={[{ required: true, message: translate(NEWS_MSG.newsCategoryRequired) }]}
            >
              <Select
                placeholder={ta('pages.common.all')}
                options={NEWS_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
              />
            </Form.Item>
            <Form.Item name="cover" label={t('fields.cover')} extra={t('edit.coverHint')}>
              <MultiUpload origin="NEWS" accept={NEWS_IMAGE_ACCEPT} maxSize={NEWS_IMAGE_MAX_BYTES} maxCount={1} />
            </Form.Item>
            {coverPath && <img className="news-edit__cover" src={`${coverPath}?preview=1`} alt={t('fields.cover')} data-testid="news-cover" />}
            <Form.Item name="source" label={t('fields.source')} rules={[rule('source')]}>
              <Input placeholder={t('edit.sourcePlaceholder')} maxLength={50} />
            </Form.Item>
            <Form.Item name="publishAt" label={t('fields.publishAt')} extra={t('edit.publishAtHint')}>
              <DatePicker showTime format={DATE_FORMATS.datetime} placeholder={t('edit.publishAtPlaceholder')} className="news-edit__date" />
            </Form.Item>
            <Form.Item name="pinned" label={t('fields.pinned')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <div className="news-edit__actions">
        <Space wrap>
          <Button onClick={() => void navigate(LIST_PATH)} data-testid="news-back">
            {t('actions.back')}
          </Button>
          {article ? (
            <Button href={previewPath(article.id)} target="_blank" rel="noopener" data-testid="news-preview">
              {t('actions.preview')}
            </Button>
          ) : (
            <Button disabled title={t('edit.previewNeedsSave')}>
              {t('actions.preview')}
            </Button>
          )}
          {canEdit && (
            <Button onClick={() => void onSaveDraft()} loading={busy === 'save'} disabled={busy !== null || stale} data-testid="news-save">
              {article && article.status !== 'DRAFT' ? t('actions.save') : t('actions.saveDraft')}
            </Button>
          )}
          {canPublish && (
            <Button type="primary" onClick={() => void onPublish()} loading={busy === 'publish'} disabled={busy !== null || stale} data-testid="news-publish">
              {t('actions.publish')}
            </Button>
          )}
        </Space>
      </div>
    </section>
  );
}
