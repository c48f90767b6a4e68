import { Alert, Button, Card, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOpenAuthModal } from '../../../lib/auth-modal';
import { clearAccountInfo, saveRedirectPath, takeRedirectPath, useToken, useUserInfo } from '../../../lib/session';
import { useNavigate } from 'react-router';
import '../../../components/auth/auth-forms.css';
import './password-page.css';
import { ChangePasswordFields, useChangePasswordSubmit, type ChangePasswordValues } from '../../../components/auth/ChangePasswordForm';

/**
 * /alert-password, opened in a new tab from the personal-centre menu. The server ends the
 * account's other sessions but keeps this one, so the user stays signed in here.
 */
export function AlertPasswordPage() {
  const { t } = useTranslation(['site', 'common']);
  const openAuthModal = useOpenAuthModal();
  const token = useToken('USER');
  const { data: info } = useUserInfo();
  const navigate = useNavigate();
  // Set by an administrator: the only thing this account may do until it is changed.
  const required = info?.mustChangePassword === true;
  const [form] = Form.useForm<ChangePasswordValues>();
  const { submit, loading } = useChangePasswordSubmit(form, () => {
    form.resetFields();
    if (required) {
      // The account works again: fresh info, then where the user was going.
      clearAccountInfo('USER');
      void navigate(takeRedirectPath('USER') ?? '/my-sign', { replace: true });
    }
  });

  const login = () => {
    // Back here after logging in, rather than to the personal centre.
    saveRedirectPath('/alert-password');
    openAuthModal('login');
  };

  return (
    <section className="password-page">
      <Card className="password-page__card">
        <h1 className="password-page__title">{t('titles.alertPassword')}</h1>
        {!token ? (
          <Alert
            type="info"
            showIcon
            title={t('alertPassword.needLogin')}
            action={
              <Button type="primary" size="small" onClick={login}>
                {t('alertPassword.login')}
              </Button>
            }
          />
        ) : (
          <>
            {info && (
              <p className="password-page__account">
                {t('alertPassword.account', { name: info.account.name })}
              </p>
            )}
            {required && <Alert type="warning" showIcon title={t('common:authMsg.passwordChangeRequired')} data-testid="password-change-required" />}
            <p className="password-page__intro">{t('alertPassword.intro')}</p>
            <Form
              form={form}
              name="alert-password"
              className="auth-form"
              layout="vertical"
              size="large"
              requiredMark={false}
              onFinish={(values) => void submit(values)}
            >
              <ChangePasswordFields />
              <Button type="primary" htmlType="submit" block loading={loading} data-testid="alert-password-submit">
                {t('alertPassword.submit')}
              </Button>
            </Form>
          </>
        )}
      </Card>
    </section>
  );
}
