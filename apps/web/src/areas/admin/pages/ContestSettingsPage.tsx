import { useEffect, useState } from 'react';
import { Alert, Button, Card, Col, DatePicker, Flex, Form, Input, InputNumber, Row, Select, Space, Spin, Switch, Typography } from 'antd';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ADMIN_MSG,
  DATE_FORMATS,
  EXPERT_DOWNLOAD_MODES,
  LOGIN_PER_ACCOUNT_PER_MINUTE,
  LOGIN_PER_IP_MAX,
  LOGIN_PER_IP_MIN,
  PHASE_KEYS,
  RETENTION_DAYS_DEFAULT,
  RETENTION_DAYS_MAX,
  RETENTION_KINDS,
  RETENTION_LOG_DAYS_MIN,
  REVIEW_ROUNDS,
  SCORE_AGGREGATES,
  SETTINGS_FILE_MAX_BYTES,
  SETTINGS_FILE_MIN_BYTES,
  SETTINGS_MAX_APPLICATION_CHARS,
  TIE_BREAKS,
  toBeijingWallClock,
  type ContestSettings,
  type ContestSettingsInput,
  type ExpertDownloadMode,
  type PhaseKey,
  type PrelimFileKind,
  type RetentionKind,
  type ReviewRound,
  type ScoreAggregate,
  type TieBreak,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { refusalText, serverText, useSettingsMessages } from '../../../components/admin-kit/refusal-text';
import { useFeedback } from '../../../components/feedback';
import { errorFieldOf } from '../../../lib/form-rules';
import { Permission, usePermission } from '../../../lib/permission';
import { USER_ACCOUNT_QUERY_KEY } from '../../../lib/session';
import { SETTINGS_QUERY_KEY, fetchSettings, saveSettings } from '../admin-api';

const MB = 1024 * 1024;
const FILE_KINDS: PrelimFileKind[] = ['application', 'presentation', 'video', 'other'];
const EDIT_CODE = 'settings:edit';
/** Query keys the site and participant areas use for what the settings drive (schedule, windows, forms). */
const CONTEST_QUERY_PREFIX = ['contest'] as const;

type Range = [Dayjs | null, Dayjs | null] | null;

interface FormValues {
  name: string;
  nameEn: string;
  dataDocMenuName: string;
  phases: Record<PhaseKey, { scheduled: boolean; range: Range }>;
  notify: { sms: boolean; email: boolean };
  prelim: { maxApplicationChars: number | null; fileMaxMb: Record<PrelimFileKind, number> };
  review: {
    blind: boolean;
    expertDownload: ExpertDownloadMode;
    rules: Record<ReviewRound, { aggregate: ScoreAggregate; minScoresForTrim: number; tieBreak: TieBreak[] }>;
    divergenceThreshold: number;
    minExpertsPerProject: number;
    /** Per round, null (empty field) = no cap (docs/rules/review.md, "Per-expert cap"). */
    maxProjectsPerExpert: Record<ReviewRound, number | null>;
  };
  publicity: { days: number };
  appeal: { windowDays: number };
  security: { loginPerIpPerMinute: number };
  /** Days after the contest's end each kind of personal data is kept (docs/retention.md). */
  retention: { days: Record<RetentionKind, number> };
}

/** Times are edited as Beijing wall-clock values, whatever the browser's time zone. */
const wallClock = (iso: string | null): Dayjs | null => (iso ? dayjs(toBeijingWallClock(iso)) : null);
const wallClockText = (value: Dayjs | null | undefined): string | null => (value ? value.format(DATE_FORMATS.datetime) : null);

