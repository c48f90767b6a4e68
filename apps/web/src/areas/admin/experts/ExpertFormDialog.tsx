import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CONTEST_MSG,
  CREDIT_CODE_LENGTH,
  EXPERT_DECLARED_MAX,
  creditCodeValid,
  declaredOrgSchema,
  expertBodySchema,
  isMaskedPii,
  type ExpertBody,
  type ExpertCredentials,
  type ExpertRow,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { AppDialog, useDictOptions } from '../../../components/admin-kit';
import { errorFieldOf, schemaRule } from '../../../lib/form-rules';
import { createExpert, updateExpert } from './experts-api';
import { useExpertMessage } from './expert-messages';
import { validateAndFocus } from '../../../lib/form-errors';

export const TRACK_DICT = 'TRACK';

interface DeclaredField {
  name?: string;
  creditCode?: string;
}

export interface ExpertFormValues {
  code?: string;
  name?: string;
  phone?: string;
  organization?: string;
  orgCreditCode?: string;
  title?: string;
  tracks?: string[];
  declaredOrgs?: DeclaredField[];
}

const blankToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

/** The form as the call's body: blanks dropped or null, as the server stores them. */
export function toExpertBody(values: ExpertFormValues): ExpertBody {
  return {
    code: values.code?.trim() ? values.code.trim().toUpperCase() : undefined,
    name: values.name?.trim() ?? '',
    phone: values.phone?.trim() ?? '',
    organization: values.organization?.trim() ?? '',
    orgCreditCode: blankToNull(values.orgCreditCode)?.toUpperCase() ?? null,
    title: blankToNull(values.title),
    tracks: values.tracks ?? [],
    declaredOrgs: (values.declaredOrgs ?? [])
      .filter((d) => d.name?.trim() || d.creditCode?.trim())
      .map((d) => ({ name: d.name?.trim() ?? '', creditCode: blankToNull(d.creditCode)?.toUpperCase() ?? null })),
  };
}

const valuesOf = (row: ExpertRow): ExpertFormValues => ({
  code: row.code,
  name: row.name,
  phone: row.phone ?? '',
  organization: row.organization,
  orgCreditCode: row.orgCreditCode ?? '',
  title: row.title ?? '',
  tracks: row.tracks,
  declaredOrgs: row.declaredOrgs.map((d) => ({ name: d.name, creditCode: d.creditCode ?? '' })),
});

/**
 * A credit code when given: 18 characters whose check character matches (as the sign-up checks
 * it). A masked one is the stored code sent back as it was shown: the server keeps the stored
 * value, or refuses a mask someone edited (piiMaskedValue, shown under the field).
 */
function creditCodeProblem(value: unknown): string | null {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!code || isMaskedPii(code)) return null;
  if (code.length !== CREDIT_CODE_LENGTH) return CONTEST_MSG.creditCodeLength;
  return creditCodeValid(code) ? null : CONTEST_MSG.creditCodeInvalid;
}

const S = expertBodySchema.shape;

export interface ExpertFormDialogProps {
  /** The expert being edited, 'new', or null when closed. */
  target: ExpertRow | 'new' | null;
  onClose(): void;
  /** After a save; a new expert comes with the password to show once. */
  onSaved(result: { created?: ExpertCredentials; saved?: ExpertRow }): void;
}

