import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Result, Select, Skeleton, Space, Switch } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_MSG,
  DOC_AUDIENCES,
  DOC_CATEGORIES,
  DOC_SORT_MAX,
  DOC_TITLE_MAX,
  UPLOAD_RULES,
  acceptOf,
  documentBodySchema,
  formatFileSize,
  type DocAudience,
  type DocCategory,
  type DocumentAdminRow,
  type DocumentBody,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { fileRefOf } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { MultiUpload, type UploadValueItem } from '../../../components/upload';
import { errorFieldOf, schemaRule } from '../../../lib/form-rules';
import { usePermission } from '../../../lib/permission';
import { useDocMessage } from './doc-messages';
import { DOC_PATHS, DOC_QUERY_KEYS, PUBLIC_DOCUMENT_KEYS, createDocument, fetchDocument, updateDocument } from './documents-api';
import './documents.css';

export interface DocumentFormValues {
  title?: string;
  titleEn?: string;
  category?: DocCategory;
  audience?: DocAudience;
  code?: string;
  sort?: number | null;
  enabled: boolean;
  file?: UploadValueItem[];
}

type FieldName = keyof DocumentFormValues;
const FORM_FIELDS = new Set<string>(['title', 'titleEn', 'category', 'audience', 'code', 'sort', 'enabled', 'file'] satisfies FieldName[]);
const isFormField = (field: string | null): field is FieldName => field !== null && FORM_FIELDS.has(field);

export function toFormValues(doc: DocumentAdminRow): DocumentFormValues {
  return {
    title: doc.title,
    titleEn: doc.titleEn ?? '',
    category: doc.category,
    audience: doc.audience,
    code: doc.code ?? '',
    sort: doc.sort,
    enabled: doc.enabled,
    file: [{ uid: doc.file.uniqueNo, id: doc.file.uniqueNo, filePath: doc.file.filePath, fileName: doc.file.name, fileSize: doc.file.size }],
  };
}

/** The form as the server takes it: blanks become none, the file its uniqueNo. */
export function toDocumentBody(v: DocumentFormValues): DocumentBody {
  return {
    title: (v.title ?? '').trim(),
    titleEn: v.titleEn?.trim() || null,
    file: fileRefOf(v.file) ?? '',
    code: v.code?.trim() || null,
    category: v.category as DocCategory,
    audience: v.audience as DocAudience,
    sort: v.sort ?? 0,
    enabled: v.enabled,
  };
}

const NEW_VALUES: DocumentFormValues = { sort: 0, enabled: true, audience: 'PUBLIC', file: [] };

/**
 * 编辑文档 (/admin/user/docManagement-edit/{id?}): without an id a new document. The file goes
 * through the shared uploader with origin DOC; the server decides who may read it from the
 * audience chosen here.
 */
