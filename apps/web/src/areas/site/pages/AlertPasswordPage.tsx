import { useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUTH_MSG } from '@contest/shared';
import { api } from '../../../lib/api';
import { useOpenAuthModal } from '../../../lib/auth-modal';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  errorFieldOf,
  fieldErrorOf,
  newPasswordRule,
  schemaRule,
  useTranslateMessage,
} from '../../../lib/form-rules';
import { clearAccountInfo, saveRedirectPath, takeRedirectPath, useToken, useUserInfo } from '../../../lib/session';
import { useNavigate } from 'react-router';
import '../../../components/auth/auth-forms.css';
import './password-page.css';
import { useFeedback } from '../../../components/feedback';

interface AlertPasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const FIELDS = new Set(['oldPassword', 'newPassword']);

/**
 * /alert-password, opened in a new tab from the personal-centre menu. The server ends the
 * account's other sessions but keeps this one, so the user stays signed in here.
 */
export function AlertPasswordPage() {
  const { t } = useTranslation(['site', 'common']);
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const openAuthModal = useOpenAuthModal();
  const token = useToken('USER');
  const { data: info } = useUserInfo();
  const navigate = useNavigate();
  // Set by an administrator: the only thing this account may do until it is changed.
  const required = info?.mustChangePassword === true;
  const [form] = Form.useForm<AlertPasswordValues>();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const submit = async (values: AlertPasswordValues) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const res = await api.post(
        '/login/change/password',
        { oldPassword: values.oldPassword, newPassword: values.newPassword },
        { silent: true },
      );
      void message.success(translate(res.message || AUTH_MSG.passwordChanged));
      form.resetFields();
      if (required) {
        // The account works again: fresh info, then where the user was going.
        clearAccountInfo('USER');
        void navigate(takeRedirectPath('USER') ?? '/my-sign', { replace: true });
      }
    } catch (err) {
      const text = fieldErrorOf(err);
      if (!text) return;
      const named = errorFieldOf(err);
      const field = named && FIELDS.has(named) ? named : 'oldPassword';
      form.setFields([{ name: field as keyof AlertPasswordValues, errors: [translate(text)] }]);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };

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
              <Form.Item
                name="oldPassword"
                label={t('common:auth.fields.oldPassword')}
                rules={[schemaRule(FIELD_SCHEMAS.oldPassword, translate)]}
              >
                <Input.Password placeholder={t('common:auth.placeholders.oldPassword')} autoComplete="current-password" />
              </Form.Item>
              <Form.Item
                name="newPassword"
                label={t('common:auth.fields.newPassword')}
                dependencies={['oldPassword']}
                rules={[newPasswordRule('oldPassword', translate)]}
              >
                <Input.Password placeholder={t('common:auth.placeholders.newPassword')} autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirmPassword"
                label={t('common:auth.fields.confirmPassword')}
                dependencies={['newPassword']}
                rules={[confirmPasswordRule('newPassword', translate)]}
              >
                <Input.Password placeholder={t('common:auth.placeholders.confirmPassword')} autoComplete="new-password" />
              </Form.Item>
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