export function toFormValues(s: ContestSettings): FormValues {
  return {
    name: s.name,
    nameEn: s.nameEn,
    dataDocMenuName: s.dataDocMenuName,
    phases: Object.fromEntries(
      PHASE_KEYS.map((key) => {
        const w = s.phases[key];
        return [key, { scheduled: w !== null, range: w ? [wallClock(w.start), wallClock(w.end)] : null }];
      }),
    ) as FormValues['phases'],
    notify: { ...s.notify },
    prelim: {
      maxApplicationChars: s.prelim.maxApplicationChars,
      fileMaxMb: Object.fromEntries(FILE_KINDS.map((k) => [k, s.prelim.fileMaxBytes[k] / MB])) as Record<PrelimFileKind, number>,
    },
    review: {
      blind: s.review.blind,
      expertDownload: s.review.expertDownload,
      rules: Object.fromEntries(REVIEW_ROUNDS.map((r) => [r, { ...s.review.rules[r], tieBreak: [...s.review.rules[r].tieBreak] }])) as FormValues['review']['rules'],
      divergenceThreshold: s.review.divergenceThreshold,
      minExpertsPerProject: s.review.minExpertsPerProject,
      maxProjectsPerExpert: { ...(s.review.maxProjectsPerExpert ?? { PRELIMINARY: null, FINAL: null }) },
    },
    publicity: { ...s.publicity },
    appeal: { ...s.appeal },
    security: { ...s.security },
    retention: { days: { ...(s.retention?.days ?? RETENTION_DAYS_DEFAULT) } },
  };
}

/** The PUT body: phase times as `YYYY-MM-DD HH:mm:ss` Beijing time, sizes back in bytes. */
export function toSettingsInput(v: FormValues): ContestSettingsInput {
  return {
    name: v.name,
    nameEn: v.nameEn,
    dataDocMenuName: v.dataDocMenuName,
    phases: Object.fromEntries(
      PHASE_KEYS.map((key) => {
        const p = v.phases[key];
        return [key, p.scheduled ? { start: wallClockText(p.range?.[0]), end: wallClockText(p.range?.[1]) } : null];
      }),
    ) as ContestSettingsInput['phases'],
    notify: { sms: Boolean(v.notify.sms), email: Boolean(v.notify.email) },
    prelim: {
      maxApplicationChars: v.prelim.maxApplicationChars ?? null,
      fileMaxBytes: Object.fromEntries(FILE_KINDS.map((k) => [k, Math.round(Number(v.prelim.fileMaxMb[k]) * MB)])) as Record<PrelimFileKind, number>,
    },
    review: {
      blind: Boolean(v.review.blind),
      expertDownload: v.review.expertDownload,
      rules: v.review.rules,
      divergenceThreshold: v.review.divergenceThreshold,
      minExpertsPerProject: v.review.minExpertsPerProject,
      maxProjectsPerExpert: Object.fromEntries(REVIEW_ROUNDS.map((r) => [r, v.review.maxProjectsPerExpert?.[r] ?? null])) as Record<ReviewRound, number | null>,
    },
    publicity: v.publicity,
    appeal: v.appeal,
    security: v.security,
    retention: { days: { ...(v.retention?.days ?? RETENTION_DAYS_DEFAULT) } },
  };
}

/**
 * One line per changed setting, "label: old -> new", for the confirmation shown before saving
 * (docs/rules/admin.md, "Contest settings"): the page saves everything at once, so the operator
 * sees exactly what the save will change.
 */