export function DocumentEditPage() {
  const { id } = useParams();
  const { t } = useTranslation('docsAdmin');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const creating = !id;
  const existing = useQuery({ queryKey: DOC_QUERY_KEYS.detail(id ?? ''), queryFn: () => fetchDocument(id!), enabled: !creating, retry: false });
  const back = () => void navigate(DOC_PATHS.list);

  return (
    <section className="admin-page doc-edit" data-testid="document-edit">
      <header className="doc-page__header">
        <Button icon={<ArrowLeftOutlined />} onClick={back}>
          {tc('actions.back')}
        </Button>
        <h1 className="admin-page__title doc-edit__title">{creating ? t('edit.createTitle') : t('edit.editTitle')}</h1>
      </header>
      {creating ? (
        <DocumentForm onDone={back} />
      ) : existing.isError ? (
        <Result
          status="warning"
          title={existing.error instanceof ApiError && existing.error.status === 404 ? t('edit.notFound') : t('edit.loadFailed')}
          extra={<Button onClick={() => void existing.refetch()}>{t('edit.reload')}</Button>}
        />
      ) : existing.data ? (
        <DocumentForm doc={existing.data} onDone={back} />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </section>
  );
}

function DocumentForm({ doc, onDone }: { doc?: DocumentAdminRow; onDone(): void }) {
  const { t } = useTranslation('docsAdmin');
  const { message } = useFeedback();
  const translate = useDocMessage();
  const can = usePermission();
  const editable = can({ codes: ['doc:edit'] });
  const queryClient = useQueryClient();
  const [form] = Form.useForm<DocumentFormValues>();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const audience = Form.useWatch('audience', form);

  const initial = useMemo(() => (doc ? toFormValues(doc) : NEW_VALUES), [doc]);
  useEffect(() => form.setFieldsValue(initial), [form, initial]);

  const shape = documentBodySchema.shape;
  const rules = {
    title: [schemaRule(shape.title, translate)],
    titleEn: [schemaRule(shape.titleEn, translate)],
    code: [schemaRule(shape.code, translate)],
    category: [schemaRule(shape.category, translate)],
    audience: [schemaRule(shape.audience, translate)],
    sort: [schemaRule(shape.sort, translate)],
    file: [{ validator: async (_: unknown, value: UploadValueItem[] | undefined) => {
      if (!fileRefOf(value)) throw new Error(translate(DOCUMENT_MSG.docFileRequired));
    } }],
  };

  const save = async (values: DocumentFormValues) => {
    setSaving(true);
    setProblem(null);
    try {
      const body = toDocumentBody(values);
      if (doc) await updateDocument(doc.id, body);
      else await createDocument(body);
      void message.success(translate(doc ? DOCUMENT_MSG.docSaved : DOCUMENT_MSG.docCreated));
      void queryClient.invalidateQueries({ queryKey: DOC_QUERY_KEYS.all });
      void queryClient.invalidateQueries({ queryKey: PUBLIC_DOCUMENT_KEYS });
      onDone();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400) return; // the client has told the user
      const field = errorFieldOf(err);
      if (isFormField(field)) {
        form.setFields([{ name: field, errors: [translate(err.message)] }]);
        form.scrollToField(field);
      } else {
        setProblem(translate(err.message));
      }
    } finally {
      setSaving(false);
    }
  };

  const maxSize = UPLOAD_RULES.DOC.maxBytes;
  return (
    <Card>
      {!editable && <Alert className="doc-edit__alert" type="info" showIcon title={t('edit.readOnly')} />}
      {problem && <Alert className="doc-edit__alert" type="error" showIcon title={problem} data-testid="doc-edit-problem" />}
      <Form<DocumentFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        disabled={!editable || saving}
        onFinish={(v) => void save(v)}
        className="doc-edit__form"
        data-testid="document-form"
      >
        <Form.Item name="title" label={t('fields.title')} rules={rules.title} required>
          <Input maxLength={DOC_TITLE_MAX} showCount placeholder={t('edit.titlePlaceholder')} />
        </Form.Item>
        <Form.Item name="titleEn" label={t('fields.titleEn')} rules={rules.titleEn} extra={t('edit.titleEnHelp')}>
          <Input maxLength={DOC_TITLE_MAX} lang="en" />
        </Form.Item>
        <Form.Item name="category" label={t('fields.category')} rules={rules.category} required>
          <Select
            placeholder={t('edit.choose')}
            options={DOC_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="audience"
          label={t('fields.audience')}
          rules={rules.audience}
          required
          extra={audience ? t(`edit.audienceHelp.${audience}`) : undefined}
        >
          <Radio.Group options={DOC_AUDIENCES.map((a) => ({ value: a, label: t(`audience.${a}`) }))} />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('fields.code')}
          rules={rules.code}
          extra={t('edit.codeHelp')}
          normalize={(v: string | undefined) => v?.toUpperCase()}
        >
          <Input maxLength={64} className="doc-edit__code" placeholder="COMMITMENT_LETTER" />
        </Form.Item>
        <Form.Item name="sort" label={t('fields.sort')} rules={rules.sort} extra={t('edit.sortHelp')}>
          <InputNumber min={0} max={DOC_SORT_MAX} precision={0} />
        </Form.Item>
        <Form.Item name="file" label={t('fields.file')} rules={rules.file} required valuePropName="value">
          <MultiUpload
            origin="DOC"
            accept={acceptOf('DOC')}
            maxSize={maxSize}
            maxCount={1}
            drag
            tip={t('edit.fileTip', { size: formatFileSize(maxSize), types: UPLOAD_RULES.DOC.extensions.join(', ') })}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('fields.enabled')} valuePropName="checked" extra={t('edit.enabledHelp')}>
          <Switch checkedChildren={t('status.enabled')} unCheckedChildren={t('status.disabled')} />
        </Form.Item>
        <Space>
          {editable && (
            <Button type="primary" htmlType="submit" loading={saving} data-testid="doc-save">
              {t('edit.save')}
            </Button>
          )}
          <Button onClick={onDone} disabled={false}>
            {t('edit.cancel')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
