/**
 * 初赛材料提交 (/material-submission, docs/rules/materials.md): the preliminary materials of an approved
 * team. Other teams see why the form is closed. The application PDF's counted characters show
 * at once (counted here) and, once saved, as the server counted them.
 */
import { useMemo } from 'react';
import { Button, Card, Col, Form, Input, Result, Row, Select, Skeleton, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLoaderData, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  KEYWORDS_MAX,
  PRELIM_FILE_EXTENSIONS,
  PRELIM_FILE_MAX_BYTES,
  PRELIM_OTHERS_MAX,
  SUMMARY_MAX_CHARS,
  TEAM_DICT_TYPES,
  charLength,
  prelimDraftSchema,
  prelimSubmitSchema,
  type DictOptions,
  type PrelimBrief,
  type PrelimDetail,
  type PrelimFileKind,
  type PrelimFormInput,
  type TeamStatus,
} from '@contest/shared';
import { MultiUpload, type UploadValueItem } from '../../../components/upload';
import { useUserInfo } from '../../../lib/session';
import {
  DICT_QUERY_KEYS,
  fetchDictModule,
  fileRefOf,
  fileRefsOf,
  toUploadValue,
  toUploadValues,
} from '../../../components/contest/contest-common';
import { CONTEST_QUERY_KEYS, fetchMyPrelim, savePrelimDraft, submitPrelim } from '../sign/contest-api';
import { schemaRule, useContestMessage } from '../sign/contest-rules';
import { FormAlerts } from '../sign/FormAlerts';
import { useDraftSubmit } from '../sign/use-draft-submit';
import { PARTICIPANT_PATHS } from '../routes';
import { MATERIAL_DETAIL_PATH, prelimFormAllowed } from './materials-loader';
import { usePdfChars } from './pdf-chars';
import '../sign/sign.css';

export { materialSubmissionLoader } from './materials-loader';

export interface PrelimValues {
  projectName?: string;
  track?: string;
  summary?: string;
  keywords?: string[];
  application?: UploadValueItem[];
  presentation?: UploadValueItem[];
  video?: UploadValueItem[];
  others?: UploadValueItem[];
}

export function prelimPayload(values: PrelimValues): PrelimFormInput {
  return {
    projectName: values.projectName ?? '',
    track: values.track ?? '',
    summary: values.summary ?? '',
    keywords: values.keywords ?? [],
    application: fileRefOf(values.application),
    presentation: fileRefOf(values.presentation),
    video: fileRefOf(values.video),
    others: fileRefsOf(values.others),
  };
}

function prelimValues(doc: PrelimDetail): PrelimValues {
  return {
    projectName: doc.projectName,
    track: doc.track || undefined,
    summary: doc.summary,
    keywords: doc.keywords,
    application: toUploadValue(doc.application),
    presentation: toUploadValue(doc.presentation),
    video: toUploadValue(doc.video),
    others: toUploadValues(doc.others),
  };
}

export function MaterialSubmissionPage() {
  const { t } = useTranslation('signup');
  const { t: tFiles } = useTranslation('files');
  const navigate = useNavigate();
  const brief = useLoaderData() as PrelimBrief | null | undefined;
  const user = useUserInfo();
  const doc = useQuery({ queryKey: CONTEST_QUERY_KEYS.prelim, queryFn: fetchMyPrelim });
  const dict = useQuery({ queryKey: DICT_QUERY_KEYS.module('PRELIM'), queryFn: () => fetchDictModule('PRELIM') });

  if (doc.isError) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void doc.refetch()}>{t('common.reload')}</Button>}
      />
    );
  }
  if (!doc.isSuccess) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (!doc.data) {
    // Only approved teams have materials (docs/rules/materials.md); say why and where to go instead.
    const teamStatus: TeamStatus | null = brief?.teamStatus ?? user.data?.teamStatus ?? null;
    return (
      <Result
        status="info"
        title={t('materials.closedTitle')}
        subTitle={
          teamStatus
            ? t('materials.closedPending', { status: tFiles(`contest.teamStatus.${teamStatus}`) })
            : t('materials.closedNoTeam')
        }
        extra={
          <Button type="primary" onClick={() => void navigate(teamStatus ? '/my-sign/detail' : '/my-sign')}>
            {teamStatus ? t('materials.viewSign') : t('sign.goSign')}
          </Button>
        }
        data-testid="materials-closed"
      />
    );
  }
  if (!prelimFormAllowed(doc.data.status)) return <Navigate to={MATERIAL_DETAIL_PATH} replace />;
  return <PrelimForm doc={doc.data} options={dict.data ?? {}} submissionOpen={brief?.submissionOpen ?? true} />;
}

interface PrelimFormProps {
  doc: PrelimDetail;
  options: DictOptions;
  submissionOpen: boolean;
}