export function describeChanges(before: ContestSettingsInput, after: ContestSettingsInput, t: TFunction<'admin'>): string[] {
  const lines: string[] = [];
  const onOff = (v: boolean) => t(v ? 'pages.settings.on' : 'pages.settings.off');
  const num = (v: unknown) => (v === null || v === undefined ? t('pages.settings.unlimited') : String(v));
  const add = (label: string, a: string, b: string) => {
    if (a !== b) lines.push(t('pages.settings.change', { label, before: a, after: b, interpolation: { escapeValue: false } }));
  };
  const phase = (w: ContestSettingsInput['phases'][PhaseKey]) =>
    w ? `${w.start ?? t('pages.settings.openEnded')} ~ ${w.end ?? t('pages.settings.openEnded')}` : t('pages.settings.notScheduled');
  const round = (r: ReviewRound) => t(`pages.settings.rounds.${r}`);

  add(t('pages.settings.name'), before.name, after.name);
  add(t('pages.settings.nameEn'), before.nameEn, after.nameEn);
  add(t('pages.settings.dataDocMenuName'), before.dataDocMenuName, after.dataDocMenuName);
  for (const key of PHASE_KEYS) {
    add(t('pages.settings.window', { phase: t(`pages.settings.phaseNames.${key}`) }), phase(before.phases[key]), phase(after.phases[key]));
  }
  add(t('pages.settings.notifySms'), onOff(before.notify.sms), onOff(after.notify.sms));
  add(t('pages.settings.notifyEmail'), onOff(before.notify.email), onOff(after.notify.email));
  add(t('pages.settings.maxApplicationChars'), num(before.prelim.maxApplicationChars), num(after.prelim.maxApplicationChars));
  for (const kind of FILE_KINDS) {
    add(
      t('pages.settings.fileMaxMb', { kind: t(`pages.settings.fileKinds.${kind}`) }),
      String(before.prelim.fileMaxBytes[kind] / MB),
      String(after.prelim.fileMaxBytes[kind] / MB),
    );
  }
  add(t('pages.settings.blind'), onOff(before.review.blind), onOff(after.review.blind));
  add(
    t('pages.settings.expertDownload'),
    t(`pages.settings.expertDownloadModes.${before.review.expertDownload}`),
    t(`pages.settings.expertDownloadModes.${after.review.expertDownload}`),
  );
  add(t('pages.settings.divergenceThreshold'), num(before.review.divergenceThreshold), num(after.review.divergenceThreshold));
  add(t('pages.settings.minExpertsPerProject'), num(before.review.minExpertsPerProject), num(after.review.minExpertsPerProject));
  for (const r of REVIEW_ROUNDS) {
    const a = before.review.rules[r];
    const b = after.review.rules[r];
    add(t('pages.settings.aggregate', { round: round(r) }), t(`pages.settings.aggregates.${a.aggregate}`), t(`pages.settings.aggregates.${b.aggregate}`));
    add(t('pages.settings.minScoresForTrim', { round: round(r) }), num(a.minScoresForTrim), num(b.minScoresForTrim));
    const ties = (list: TieBreak[]) => list.map((x) => t(`pages.settings.tieBreaks.${x}`)).join('、') || '--';
    add(t('pages.settings.tieBreak', { round: round(r) }), ties(a.tieBreak), ties(b.tieBreak));
    const cap = (v: number | null | undefined) => (v === null || v === undefined ? t('pages.settings.noCap') : String(v));
    add(t('pages.settings.maxProjectsPerExpert', { round: round(r) }), cap(before.review.maxProjectsPerExpert?.[r]), cap(after.review.maxProjectsPerExpert?.[r]));
  }
  add(t('pages.settings.publicityDays'), num(before.publicity.days), num(after.publicity.days));
  add(t('pages.settings.appealWindowDays'), num(before.appeal.windowDays), num(after.appeal.windowDays));
  add(t('pages.settings.loginPerIpPerMinute'), num(before.security.loginPerIpPerMinute), num(after.security.loginPerIpPerMinute));
  for (const k of RETENTION_KINDS) {
    add(t('pages.settings.retentionDays', { kind: t(`pages.settings.retentionKinds.${k}`) }), num(before.retention?.days[k]), num(after.retention?.days[k]));
  }
  return lines;
}

const PLAIN_FIELDS = new Set([
  'name',
  'nameEn',
  'dataDocMenuName',
  'notify.sms',
  'notify.email',
  'prelim.maxApplicationChars',
  'review.blind',
  'review.expertDownload',
  'review.divergenceThreshold',
  'review.minExpertsPerProject',
  'publicity.days',
  'appeal.windowDays',
  'security.loginPerIpPerMinute',
]);

/** The form field a server `data.field` names (`phases.signUp.end`, `prelim.fileMaxBytes.video`...), null when none. */
export function formFieldOf(field: string): Array<string | number> | null {
  const [group, key, sub, leaf] = field.split('.');
  if (group === 'phases' && key && (PHASE_KEYS as readonly string[]).includes(key)) return ['phases', key, 'range'];
  if (group === 'prelim' && key === 'fileMaxBytes' && sub && (FILE_KINDS as string[]).includes(sub)) return ['prelim', 'fileMaxMb', sub];
  if (group === 'review' && key === 'rules' && sub && leaf) return ['review', 'rules', sub, leaf];
  if (group === 'retention' && key === 'days' && sub && (RETENTION_KINDS as readonly string[]).includes(sub)) return ['retention', 'days', sub];
  return PLAIN_FIELDS.has(field) ? field.split('.') : null;
}

function showServerError(form: FormInstance, err: unknown): void {
  if (!(err instanceof ApiError) || err.status !== 400) return;
  const field = errorFieldOf(err);
  const name = field ? formFieldOf(field) : null;
  if (!name) return;
  form.setFields([{ name, errors: [refusalText(err) ?? err.message] }]);
  form.scrollToField(name);
}

