/**
 * 初赛材料提交 (/material-submission, docs/rules/prelim.md): the preliminary materials of an approved
 * team. Other teams see why the form is closed. The application PDF's counted characters show
 * at once (counted here) and, once saved, as the server counted them.
 */
import { Card, Col, Form, Input, Row, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLoaderData } from 'react-router';
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
import { SubmissionForm } from '../components/SubmissionForm';
import { GoElsewhere, SubmissionLoad } from '../components/SubmissionLoad';
import { useSubmissionForm } from '../components/use-submission-form';
import { PARTICIPANT_PATHS } from '../routes';
import { PRELIM_FLOW } from './prelim-flow';
import { MATERIAL_DETAIL_PATH, prelimFormAllowed } from './prelim-loader';
import { usePdfChars } from './pdf-chars';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';
import '../team/team.css';

export { materialSubmissionLoader } from './prelim-loader';

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

export function MyPrelimPage() {
  const brief = useLoaderData() as PrelimBrief | null | undefined;
  const dict = useQuery({ queryKey: DICT_QUERY_KEYS.module('PRELIM'), queryFn: () => fetchDictModule('PRELIM') });
  return (
    <>
      <HiddenPageHeading />
      <SubmissionLoad flow={PRELIM_FLOW}>
        {(doc) =>
          !doc ? (
            <MaterialsClosed brief={brief} />
          ) : !prelimFormAllowed(doc.status) ? (
            <Navigate to={MATERIAL_DETAIL_PATH} replace />
          ) : (
            <PrelimForm doc={doc} options={dict.data ?? {}} submissionOpen={brief?.submissionOpen ?? true} />
          )
        }
      </SubmissionLoad>
    </>
  );
}

/** Only approved teams have materials (docs/rules/prelim.md); say why and where to go instead. */
function MaterialsClosed({ brief }: { brief: PrelimBrief | null | undefined }) {
  const { t } = useTranslation('signup');
  const { t: tFiles } = useTranslation('files');
  const user = useUserInfo();
  const teamStatus: TeamStatus | null = brief?.teamStatus ?? user.data?.teamStatus ?? null;
  return (
    <GoElsewhere
      title={t('materials.closedTitle')}
      subTitle={teamStatus ? t('materials.closedPending', { status: tFiles(`contest.teamStatus.${teamStatus}`) }) : t('materials.closedNoTeam')}
      label={teamStatus ? t('materials.viewSign') : t('sign.goSign')}
      to={teamStatus ? '/my-sign/detail' : '/my-sign'}
      testId="materials-closed"
    />
  );
}

interface PrelimFormProps {
  doc: PrelimDetail;
  options: DictOptions;
  submissionOpen: boolean;
}

function PrelimForm({ doc, options, submissionOpen }: PrelimFormProps) {
  const { t } = useTranslation('signup');
  const { form, initialValues, draft, rule } = useSubmissionForm(PRELIM_FLOW, {
    record: doc,
    values: prelimValues,
    payload: prelimPayload,
    schemas: { draft: prelimDraftSchema, submit: prelimSubmitSchema },
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
    <SubmissionForm flow={PRELIM_FLOW} record={doc} aside={doc.teamName} form={form} initialValues={initialValues} draft={draft} open={submissionOpen}>
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
    </SubmissionForm>
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