function PrelimForm({ doc, options, submissionOpen }: PrelimFormProps) {
  const { t } = useTranslation('signup');
  const translate = useContestMessage();
  const [form] = Form.useForm<PrelimValues>();
  const initialValues = useMemo(() => prelimValues(doc), [doc]);
  const { mode, busy, refusal, clearRefusal, onSaveDraft, onSubmit } = useDraftSubmit<PrelimValues, PrelimDetail>({
    form,
    payload: prelimPayload,
    saveDraft: savePrelimDraft,
    submit: submitPrelim,
    queryKey: CONTEST_QUERY_KEYS.prelim,
    briefKey: CONTEST_QUERY_KEYS.prelimBrief,
    confirmText: t('materials.confirmSubmit'),
    detailPath: MATERIAL_DETAIL_PATH,
  });

  const rule = (...path: (string | number)[]) =>
    schemaRule<PrelimValues>(form, path, {
      schema: () => (mode.current === 'draft' ? prelimDraftSchema : prelimSubmitSchema),
      payload: prelimPayload,
      translate,
    });

  const tracks = (options[TEAM_DICT_TYPES.track] ?? []).map((o) => ({ value: o.code, label: o.name }));

  const upload = (kind: PrelimFileKind, maxCount: number) => ({
    origin: 'PRELIM' as const,
    accept: PRELIM_FILE_EXTENSIONS[kind].map((ext) => `.${ext}`).join(','),
    // The ceilings in force (大赛设置) come with the form; the defaults until the server says.
    maxSize: doc.fileMaxBytes?.[kind] ?? PRELIM_FILE_MAX_BYTES[kind],
    maxCount,
  });

  return (
    <div className="contest-page" data-testid="materials-page">
      <div className="contest-page__head">
        <Typography.Title level={4} className="contest-page__title">
          {t('materials.formTitle')}
        </Typography.Title>
        <Typography.Text type="secondary">{doc.teamName}</Typography.Text>
      </div>

      <FormAlerts
        revising={doc.status === 'REVISING'}
        auditReason={doc.auditReason}
        closedText={submissionOpen ? null : t('materials.submissionClosed')}
        refusal={refusal}
        onCloseRefusal={clearRefusal}
      />

      <Form<PrelimValues> form={form} layout="vertical" initialValues={initialValues} className="contest-form" data-testid="materials-form">
        <Card title={t('materials.sections.project')} size="small" className="contest-card">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="projectName" label={t('materials.fields.projectName')} required rules={[rule('projectName')]}>
                <Input placeholder={t('materials.placeholders.projectName')} maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="track" label={t('materials.fields.track')} required rules={[rule('track')]} extra={t('materials.trackDefault')}>
                <Select placeholder={t('sign.placeholders.select')} options={tracks} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="summary" label={t('materials.fields.summary')} required rules={[rule('summary')]}>
            <Input.TextArea
              placeholder={t('materials.placeholders.summary')}
              autoSize={{ minRows: 4, maxRows: 10 }}
              count={{ show: true, max: SUMMARY_MAX_CHARS, strategy: charLength }}
            />
          </Form.Item>
          <Form.Item name="keywords" label={t('materials.fields.keywords')} required rules={[rule('keywords')]}>
            <Select
              mode="tags"
              open={false}
              maxCount={KEYWORDS_MAX}
              tokenSeparators={[',', '，', ';', '；']}
              placeholder={t('materials.placeholders.keywords')}
              suffixIcon={null}
              data-testid="keywords"
            />
          </Form.Item>
        </Card>

        <Card title={t('materials.sections.files')} size="small" className="contest-card" extra={<SpeedTestLink />}>
          <Form.Item
            name="application"
            label={t('materials.fields.application')}
            required
            rules={[rule('application')]}
            extra={<ApplicationChars form={form} doc={doc} />}
          >
            <MultiUpload {...upload('application', 1)} />
          </Form.Item>
          <Form.Item name="presentation" label={t('materials.fields.presentation')} required rules={[rule('presentation')]}>
            <MultiUpload {...upload('presentation', 1)} />
          </Form.Item>
          <Form.Item name="video" label={t('materials.fields.video')} rules={[rule('video')]}>
            <MultiUpload {...upload('video', 1)} />
          </Form.Item>
          <Form.Item name="others" label={t('materials.fields.others')} rules={[rule('others')]}>
            <MultiUpload {...upload('other', PRELIM_OTHERS_MAX)} />
          </Form.Item>
        </Card>

        <div className="contest-actions">
          <Space wrap>
            <Button onClick={() => void onSaveDraft()} loading={busy === 'draft'} disabled={busy !== null || !submissionOpen} data-testid="save-draft">
              {t('common.saveDraft')}
            </Button>
            <Button type="primary" onClick={() => void onSubmit()} loading={busy === 'submit'} disabled={busy !== null || !submissionOpen} data-testid="submit">
              {t('common.submit')}
            </Button>
          </Space>
        </div>
      </Form>
    </div>
  );
}

/** Beside the uploads: how long will these files take on this connection (the speed test)? */
function SpeedTestLink() {
  const { t } = useTranslation('participant');
  return (
    <Link to={PARTICIPANT_PATHS.speedTest} data-testid="speed-test-link">
      {t('speedTest.link')}
    </Link>
  );
}

/**
 * The application's character count: the server's figure for the saved file, the browser's
 * for a file uploaded since the last save (until the server counts it on save).
 */
function ApplicationChars({ form, doc }: { form: ReturnType<typeof Form.useForm<PrelimValues>>[0]; doc: PrelimDetail }) {
  const { t } = useTranslation('signup');
  const current = fileRefOf(Form.useWatch('application', form));
  const isSaved = current !== null && current === doc.application?.uniqueNo && doc.applicationChars !== null;
  const local = usePdfChars(current !== null && !isSaved ? current : null);
  if (current === null) return null;

  let text: string;
  let over = false;
  if (isSaved) {
    const count = doc.applicationChars!;
    over = doc.maxApplicationChars !== null && count > doc.maxApplicationChars;
    text = doc.maxApplicationChars !== null ? t('materials.charsLimit', { count, max: doc.maxApplicationChars }) : t('materials.chars', { count });
  } else if (local.isSuccess) {
    over = doc.maxApplicationChars !== null && local.data > doc.maxApplicationChars;
    text = t('materials.charsLocal', { count: local.data });
  } else if (local.isError) {
    text = t('materials.charsFailed');
  } else {
    text = t('materials.charsCounting');
  }
  return (
    <div className="contest-chars" data-testid="application-chars">
      <Typography.Text type={over ? 'danger' : 'secondary'}>{text}</Typography.Text>
    </div>
  );
}
