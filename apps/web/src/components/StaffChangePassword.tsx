import { useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AUTH_MSG } from '@contest/shared';
import { loginPathOf } from '../api';
import { api } from '../lib/api';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  errorFieldOf,
  fieldErrorOf,
  newPasswordRule,
  schemaRule,
  useTranslateMessage,
} from '../lib/form-rules';
import { clearAccountInfo, logout, takeRedirectPath, type StaffRealm } from '../lib/session';
import { LanguageSwitch } from './LanguageSwitch';
import logoUrl from '../assets/logo.svg';
import './auth/auth-forms.css';
import { useFeedback } from './feedback';

export interface StaffChangePasswordProps {
  realm: StaffRealm;
  areaName: string;
  title: string;
  /** Where to go after the change when no page was asked for. */
  homePath: string;
}

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const FIELDS = new Set(['oldPassword', 'newPassword']);

/**
 * The forced password change of the admin and expert consoles (docs/security.md "Accounts and
 * reach"): a password set by someone else (created, reset, imported) opens nothing else until the
 * holder replaces it. Reached after a login that says mustChangePassword, and from any call that
 * answers 403 PASSWORD_CHANGE_REQUIRED. A page of its own, outside the console, as the login is.
 * Its texts are the admin namespace's (both consoles load it), to keep them off the home page.
 */
export function StaffChangePassword({ realm, areaName, title, homePath }: StaffChangePasswordProps) {
  const { t } = useTranslation();
  const { t: tAdmin } = useTranslation('admin');
  const { message } = useFeedback();
  const navigate = useNavigate();
  const translate = useTranslateMessage();
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const submit = async (values: Values) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const res = await api.post('/login/change/password', { oldPassword: values.oldPassword, newPassword: values.newPassword }, { silent: true });
      void message.success(translate(res.message || AUTH_MSG.passwordChanged));
      // The console reads the account again (menus, and the flag now off).
      clearAccountInfo(realm);
      void navigate(takeRedirectPath(realm) ?? homePath, { replace: true });
    } catch (err) {
      const text = fieldErrorOf(err, true);
      if (!text) return;
      const named = errorFieldOf(err);
      const field = named && FIELDS.has(named) ? named : 'oldPassword';
      form.setFields([{ name: field as keyof Values, errors: [translate(text)] }]);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };

  const leave = () => {
    void logout(realm);
    void navigate(loginPathOf(realm), { replace: true });
  };

  return (
    <main className="staff-login" data-testid={`${realm.toLowerCase()}-change-password`}>
      <Card className="staff-login__card">
        <div className="staff-login__head">
          <img src={logoUrl} alt="" width={56} height={56} />
          <Typography.Text type="secondary">{areaName}</Typography.Text>
          <Typography.Title level={1} className="staff-login__title">
            {title}
          </Typography.Title>
        </div>
        <Alert type="warning" showIcon title={tAdmin('staffPassword.intro')} className="staff-change-password__intro" />
        <Form
          form={form}
          name={`${realm.toLowerCase()}-change-password`}
          className="auth-form"
          layout="vertical"
          size="large"
          requiredMark={false}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item name="oldPassword" label={t('auth.fields.oldPassword')} rules={[schemaRule(FIELD_SCHEMAS.oldPassword, translate)]}>
            <Input.Password placeholder={t('auth.placeholders.oldPassword')} autoComplete="current-password" autoFocus />
          </Form.Item>
          <Form.Item
            name="newPassword"
            label={t('auth.fields.newPassword')}
            dependencies={['oldPassword']}
            rules={[newPasswordRule('oldPassword', translate)]}
          >
            <Input.Password placeholder={t('auth.placeholders.newPassword')} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('auth.fields.confirmPassword')}
            dependencies={['newPassword']}
            rules={[confirmPasswordRule('newPassword', translate)]}
          >
            <Input.Password placeholder={t('auth.placeholders.confirmPassword')} autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loading} data-testid="staff-change-password-submit">
            {tAdmin('staffPassword.submit')}
          </Button>
          <Button type="link" block onClick={leave}>
            {tAdmin('staffPassword.logout')}
          </Button>
        </Form>
        <div className="staff-login__foot">
          <LanguageSwitch size="small" />
        </div>
      </Card>
    </main>
  );
}