/** 新增专家 / 编辑专家: account, organisation (credit code when known), tracks and declared conflicts. */
export function ExpertFormDialog({ target, onClose, onSaved }: ExpertFormDialogProps) {
  const { t } = useTranslation('experts');
  const { t: ta } = useTranslation('admin');
  const translate = useExpertMessage();
  const [form] = Form.useForm<ExpertFormValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const tracks = useDictOptions([TRACK_DICT])[TRACK_DICT] ?? [];
  const isNew = target === 'new';
  // An edit starts from the masked phone and codes (docs/rules/admin.md, "Personal information"): say that they stay as stored.
  const maskedHint = (value: string | null | undefined) => (!isNew && isMaskedPii(value) ? ta('pii.keepMasked') : undefined);
  const editing = target !== null && target !== 'new' ? target : null;

  useEffect(() => {
    if (target === null) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { tracks: [], declaredOrgs: [] } : valuesOf(target));
  }, [target, form]);

  const creditRule = { validator: async (_r: unknown, value: unknown) => {
    const problem = creditCodeProblem(value);
    if (problem) throw new Error(translate(problem));
  } };

  /** A refusal goes under the field it names, else above the form. */
  const place = (err: unknown) => {
    const message = err instanceof Error ? err.message : t('form.saveFailed');
    const field = errorFieldOf(err);
    const declared = field?.match(/^declaredOrgs\.(\d+)\.(name|creditCode)$/);
    if (err instanceof ApiError && declared) {
      form.setFields([{ name: ['declaredOrgs', Number(declared[1]), declared[2] as 'name' | 'creditCode'], errors: [translate(message)] }]);
      return;
    }
    if (err instanceof ApiError && field && ['code', 'name', 'phone', 'organization', 'orgCreditCode', 'title', 'tracks'].includes(field)) {
      form.setFields([{ name: field as keyof ExpertFormValues, errors: [translate(message)] }]);
      return;
    }
    setFailure(translate(message));
  };

  const save = async () => {
    const values = await validateAndFocus(form);
    setSaving(true);
    setFailure(null);
    try {
      const body = toExpertBody(values);
      if (target === 'new') onSaved({ created: await createExpert(body) });
      else if (target) onSaved({ saved: await updateExpert(target.id, body) });
    } catch (err) {
      place(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <AppDialog
      open={target !== null}
      title={isNew ? t('actions.create') : t('actions.edit')}
      confirmLoading={saving}
      onOk={() => void save().catch(() => {})}
      onCancel={onClose}
      width={640}
      forceRender
    >
      <Form form={form} layout="vertical" name="expert" data-testid="expert-form">
        {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} data-testid="expert-form-error" />}
        <Typography.Paragraph type="secondary">{t('form.loginHint')}</Typography.Paragraph>
        <Form.Item
          name="code"
          label={t('fields.code')}
          extra={isNew ? undefined : t('form.codeEditHint')}
          rules={[{ validator: async (_r, v: unknown) => {
            if (typeof v !== 'string' || !v.trim()) return;
            const r = S.code.safeParse(v.trim().toUpperCase());
            if (!r.success) throw new Error(translate(r.error.issues[0]?.message ?? ''));
          } }]}
        >
          <Input autoComplete="off" placeholder={isNew ? t('form.codePlaceholder') : undefined} maxLength={9} />
        </Form.Item>
        <Form.Item name="name" label={t('fields.name')} required rules={[schemaRule(S.name, translate)]}>
          <Input autoComplete="off" maxLength={60} />
        </Form.Item>
        <Form.Item name="phone" label={t('fields.phone')} required rules={[schemaRule(S.phone, translate)]} extra={maskedHint(editing?.phone)}>
          <Input autoComplete="off" inputMode="tel" maxLength={11} />
        </Form.Item>
        <Form.Item name="organization" label={t('fields.organization')} required rules={[schemaRule(S.organization, translate)]}>
          <Input autoComplete="off" maxLength={110} />
        </Form.Item>
        <Form.Item name="orgCreditCode" label={t('fields.orgCreditCode')} rules={[creditRule]} extra={maskedHint(editing?.orgCreditCode)}>
          <Input autoComplete="off" placeholder={t('form.optional')} maxLength={18} />
        </Form.Item>
        <Form.Item name="title" label={t('fields.title')} rules={[schemaRule(S.title, translate)]}>
          <Input autoComplete="off" placeholder={t('form.optional')} maxLength={60} />
        </Form.Item>
        <Form.Item name="tracks" label={t('fields.tracks')} required rules={[schemaRule(S.tracks, translate)]}>
          <Select mode="multiple" allowClear options={tracks} placeholder={t('form.tracksPlaceholder')} optionFilterProp="label" />
        </Form.Item>

        <div role="group" aria-labelledby="expert-declared-title" className="expert-declared">
          <Typography.Text strong id="expert-declared-title">
            {t('fields.declaredOrgs')}
          </Typography.Text>
          <Typography.Paragraph type="secondary" className="expert-declared__hint">
            {t('form.declaredHint')}
          </Typography.Paragraph>
          <Form.List name="declaredOrgs">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" style={{ width: '100%' }} data-testid="declared-orgs">
                {fields.map((field, index) => (
                  <div key={field.key} className="expert-declared-row">
                    <Form.Item
                      name={[field.name, 'name']}
                      label={t('fields.declaredName')}
                      className="expert-declared-row__name"
                      rules={[schemaRule(declaredOrgSchema.shape.name, translate)]}
                    >
                      <Input autoComplete="off" maxLength={110} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'creditCode']}
                      label={t('fields.declaredCreditCode')}
                      className="expert-declared-row__code"
                      rules={[creditRule]}
                    >
                      <Input autoComplete="off" placeholder={t('form.optional')} maxLength={18} />
                    </Form.Item>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('form.removeDeclared', { n: index + 1 })}
                      title={t('form.removeDeclared', { n: index + 1 })}
                      onClick={() => remove(field.name)}
                      className="expert-declared-row__remove"
                    />
                  </div>
                ))}
                {fields.length < EXPERT_DECLARED_MAX && (
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', creditCode: '' })} block>
                    {t('form.addDeclared')}
                  </Button>
                )}
              </Space>
            )}
          </Form.List>
        </div>
      </Form>
    </AppDialog>
  );
}
