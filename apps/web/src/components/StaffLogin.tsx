import { useEffect, useRef, useState } from 'react';
import { Button, Card, Form, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { changePasswordPathOf } from '../api';
import { pageAccountLocale } from '../lib/account-locale';
import { api } from '../lib/api';
import { withCaptcha } from '../lib/captcha';
import { isMobileBrowser } from '../lib/device';
import { announce } from '../lib/form-errors';
import {
  fieldErrorOf,
  isCaptchaRequired,
  useTranslateMessage,
} from '../lib/form-rules';
import { login, takeRedirectPath, type LoginResult, type StaffRealm } from '../lib/session';
import { PasswordLoginField, UsernameLoginField } from './auth/AuthFields';
import { useCaptchaPrompt } from './auth/CaptchaDialog';
import { LanguageSwitch } from './LanguageSwitch';
import logoUrl from '../assets/logo.svg';
import './auth/auth-forms.css';
import { useFeedback } from './feedback';

export interface StaffLoginProps {
  realm: StaffRealm;
  areaName: string;
  title: string;
  subtitle: string;
  /** Where to go after logging in when no page asked for the login. */
  homePath: string;
}

interface StaffLoginValues {
  username: string;
  password: string;
}

const LOGIN_URL: Record<StaffRealm, string> = {
  ADMIN: '/admin/login',
  EXPERT: '/expert/login',
};

/**
 * The admin and expert login pages: username, password and the slider, then the realm's
 * token. Refusals show under the password field (the call is silent); server faults are
 * toasted by the HTTP client itself.
 */
export function StaffLogin({ realm, areaName, title, subtitle, homePath }: StaffLoginProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const translate = useTranslateMessage();
  const captcha = useCaptchaPrompt();
  const [form] = Form.useForm<StaffLoginValues>();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  // After a forced logout (409) the client rejects every staff call until the next login;
  // that must not include the captcha and login calls of this very page.
  useEffect(() => api.resetSessionReplaced(), []);

  const submit = async (values: StaffLoginValues) => {
    if (busy.current) return;
    busy.current = true;
    api.resetSessionReplaced();
    try {
      const result = await withCaptcha({
        mobile: isMobileBrowser(),
        // The dialog's code alternative is for this very login (docs/security.md, "Captcha code alternative").
        requestCaptcha: () => captcha.request({ realm, account: values.username }),
        isCaptchaRequired,
        call: async (proof) => {
          setLoading(true);
          try {
            const body = { username: values.username, password: values.password, ...proof, locale: pageAccountLocale() };
            return (await api.post<LoginResult>(LOGIN_URL[realm], body, { silent: true })).data;
          } finally {
            setLoading(false);
          }
        },
      });
      if (!result) return;
      login(realm, result.accessToken);
      void message.success(t('authMsg.loginSuccess'));
      // A password set by an administrator is changed before anything else (the page asked for
      // stays saved and is opened after the change).
      if (result.mustChangePassword) void navigate(changePasswordPathOf(realm), { replace: true });
      else void navigate(takeRedirectPath(realm) ?? homePath, { replace: true });
    } catch (err) {
      const text = fieldErrorOf(err, true);
      if (text) {
        form.setFields([{ name: 'password', errors: [translate(text)] }]);
        // Said aloud too: the slider closed and focus is back on the form (WCAG 4.1.3).
        announce(translate(text));
      }
    } finally {
      busy.current = false;
    }
  };

  return (
    <main className="staff-login" data-testid={`${realm.toLowerCase()}-login`}>
      <Card className="staff-login__card">
        <div className="staff-login__head">
          <img src={logoUrl} alt="" width={56} height={56} />
          <Typography.Text type="secondary">{areaName}</Typography.Text>
          {/* The login page's h1, drawn at antd's level 2 size. */}
          <Typography.Title level={1} className="staff-login__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{subtitle}</Typography.Text>
        </div>
        <Form
          form={form}
          name={`${realm.toLowerCase()}-login`}
          className="auth-form"
          size="large"
          onFinish={(values) => void submit(values)}
        >
          <UsernameLoginField />
          <PasswordLoginField />
          <Button type="primary" htmlType="submit" block loading={loading} data-testid="staff-login-submit">
            {t('auth.submitLogin')}
          </Button>
        </Form>
        <div className="staff-login__foot">
          <LanguageSwitch size="small" />
        </div>
      </Card>
      {captcha.element}
    </main>
  );
}
