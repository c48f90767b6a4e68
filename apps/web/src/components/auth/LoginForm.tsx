import { useRef, useState } from 'react';
import { Button, Form, Tabs, type FormInstance } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { pageAccountLocale } from '../../lib/account-locale';
import { api } from '../../lib/api';
import { closeAuthModal } from '../../lib/auth-modal';
import { withCaptcha, type CaptchaCodeTarget } from '../../lib/captcha';
import { isMobileBrowser } from '../../lib/device';
import { announce } from '../../lib/form-errors';
import {
  fieldErrorOf,
  isCaptchaRequired,
  useTranslateMessage,
} from '../../lib/form-rules';
import { changePasswordPathOf } from '../../api';
import { login, takeRedirectPath, type LoginResult } from '../../lib/session';
import { useCaptchaPrompt } from './CaptchaDialog';
import { PasswordLoginField, PhoneField, SmsCodeField, UsernameLoginField } from './AuthFields';
import { useFeedback } from '../feedback';

/** How a form treats the slider: the SMS alternative offered in its dialog, or declined up front. */
interface SliderChoice {
  onUseSms?(): void;
  declined?: boolean;
}

/** The login a captcha code would be for (docs/security.md, "Captcha code alternative"). */
function captchaTargetOf(body: Record<string, unknown>): CaptchaCodeTarget {
  return body.isPhoneLogin === true
    ? { realm: 'USER', account: String(body.phone ?? ''), isPhoneLogin: true }
    : { realm: 'USER', account: String(body.username ?? '') };
}

/** Where a participant lands after logging in when no page asked for the login. */
export const DEFAULT_PARTICIPANT_HOME = '/my-sign';

export type LoginMode = 'password' | 'sms';

interface PasswordValues {
  username: string;
  password: string;
}

interface SmsValues {
  phone: string;
  smsCode: string;
}

export interface LoginFormProps {
  /** Filled in after registering, so the new user only types the password. */
  initialUsername?: string;
  onSwitchToRegister(): void;
}

/**
 * Submit sequence shared by both tabs (docs/rules/identity.md, "Sign-in"): slider first on desktop, the login
 * call, then token, toast, redirect and closing the dialog. Server refusals go under
 * `errorField` (the password or the code field); no toast, the call is silent.
 */
function useLoginSubmit<T extends object>(
  // Untyped store: the field name is one of T's keys, which antd's NamePath<T> cannot express generically.
  form: FormInstance,
  errorField: keyof T & string,
  toBody: (values: T) => Record<string, unknown>,
  slider: SliderChoice = {},
) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const translate = useTranslateMessage();
  const captcha = useCaptchaPrompt({ onUseSms: slider.onUseSms });
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const submit = async (values: T) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const result = await withCaptcha({
        // Who chose the SMS path because the slider is beyond them is not shown it up front;
        // the server still asks for it after a failed attempt (captchaRequired).
        mobile: isMobileBrowser() || slider.declined === true,
        // The dialog's code alternative is for this very login: the name typed, on this tab.
        requestCaptcha: () => captcha.request(captchaTargetOf(toBody(values))),
        isCaptchaRequired,
        call: async (proof) => {
          setLoading(true);
          try {
            const res = await api.post<LoginResult>('/login', { ...toBody(values), ...proof, locale: pageAccountLocale() }, { silent: true });
            return res.data;
          } finally {
            setLoading(false);
          }
        },
      });
      if (!result) return;
      login('USER', result.accessToken);
      void message.success(t('authMsg.loginSuccess'));
      closeAuthModal();
      // A password reset by an administrator is changed before anything else.
      if (result.mustChangePassword) void navigate(changePasswordPathOf('USER'));
      else void navigate(takeRedirectPath('USER') ?? DEFAULT_PARTICIPANT_HOME);
    } catch (err) {
      // Network failures were already toasted by the client; the form just becomes usable again.
      const text = fieldErrorOf(err);
      if (text) {
        form.setFields([{ name: errorField, errors: [translate(text)] }]);
        // Said aloud too: the slider closed and focus is back on the form (WCAG 4.1.3).
        announce(translate(text));
      }
    } finally {
      busy.current = false;
    }
  };

  return { submit, loading, captchaElement: captcha.element };
}

function PasswordLogin({ initialUsername, onUseSms }: { initialUsername?: string; onUseSms(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const { submit, loading, captchaElement } = useLoginSubmit<PasswordValues>(
    form,
    'password',
    (v) => ({ username: v.username, password: v.password }),
    { onUseSms },
  );

  return (
    <Form
      form={form}
      name="password-login"
      className="auth-form"
      size="large"
      initialValues={{ username: initialUsername ?? '' }}
      onFinish={(values) => void submit(values)}
    >
      <UsernameLoginField autoFocus={!initialUsername} />
      {/* Initial focus goes to the password after registering: the username is already there. */}
      <PasswordLoginField autoFocus={!!initialUsername} />
      <div className="auth-form__row auth-form__row--end">
        <Link to="/forget-password" onClick={closeAuthModal}>
          {t('auth.forgotPassword')}
        </Link>
      </div>
      <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
        {t('auth.submitLogin')}
      </Button>
      {captchaElement}
    </Form>
  );
}

function SmsLogin({ sliderDeclined }: { sliderDeclined: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SmsValues>();
  const { submit, loading, captchaElement } = useLoginSubmit<SmsValues>(
    form,
    'smsCode',
    (v) => ({ isPhoneLogin: true, phone: v.phone, smsCode: v.smsCode }),
    { declined: sliderDeclined },
  );

  return (
    <Form form={form} name="sms-login" className="auth-form" size="large" onFinish={(values) => void submit(values)}>
      <PhoneField />
      <SmsCodeField form={form} smsKey="LOGIN_VERIFY_KEY" />
      <Button type="primary" htmlType="submit" block loading={loading} data-testid="login-submit">
        {t('auth.submitLogin')}
      </Button>
      {captchaElement}
    </Form>
  );
}

/** Login half of the welcome dialog: password and SMS tabs. */
export function LoginForm({ initialUsername, onSwitchToRegister }: LoginFormProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<LoginMode>('password');
  // Set by the captcha dialog's "改用短信验证码登录" (docs/rules/identity.md, "Slider captcha"): the SMS tab then skips the slider.
  const [sliderDeclined, setSliderDeclined] = useState(false);
  const switchToSms = () => {
    setSliderDeclined(true);
    setMode('sms');
  };
  return (
    <div className="auth-panel" data-testid="login-form">
      <Tabs
        centered
        activeKey={mode}
        onChange={(key) => setMode(key as LoginMode)}
        items={[
          {
            key: 'password',
            label: t('auth.passwordLogin'),
            children: <PasswordLogin initialUsername={initialUsername} onUseSms={switchToSms} />,
          },
          { key: 'sms', label: t('auth.smsLogin'), children: <SmsLogin sliderDeclined={sliderDeclined} /> },
        ]}
      />
      <p className="auth-panel__switch">
        {t('auth.noAccount')}
        <Button type="link" size="small" onClick={onSwitchToRegister}>
          {t('auth.toRegister')}
        </Button>
      </p>
    </div>
  );
}
