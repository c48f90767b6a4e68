import { useEffect, useState } from 'react';
import { Button, Card, Col, Form, Input, Row, Spin } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, AUTH_MSG, emailSchema, phoneSchema } from '@contest/shared';
import { serverText } from '../../../components/admin-kit/refusal-text';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { LabelValue } from '../../../components/admin-kit/LabelValue';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  fieldErrorOf,
  newPasswordRule,
  schemaRule,
  useTranslateMessage,
} from '../../../lib/form-rules';
import { STAFF_ACCOUNT_QUERY_KEY } from '../../../lib/session';
import { beijingTitle } from '../../../components/admin-kit';
import { ADMIN_QUERY_KEYS, changePassword, fetchProfile, formatDateTime, updateProfile } from '../admin-api';
import { showFieldError } from '../components/use-field-errors';
import { useFeedback } from '../../../components/feedback';

interface ProfileValues {
  name: string;
  phone?: string;
  email?: string;
}

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

function optionalRule(schema: Parameters<typeof schemaRule>[0], translate: (m: string) => string) {
  const rule = schemaRule(schema, translate) as { validator: (r: unknown, v: unknown) => Promise<void> };
  return {
    validator: async (r: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      await rule.validator(r, value);
    },
  };
}

/** 我的账号 (/admin/account/accountManage): the profile, and the password change. */
export function MyAccountPage() {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: ADMIN_QUERY_KEYS.profile, queryFn: fetchProfile });
  const [profileForm] = Form.useForm<ProfileValues>();
  const [passwordForm] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState<'profile' | 'password' | null>(null);

  useEffect(() => {
    if (profile.data) {
      profileForm.setFieldsValue({
        name: profile.data.name ?? '',
        phone: profile.data.phone ?? '',
        email: profile.data.email ?? '',
      });
    }
  }, [profile.data, profileForm]);

  const saveProfile = async (values: ProfileValues) => {
    setSaving('profile');
    try {
      await updateProfile(values);
      void message.success(serverText(ADMIN_MSG.saved));
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.profile });
      // The header shows the name.
      void queryClient.invalidateQueries({ queryKey: STAFF_ACCOUNT_QUERY_KEY });
    } catch (err) {
      showFieldError(profileForm, err, ['name', 'phone', 'email']);
    } finally {
      setSaving(null);
    }
  };

  const savePassword = async (values: PasswordValues) => {
    setSaving('password');
    try {
      const res = await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword });
      void message.success(translate(res.message || AUTH_MSG.passwordChanged));
      passwordForm.resetFields();
    } catch (err) {
      const text = fieldErrorOf(err, true);
      if (text) passwordForm.setFields([{ name: 'oldPassword', errors: [translate(text)] }]);
    } finally {
      setSaving(null);
    }
  };

  if (profile.isPending) return <Spin />;
  const data = profile.data;

  return (
    <section className="admin-page" data-testid="my-account-page">
      <h1 className="admin-page__title">{t('titles.accountManage')}</h1>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={12}>
          <Card>
            <CardTitle title={t('pages.myAccount.profile')} />
            {data && (
              <div className="my-account__facts">
                <LabelValue label={t('pages.fields.username')} value={data.username} />
                <LabelValue label={t('pages.fields.roles')} value={data.roles.map((r) => r.name).join('、')} />
                <LabelValue label={beijingTitle(t('pages.fields.lastLoginAt'))} value={formatDateTime(data.lastLoginAt)} />
              </div>
            )}
            <Form form={profileForm} layout="vertical" name="my-profile" onFinish={(v) => void saveProfile(v)}>
              <Form.Item
                name="name"
                label={t('pages.fields.name')}
                required
                rules={[{ required: true, whitespace: true, message: ADMIN_MSG.nameRequired }, { max: 50, message: ADMIN_MSG.nameTooLong }]}
              >
                <Input />
              </Form.Item>
              <Form.Item name="phone" label={t('pages.fields.phone')} rules={[optionalRule(phoneSchema, translate)]}>
                <Input />
              </Form.Item>
              <Form.Item name="email" label={t('pages.fields.email')} rules={[optionalRule(emailSchema, translate)]}>
                <Input />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving === 'profile'}>
                {t('pages.common.save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card>
            <CardTitle title={t('pages.myAccount.changePassword')} />
            <Form form={passwordForm} layout="vertical" name="my-password" onFinish={(v) => void savePassword(v)}>
              <Form.Item
                name="oldPassword"
                label={t('pages.myAccount.oldPassword')}
                required
                rules={[schemaRule(FIELD_SCHEMAS.oldPassword, translate)]}
              >
                <Input.Password autoComplete="current-password" />
              </Form.Item>
              <Form.Item
                name="newPassword"
                label={t('pages.myAccount.newPassword')}
                required
                dependencies={['oldPassword']}
                rules={[newPasswordRule('oldPassword', translate)]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirmPassword"
                label={t('pages.myAccount.confirmPassword')}
                required
                dependencies={['newPassword']}
                rules={[confirmPasswordRule('newPassword', translate)]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving === 'password'}>
                {t('pages.myAccount.submitPassword')}
              </Button>
            </Form>
          </Card>
        </Col>
      </Row>
    </section>
  );
}
