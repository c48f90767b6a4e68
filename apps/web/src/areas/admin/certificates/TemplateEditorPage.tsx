/**
 * 编辑证书模板 (/admin/results/certificate-templates/{id|new}, docs/certificates.md, "Templates"):
 * kind, name, award level, paper and background; the fields placed on a scaled page (drag, arrow
 * keys, or the numbers of the field list); the server's PDF of the draft for a real record; the
 * saved versions, each printable. Saving makes a new version (the one loaded is sent as
 * `baseVersion`: a save by someone else in between is refused as STALE, and the page offers to reload).
 * Without certificate:manage the page only reads.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Form, Input, Radio, Result, Row, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  CERTIFICATE_BACKGROUND_EXTENSIONS,
  CERTIFICATE_BACKGROUND_MAX_BYTES,
  CERTIFICATE_KINDS,
  CERTIFICATE_ORIENTATIONS,
  CERTIFICATE_PAGE_SIZES,
  CERTIFICATE_TEMPLATE_NAME_MAX,
  certificateTemplateBodySchema,
  type CertificateBackground,
  type CertificateTemplateDetail,
  type CertificateTemplateVersionRow,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { CardTitle, DataTable, isStale } from '../../../components/admin-kit';
import { messageOf, useCertificateMessage } from '../../../components/certificates';
import { useFeedback } from '../../../components/feedback';
import { fetchPreviewFile } from '../../../components/preview';
import { MultiUpload } from '../../../components/upload';
import type { UploadValueItem } from '../../../lib/upload';
import { usePermission } from '../../../lib/permission';
import { CERTIFICATE_QUERY_KEYS, createTemplate, fetchTemplate, fetchVersions, updateTemplate } from './certificates-api';
import { CERTIFICATE_PATHS, NEW_TEMPLATE_ID } from './certificate-paths';
import { FieldsTable } from './FieldsTable';
import { PagePlacement } from './PagePlacement';
import { PreviewPanel } from './PreviewPanel';
import { bodyOf, draftOf, emptyDraft, keysForKind, newField, type FieldDraft, type TemplateDraft } from './template-draft';
import '../admin-pages.css';
import './certificates.css';

const BACKGROUND_ACCEPT = CERTIFICATE_BACKGROUND_EXTENSIONS.map((e) => `.${e}`).join(',');

export function TemplateEditorPage() {
  const { t } = useTranslation('certificates');
  const { id = NEW_TEMPLATE_ID } = useParams();
  const isNew = id === NEW_TEMPLATE_ID;
  const [reloads, setReloads] = useState(0);
  const template = useQuery({ queryKey: CERTIFICATE_QUERY_KEYS.template(id), queryFn: () => fetchTemplate(id), enabled: !isNew, retry: false });

  if (!isNew && template.isPending) {
    return (
      <section className="admin-page" data-testid="template-editor-loading">
        <h1 className="admin-page__title">{t('editor.editTitle', { name: '' })}</h1>
        <Skeleton active paragraph={{ rows: 10 }} />
      </section>
    );
  }
  // A failed background read keeps what was loaded.
  if (!isNew && template.isError && !template.data) {
    const missing = template.error instanceof ApiError && template.error.status === 404;
    return (
      <section className="admin-page" data-testid="template-editor-failed">
        <Result
          status={missing ? '404' : 'warning'}
          title={<h1 className="admin-result-title">{missing ? t('editor.notFound') : t('common.loadFailed')}</h1>}
          extra={
            <Space>
              {!missing && <Button onClick={() => void template.refetch()}>{t('common.reload')}</Button>}
              <Link to={CERTIFICATE_PATHS.templates}>{t('common.back')}</Link>
            </Space>
          }
        />
      </section>
    );
  }
  return (
    <TemplateEditor
      key={`${id}:${reloads}`}
      id={isNew ? null : id}
      loaded={isNew ? null : (template.data ?? null)}
      onReload={async () => {
        await template.refetch();
        setReloads((n) => n + 1);
      }}
    />
  );
}

interface TemplateEditorProps {
  id: string | null;
  loaded: CertificateTemplateDetail | null;
  onReload(): Promise<void>;
}

function TemplateEditor({ id, loaded, onReload }: TemplateEditorProps) {
  const { t } = useTranslation('certificates');
  const translate = useCertificateMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const can = usePermission();
  const manage = can({ codes: ['certificate:manage'] });
  const readOnly = !manage;

  const [draft, setDraft] = useState<TemplateDraft>(() => (loaded ? draftOf(loaded) : emptyDraft()));
  const [base, setBase] = useState<number | null>(loaded?.version ?? null);
  const [dirty, setDirty] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [versionShown, setVersionShown] = useState<number | null>(null);

  const body = useMemo(() => bodyOf(draft), [draft]);
  const parsed = useMemo(() => certificateTemplateBodySchema.safeParse(body), [body]);
  const keys = keysForKind(draft.kind);
  const backgroundUrl = useBackgroundUrl(draft.background);

  // Functional updates: a drag sends moves faster than the page renders.
  const update = (next: (d: TemplateDraft) => TemplateDraft) => {
    setDraft(next);
    setDirty(true);
  };
  const change = (patch: Partial<TemplateDraft>) => update((d) => ({ ...d, ...patch }));
  const changeField = (uid: string, patch: Partial<FieldDraft>) => update((d) => ({ ...d, fields: d.fields.map((f) => (f.uid === uid ? { ...f, ...patch } : f)) }));
  const fieldName = (f: FieldDraft) => (f.key === 'text' && f.text.trim() ? f.text : t(`field.${f.key}`));

  const save = async () => {
    setRefusal(null);
    if (!parsed.success) {
      setProblems([...new Set(parsed.error.issues.map((i) => translate(i.message)))]);
      return;
    }
    setProblems([]);
    setSaving(true);
    try {
      if (id === null) {
        const created = await createTemplate(body);
        void message.success(t('editor.created'));
        queryClient.setQueryData(CERTIFICATE_QUERY_KEYS.template(created.id), created);
        void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.templates });
        setDirty(false);
        void navigate(CERTIFICATE_PATHS.template(created.id), { replace: true });
        return;
      }
      const saved = await updateTemplate(id, { ...body, ...(base !== null ? { baseVersion: base } : {}) });
      setBase(saved.version);
      setDirty(false);
      queryClient.setQueryData(CERTIFICATE_QUERY_KEYS.template(id), saved);
      void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.versions(id) });
      void queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.templates });
      void message.success(t('editor.saved', { n: saved.version }));
    } catch (err) {
      if (isStale(err)) setConflict(true);
      else setRefusal(translate(messageOf(err)) || t('common.loadFailed'));
    } finally {
      setSaving(false);
    }
  };

  const background = draft.background;
  const backgroundValue = useMemo<UploadValueItem[]>(
    () => (background ? [{ uid: background.uniqueNo, id: background.uniqueNo, fileName: background.name, fileSize: background.size, filePath: background.filePath }] : []),
    [background],
  );

  return (
    <section className="admin-page cert-editor" data-testid="template-editor">
      <div className="cert-editor__head">
        <Link to={CERTIFICATE_PATHS.templates} className="cert-editor__back">
          <ArrowLeftOutlined /> {t('common.back')}
        </Link>
        <h1 className="admin-page__title cert-editor__title">
          {id === null ? t('editor.newTitle') : t('editor.editTitle', { name: loaded?.name ?? draft.name })}
        </h1>
        <Space wrap>
          {base !== null && <Tag data-testid="editor-version">{t('common.versionN', { n: base })}</Tag>}
          {dirty && <Tag color="orange">{t('editor.unsaved')}</Tag>}
          {manage && (
            <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save()} data-testid="template-save">
              {id === null ? t('editor.create') : t('editor.save')}
            </Button>
          )}
        </Space>
      </div>

      {conflict && (
        <Alert
          type="warning"
          showIcon
          className="cert-block"
          title={t('editor.changed')}
          action={
            <Button size="small" onClick={() => void onReload()} data-testid="template-reload">
              {t('editor.reloadTemplate')}
            </Button>
          }
          data-testid="template-conflict"
        />
      )}
      {problems.length > 0 && (
        <Alert
          type="error"
          showIcon
          className="cert-block"
          title={t('editor.invalid')}
          description={
            <ul className="cert-problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
          data-testid="template-problems"
        />
      )}
      {refusal && <Alert type="error" showIcon className="cert-block" title={refusal} data-testid="template-refusal" />}

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={9}>
          <Card size="small" className="cert-card">
            <CardTitle title={t('editor.basics')} />
            <Form layout="vertical" disabled={readOnly} className="cert-basics">
              <Form.Item label={t('editor.kind')} htmlFor="cert-kind" required>
                <Select
                  id="cert-kind"
                  value={draft.kind}
                  // Documents of one template are of one kind: fixed once the template exists.
                  disabled={readOnly || id !== null}
                  onChange={(kind) => {
                    const allowed = keysForKind(kind);
                    change({ kind, fields: draft.fields.filter((f) => allowed.includes(f.key)), awardLevel: kind === 'AWARD' ? draft.awardLevel : '' });
                  }}
                  options={CERTIFICATE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
                  data-testid="template-kind"
                />
              </Form.Item>
              <Form.Item label={t('editor.name')} htmlFor="cert-name" required>
                <Input
                  id="cert-name"
                  value={draft.name}
                  maxLength={CERTIFICATE_TEMPLATE_NAME_MAX}
                  placeholder={t('editor.namePlaceholder')}
                  onChange={(e) => change({ name: e.target.value })}
                  data-testid="template-name-input"
                />
              </Form.Item>
              {draft.kind === 'AWARD' && (
                <Form.Item label={t('editor.awardLevel')} htmlFor="cert-award" extra={t('editor.awardLevelHint')}>
                  <Input
                    id="cert-award"
                    value={draft.awardLevel}
                    maxLength={20}
                    placeholder={t('editor.awardLevelPlaceholder')}
                    onChange={(e) => change({ awardLevel: e.target.value })}
                    data-testid="template-award-level"
                  />
                </Form.Item>
              )}
              <Form.Item label={t('editor.pageSize')}>
                <Radio.Group
                  value={draft.pageSize}
                  onChange={(e) => change({ pageSize: e.target.value })}
                  options={CERTIFICATE_PAGE_SIZES.map((s) => ({ value: s, label: t(`pageSize.${s}`) }))}
                  optionType="button"
                  data-testid="template-page-size"
                />
              </Form.Item>
              <Form.Item label={t('editor.orientation')}>
                <Radio.Group
                  value={draft.orientation}
                  onChange={(e) => change({ orientation: e.target.value })}
                  options={CERTIFICATE_ORIENTATIONS.map((o) => ({ value: o, label: t(`orientation.${o}`) }))}
                  optionType="button"
                  data-testid="template-orientation"
                />
              </Form.Item>
              <Form.Item label={t('editor.background')} htmlFor="cert-background" extra={draft.background ? undefined : t('editor.backgroundNone')}>
                <MultiUpload
                  id="cert-background"
                  origin="CERT"
                  accept={BACKGROUND_ACCEPT}
                  maxSize={CERTIFICATE_BACKGROUND_MAX_BYTES}
                  maxCount={1}
                  disabled={readOnly}
                  tip={t('editor.backgroundHint')}
                  value={backgroundValue}
                  onChange={(list) => {
                    const file = list[0];
                    change({ background: file ? { uniqueNo: file.id || file.uid, name: file.fileName, size: file.fileSize, filePath: file.filePath } : null });
                  }}
                />
              </Form.Item>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={15}>
          <Card size="small" className="cert-card" data-testid="cert-layout">
            <CardTitle title={t('editor.layout')} />
            <Typography.Paragraph type="secondary">{t('editor.layoutHint')}</Typography.Paragraph>
            <PagePlacement
              pageSize={draft.pageSize}
              orientation={draft.orientation}
              backgroundUrl={backgroundUrl}
              fields={draft.fields}
              selected={selected}
              onSelect={setSelected}
              onMove={(uid, x, y) => changeField(uid, { x, y })}
              labelOf={fieldName}
              disabled={readOnly}
            />
          </Card>
        </Col>
        <Col span={24}>
          <Card size="small" className="cert-card">
            <CardTitle title={t('editor.fields')} />
            <FieldsTable
              fields={draft.fields}
              keys={keys}
              selected={selected}
              onSelect={setSelected}
              onChange={changeField}
              onAdd={(key) => {
                const field = newField(key, draft.fields);
                update((d) => ({ ...d, fields: [...d.fields, field] }));
                setSelected(field.uid);
              }}
              onRemove={(uid) => update((d) => ({ ...d, fields: d.fields.filter((f) => f.uid !== uid) }))}
              disabled={readOnly}
            />
          </Card>
        </Col>
        <Col span={24}>
          <PreviewPanel kind={draft.kind} body={body} valid={parsed.success} templateId={id} version={versionShown} onLeaveVersion={() => setVersionShown(null)} />
        </Col>
        {id !== null && (
          <Col span={24}>
            <VersionsCard id={id} current={base} onPreview={setVersionShown} />
          </Col>
        )}
      </Row>
    </section>
  );
}

/** Every saved version, newest first, with the documents printed from it; each can be printed again. */
function VersionsCard({ id, current, onPreview }: { id: string; current: number | null; onPreview(n: number): void }) {
  const { t } = useTranslation('certificates');
  const versions = useQuery({ queryKey: [...CERTIFICATE_QUERY_KEYS.versions(id), current], queryFn: () => fetchVersions(id) });
  return (
    <Card size="small" className="cert-card" data-testid="template-versions">
      <CardTitle title={t('editor.versions')} />
      {versions.isError ? (
        <Alert type="warning" showIcon title={t('common.loadFailed')} action={<Button size="small" onClick={() => void versions.refetch()}>{t('common.reload')}</Button>} />
      ) : (
        <DataTable<CertificateTemplateVersionRow>
          rowKey="version"
          loading={versions.isFetching}
          dataSource={versions.data ?? []}
          columns={[
            { title: t('editor.versionColumns.version'), dataIndex: 'version', render: (n: number) => t('common.versionN', { n }) },
            { title: t('editor.versionColumns.name'), dataIndex: 'name' },
            { title: t('editor.versionColumns.createdAt'), dataIndex: 'createdAt', dateTime: true },
            { title: t('editor.versionColumns.createdBy'), dataIndex: 'createdBy', render: (v: string | null) => v || '--' },
            { title: t('editor.versionColumns.documents'), dataIndex: 'documentCount' },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              render: (_, v) => (
                <Button type="link" size="small" onClick={() => onPreview(v.version)} data-testid="version-preview">
                  {t('editor.previewThis')}
                </Button>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

/** The background's bytes (an admin-only attachment) as a blob link for the page preview; null while none. */
function useBackgroundUrl(background: CertificateBackground | null): string | null {
  const uniqueNo = background?.uniqueNo ?? null;
  const file = useQuery({
    queryKey: ['admin', 'certificates', 'background', uniqueNo],
    queryFn: ({ signal }) => fetchPreviewFile({ id: uniqueNo!, name: background?.name ?? 'background.png' }, signal),
    enabled: uniqueNo !== null,
    staleTime: Infinity,
    retry: false,
  });
  const [url, setUrl] = useState<string | null>(null);
  const blob = uniqueNo ? file.data?.blob : undefined;
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const link = URL.createObjectURL(blob);
    setUrl(link);
    return () => URL.revokeObjectURL(link);
  }, [blob]);
  return url;
}