function PhaseRow({ phase, form }: { phase: PhaseKey; form: FormInstance<FormValues> }) {
  const { t } = useTranslation('admin');
  const SETTINGS_MSG = useSettingsMessages();
  const scheduled = Form.useWatch(['phases', phase, 'scheduled'], form);
  const name = t(`pages.settings.phaseNames.${phase}`);
  return (
    <Row gutter={16} align="bottom">
      <Col xs={24} md={8} lg={6}>
        <Form.Item name={['phases', phase, 'scheduled']} label={t('pages.settings.scheduled', { phase: name })} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={24} md={16} lg={18}>
        <Form.Item
          name={['phases', phase, 'range']}
          label={t('pages.settings.window', { phase: name })}
          rules={[
            {
              validator: async (_r, value: Range) => {
                if (value?.[0] && value[1] && !value[0].isBefore(value[1])) throw new Error(SETTINGS_MSG.phaseStartAfterEnd);
              },
            },
          ]}
        >
          <DatePicker.RangePicker
            showTime
            format={DATE_FORMATS.datetime}
            allowEmpty={[true, true]}
            disabled={!scheduled}
            placeholder={[t('pages.settings.start'), t('pages.settings.end')]}
            style={{ width: '100%', maxWidth: 440 }}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** 大赛设置 (/admin/system/settings): every contest setting on one page (docs/rules/admin.md, "Contest settings"). */
export function ContestSettingsPage() {
  const { t } = useTranslation('admin');
  // The shared checks' texts in the page's language (the server sends the same Chinese ones).
  const SETTINGS_MSG = useSettingsMessages();
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const can = usePermission();
  const canEdit = can({ codes: [EDIT_CODE] });
  const settings = useQuery({ queryKey: SETTINGS_QUERY_KEY, queryFn: fetchSettings });
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (settings.data) form.setFieldsValue(toFormValues(settings.data));
  }, [settings.data, form]);

  /** 保存: validate, then show what changes and save only once the operator confirms. */
  const confirmSave = async () => {
    try {
      await form.validateFields();
    } catch (failed) {
      const first = (failed as { errorFields?: Array<{ name: Array<string | number> }> }).errorFields?.[0];
      if (first) form.scrollToField(first.name);
      return;
    }
    if (!settings.data) return;
    const values = form.getFieldsValue(true) as FormValues;
    const changes = describeChanges(toSettingsInput(toFormValues(settings.data)), toSettingsInput(values), t);
    if (changes.length === 0) {
      void message.info(t('pages.settings.noChanges'));
      return;
    }
    modal.confirm({
      title: t('pages.settings.confirmSaveTitle'),
      content: (
        <ul data-testid="settings-changes" style={{ paddingInlineStart: 20, margin: 0 }}>
          {changes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: () => save(values),
    });
  };

  const save = async (values: FormValues) => {
    setSaving(true);
    try {
      const res = await saveSettings(toSettingsInput(values));
      queryClient.setQueryData(SETTINGS_QUERY_KEY, res.data);
      form.setFieldsValue(toFormValues(res.data));
      void message.success(serverText(res.message || ADMIN_MSG.saved));
      // The home schedule, the participant pages' windows and the data-document menu name.
      void queryClient.invalidateQueries({ queryKey: CONTEST_QUERY_PREFIX });
      void queryClient.invalidateQueries({ queryKey: USER_ACCOUNT_QUERY_KEY });
    } catch (err) {
      showServerError(form, err);
    } finally {
      setSaving(false);
    }
  };

  if (settings.isPending) return <Spin />;

  const round = (r: ReviewRound) => t(`pages.settings.rounds.${r}`);
  const maxMb = SETTINGS_FILE_MAX_BYTES / MB;

  return (
    <section className="admin-page" data-testid="contest-settings-page">
      <h1 className="admin-page__title">{t('titles.systemSettings')}</h1>
      {!canEdit && <Alert type="info" showIcon title={t('pages.settings.readOnly')} style={{ marginBottom: 16 }} />}
      <Form<FormValues>
        form={form}
        layout="vertical"
        name="contest-settings"
        disabled={!canEdit}
        scrollToFirstError
        // Enter in a field must not save a half-typed form: only 保存 (with its confirmation) saves.
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
        }}
      >
        <Flex vertical gap={24}>
          <Card>
            <CardTitle title={t('pages.settings.basic')} />
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="name"
                  label={t('pages.settings.name')}
                  required
                  rules={[{ required: true, whitespace: true, message: SETTINGS_MSG.nameRequired }, { max: 50, message: SETTINGS_MSG.nameTooLong }]}
                >
                  <Input maxLength={60} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="nameEn"
                  label={t('pages.settings.nameEn')}
                  extra={t('pages.settings.nameEnHint')}
                  required
                  rules={[{ required: true, whitespace: true, message: SETTINGS_MSG.nameEnRequired }, { max: 100, message: SETTINGS_MSG.nameEnTooLong }]}
                >
                  <Input maxLength={110} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="dataDocMenuName"
                  label={t('pages.settings.dataDocMenuName')}
                  required
                  rules={[
                    { required: true, whitespace: true, message: SETTINGS_MSG.dataDocMenuNameRequired },
                    { max: 20, message: SETTINGS_MSG.dataDocMenuNameTooLong },
                  ]}
                >
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.phasesTitle')} />
            <Typography.Paragraph type="secondary">{t('pages.settings.phasesHint')}</Typography.Paragraph>
            {PHASE_KEYS.map((phase) => (
              <PhaseRow key={phase} phase={phase} form={form} />
            ))}
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.notifyTitle')} />
            <Row gutter={16}>
              <Col xs={12} md={6}>
                <Form.Item name={['notify', 'sms']} label={t('pages.settings.notifySms')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item name={['notify', 'email']} label={t('pages.settings.notifyEmail')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.prelimTitle')} />
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item
                  name={['prelim', 'maxApplicationChars']}
                  label={t('pages.settings.maxApplicationChars')}
                  extra={t('pages.settings.maxApplicationCharsHint')}
                >
                  <InputNumber min={1} max={SETTINGS_MAX_APPLICATION_CHARS} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={16}>
              {FILE_KINDS.map((kind) => (
                <Col xs={24} sm={12} lg={6} key={kind}>
                  <Form.Item
                    name={['prelim', 'fileMaxMb', kind]}
                    label={t('pages.settings.fileMaxMb', { kind: t(`pages.settings.fileKinds.${kind}`) })}
                    extra={t('pages.settings.fileHint', { min: SETTINGS_FILE_MIN_BYTES / MB, max: maxMb })}
                    rules={[{ required: true, message: SETTINGS_MSG.fileMaxBytesInvalid }]}
                  >
                    <InputNumber min={SETTINGS_FILE_MIN_BYTES / MB} max={maxMb} suffix="MB" style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.reviewTitle')} />
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name={['review', 'blind']} label={t('pages.settings.blind')} valuePropName="checked" extra={t('pages.settings.blindHint')}>
                  <Switch />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name={['review', 'expertDownload']}
                  label={t('pages.settings.expertDownload')}
                  extra={t('pages.settings.expertDownloadHint')}
                  rules={[{ required: true, message: SETTINGS_MSG.expertDownloadInvalid }]}
                >
                  <Select
                    data-testid="settings-expert-download"
                    options={EXPERT_DOWNLOAD_MODES.map((m) => ({ value: m, label: t(`pages.settings.expertDownloadModes.${m}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name={['review', 'divergenceThreshold']}
                  label={t('pages.settings.divergenceThreshold')}
                  extra={t('pages.settings.divergenceHint')}
                  rules={[{ required: true, message: SETTINGS_MSG.divergenceInvalid }]}
                >
                  <InputNumber min={0} max={100} step={0.5} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name={['review', 'minExpertsPerProject']}
                  label={t('pages.settings.minExpertsPerProject')}
                  rules={[{ required: true, message: SETTINGS_MSG.minExpertsInvalid }]}
                >
                  <InputNumber min={1} max={50} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            {REVIEW_ROUNDS.map((r) => (
              <div key={r}>
                <CardTitle level={3} title={t('pages.settings.ruleOf', { round: round(r) })} />
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['review', 'maxProjectsPerExpert', r]}
                      label={t('pages.settings.maxProjectsPerExpert', { round: round(r) })}
                      extra={t('pages.settings.maxProjectsPerExpertHint')}
                    >
                      <InputNumber min={1} max={10000} precision={0} placeholder={t('pages.settings.noCap')} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={['review', 'rules', r, 'aggregate']} label={t('pages.settings.aggregate', { round: round(r) })}>
                      <Select options={SCORE_AGGREGATES.map((a) => ({ value: a, label: t(`pages.settings.aggregates.${a}`) }))} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['review', 'rules', r, 'minScoresForTrim']}
                      label={t('pages.settings.minScoresForTrim', { round: round(r) })}
                      rules={[{ required: true, message: SETTINGS_MSG.minScoresInvalid }]}
                    >
                      <InputNumber min={3} max={20} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['review', 'rules', r, 'tieBreak']}
                      label={t('pages.settings.tieBreak', { round: round(r) })}
                      extra={t('pages.settings.tieBreakHint')}
                    >
                      <Select mode="multiple" options={TIE_BREAKS.map((b) => ({ value: b, label: t(`pages.settings.tieBreaks.${b}`) }))} />
                    </Form.Item>
                  </Col>
                </Row>
              </div>
            ))}
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.publicityTitle')} />
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name={['publicity', 'days']} label={t('pages.settings.publicityDays')} rules={[{ required: true, message: SETTINGS_MSG.publicityDaysInvalid }]}>
                  <InputNumber min={1} max={30} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item
                  name={['appeal', 'windowDays']}
                  label={t('pages.settings.appealWindowDays')}
                  extra={t('pages.settings.appealHint')}
                  dependencies={[['publicity', 'days']]}
                  rules={[
                    { required: true, message: SETTINGS_MSG.appealDaysInvalid },
                    ({ getFieldValue }) => ({
                      validator: async (_r, value: number | null) => {
                        const days = getFieldValue(['publicity', 'days']) as number | null;
                        if (value != null && days != null && value > days) throw new Error(SETTINGS_MSG.appealExceedsPublicity);
                      },
                    }),
                  ]}
                >
                  <InputNumber min={1} max={30} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.securityTitle')} />
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name={['security', 'loginPerIpPerMinute']}
                  label={t('pages.settings.loginPerIpPerMinute')}
                  extra={t('pages.settings.loginPerIpHint', { min: LOGIN_PER_IP_MIN, max: LOGIN_PER_IP_MAX, perAccount: LOGIN_PER_ACCOUNT_PER_MINUTE })}
                  rules={[{ required: true, message: SETTINGS_MSG.loginPerIpInvalid }]}
                >
                  <InputNumber min={LOGIN_PER_IP_MIN} max={LOGIN_PER_IP_MAX} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
          </Card>

          <Card>
            <CardTitle title={t('pages.settings.retentionTitle')} />
            <Typography.Paragraph type="secondary">{t('pages.settings.retentionHint')}</Typography.Paragraph>
            <Row gutter={16}>
              {RETENTION_KINDS.map((k) => {
                const log = k === 'LOGIN_RECORDS' || k === 'OPERATION_RECORDS';
                return (
                  <Col xs={24} md={8} key={k}>
                    <Form.Item
                      name={['retention', 'days', k]}
                      label={t('pages.settings.retentionDays', { kind: t(`pages.settings.retentionKinds.${k}`) })}
                      extra={log ? t('pages.settings.retentionLogHint', { min: RETENTION_LOG_DAYS_MIN }) : undefined}
                      rules={[{ required: true, message: SETTINGS_MSG.retentionDaysInvalid }]}
                    >
                      <InputNumber min={log ? RETENTION_LOG_DAYS_MIN : 0} max={RETENTION_DAYS_MAX} precision={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                );
              })}
            </Row>
          </Card>

          <Permission codes={[EDIT_CODE]}>
            <Space>
              {/* The confirmation's 确认 shows the progress; this one only must not start a second save. */}
              <Button type="primary" htmlType="button" disabled={saving} onClick={() => void confirmSave()}>
                {t('pages.common.save')}
              </Button>
              <Button htmlType="button" onClick={() => settings.data && form.setFieldsValue(toFormValues(settings.data))}>
                {t('pages.settings.reset')}
              </Button>
            </Space>
          </Permission>
        </Flex>
      </Form>
    </section>
  );
}
