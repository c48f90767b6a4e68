/**
 * The server's PDF of the template (docs/certificates.md, "Web pages"): the unsaved draft, or a saved
 * version, printed for a real project or expert picked here (sample data when none), shown in the
 * project's PDF viewer page (pdf.js, bundled) in a frame. After the first preview the draft is
 * printed again a moment after each change, while it is valid.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Checkbox, Empty, Select, Space, Spin, Tag, Typography } from 'antd';
import { CloseOutlined, EyeOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REVIEW_ROUNDS, isExpertCertificateKind, type CertificateKind, type CertificateTemplateBodyInput, type ReviewRound } from '@contest/shared';
import { CardTitle } from '../../../components/admin-kit';
import { messageOf, useCertificateMessage } from '../../../components/certificates';
import { PdfFrame } from '../../../components/preview/PdfFrame';
import { CERTIFICATE_QUERY_KEYS, fetchPreviewRecords, previewDraft, previewVersion } from './certificates-api';

/** Wait after the last change before the draft is printed again. */
export const PREVIEW_DEBOUNCE_MS = 1000;

export interface PreviewPanelProps {
  kind: CertificateKind;
  body: CertificateTemplateBodyInput;
  /** The draft passes the shared schema (an invalid one is not sent). */
  valid: boolean;
  templateId: string | null;
  /** A saved version to print instead of the draft (from the versions list), or null. */
  version: number | null;
  onLeaveVersion(): void;
}

export function PreviewPanel({ kind, body, valid, templateId, version, onLeaveVersion }: PreviewPanelProps) {
  const { t } = useTranslation('certificates');
  const translate = useCertificateMessage();
  const [recordId, setRecordId] = useState<string | undefined>(undefined);
  const [round, setRound] = useState<ReviewRound | undefined>(undefined);
  const [keyword, setKeyword] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [auto, setAuto] = useState(true);
  /** A preview was made: from then on the draft is printed again after each change. */
  const made = useRef(false);
  /** The viewer frame has drawn the current PDF's first page. */
  const [rendered, setRendered] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const expert = isExpertCertificateKind(kind);

  const records = useQuery({
    queryKey: CERTIFICATE_QUERY_KEYS.records(kind, keyword),
    queryFn: () => fetchPreviewRecords(kind, keyword),
    placeholderData: (previous) => previous,
  });

  // The record belongs to a kind of holder: a project is no answer for a letter.
  useEffect(() => setRecordId(undefined), [expert]);

  // The blob link lives as long as it is shown.
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  useEffect(() => () => controller.current?.abort(), []);

  const run = async () => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setLoading(true);
    setError(null);
    try {
      const params = { ...(recordId ? { recordId } : {}), ...(round && !expert ? { round } : {}) };
      const blob =
        version !== null && templateId ? await previewVersion(templateId, version, params, own.signal) : await previewDraft({ template: body, ...params }, own.signal);
      if (own.signal.aborted) return;
      setRendered(false);
      setUrl(URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' })));
      made.current = true;
    } catch (err) {
      if (own.signal.aborted) return;
      setError(translate(messageOf(err)) || t('editor.previewFailed'));
    } finally {
      if (!own.signal.aborted) setLoading(false);
    }
  };

  // Printed again after a change, once a preview was asked for (the draft only, while valid).
  const draftKey = JSON.stringify(body);
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    if (!made.current || !auto || !valid || version !== null) return;
    const timer = setTimeout(() => void runRef.current(), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draftKey, auto, valid, version, recordId, round]);

  // A version asked for from the list is printed at once.
  useEffect(() => {
    if (version !== null) void runRef.current();
  }, [version]);

  return (
    <Card size="small" className="cert-card" data-testid="cert-preview">
      <CardTitle title={t('editor.preview')} />
      <Typography.Paragraph type="secondary">{t('editor.previewHint')}</Typography.Paragraph>
      <Space wrap className="cert-preview__controls">
        <Select<string>
          showSearch={{ filterOption: false, onSearch: setKeyword }}
          allowClear
          value={recordId}
          onChange={(v) => setRecordId(v ?? undefined)}
          placeholder={t('editor.recordPlaceholder')}
          options={(records.data ?? []).map((r) => ({ value: r.id, label: r.label }))}
          loading={records.isFetching}
          aria-label={t('editor.record')}
          className="cert-preview__record"
          data-testid="preview-record"
        />
        {!expert && (
          <Select<ReviewRound | 'DEFAULT'>
            value={round ?? 'DEFAULT'}
            onChange={(v) => setRound(v === 'DEFAULT' ? undefined : v)}
            options={[{ value: 'DEFAULT', label: t('editor.roundDefault') }, ...REVIEW_ROUNDS.map((r) => ({ value: r, label: t(`round.${r}`) }))]}
            aria-label={t('editor.round')}
            popupMatchSelectWidth={false}
            data-testid="preview-round"
          />
        )}
        <Button type="primary" icon={<EyeOutlined />} loading={loading} disabled={version === null && !valid} onClick={() => void run()} data-testid="preview-run">
          {t('editor.previewRun')}
        </Button>
        {version === null && (
          <Checkbox checked={auto} onChange={(e) => setAuto(e.target.checked)} data-testid="preview-auto">
            {t('editor.previewAuto')}
          </Checkbox>
        )}
        {version !== null && (
          <Tag closable closeIcon={<CloseOutlined aria-label={t('common.cancel')} />} onClose={onLeaveVersion} color="blue" data-testid="preview-version">
            {t('editor.previewVersion', { n: version })}
          </Tag>
        )}
      </Space>
      {error && <Alert type="error" showIcon title={error} className="cert-block" data-testid="preview-error" />}
      <div className={`cert-preview__frame${url ? '' : ' cert-preview__frame--empty'}`} data-testid="preview-frame" data-rendered={rendered}>
        {url ? (
          <PdfFrame url={url} title={t('editor.previewTitle')} onRendered={() => setRendered(true)} onError={() => setError(t('editor.previewFailed'))} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('editor.previewEmpty')} />
        )}
        {loading && (
          <div className="cert-preview__loading" aria-live="polite">
            <Spin />
            <span>{t('editor.previewing')}</span>
          </div>
        )}
      </div>
    </Card>
  );
}
