import { Alert, Button, Card, Form, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPathOf } from '../api';
import { clearAccountInfo, logout, takeRedirectPath, type StaffRealm } from '../lib/session';
import { LanguageSwitch } from './LanguageSwitch';
import logoUrl from '../assets/logo.svg';
import './auth/auth-forms.css';
import { ChangePasswordFields, useChangePasswordSubmit, type ChangePasswordValues } from './auth/ChangePasswordForm';

export interface StaffChangePasswordProps {
  realm: StaffRealm;
  areaName: string;
  title: string;
  /** Where to go after the change when no page was asked for. */
  homePath: string;
}

/**
 * The forced password change of the admin and expert consoles (docs/security.md "Accounts and
 * reach"): a password set by someone else (created, reset, imported) opens nothing else until the
 * holder replaces it. Reached after a login that says mustChangePassword, and from any call that
 * answers 403 PASSWORD_CHANGE_REQUIRED. A page of its own, outside the console, as the login is.
 * Its texts are the admin namespace's (both consoles load it), to keep them off the home page.
 */
export function StaffChangePassword({ realm, areaName, title, homePath }: StaffChangePasswordProps) {
  const { t: tAdmin } = useTranslation('admin');
  const navigate = useNavigate();
  const [form] = Form.useForm<ChangePasswordValues>();
  const { submit, loading } = useChangePasswordSubmit(
    form,
    () => {
      // The console reads the account again (menus, and the flag now off).
      clearAccountInfo(realm);
      void navigate(takeRedirectPath(realm) ?? homePath, { replace: true });
    },
    true,
  );

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
          <ChangePasswordFields autoFocus />
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
