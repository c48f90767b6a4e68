import { useRef, useState } from 'react';
import { Button, Checkbox, Form, Input, Steps, type FormRule } from 'antd';
import {
  LockOutlined,
  MailOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MSG, VALIDATION_MSG } from '@contest/shared';
import { pageAccountLocale } from '../../lib/account-locale';
import { api } from '../../lib/api';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  errorFieldOf,
  fieldErrorOf,
  schemaRule,
  useTranslateMessage,
} from '../../lib/form-rules';
import { PhoneField, SmsCodeField } from './AuthFields';
import { useFeedback } from '../feedback';
import { validateAndFocus } from '../../lib/form-errors';

/** The user notice and privacy policy (docs/rules/identity.md, "Registration"), served as a static file. */
export const AGREEMENT_URL = '/files/xieyi.pdf';

interface RegisterValues {
  username: string;
  password: string;
  confirmPassword: string;
  email: string;
  phone: string;
  smsCode: string;
  agreement: boolean;
}

const ACCOUNT_FIELDS = ['username', 'password', 'confirmPassword'] as const;
const INFO_FIELDS = ['email', 'phone', 'smsCode', 'agreement'] as const;
/** Fields the server may name in data.field; anything else goes under the code field. */
const SERVER_FIELDS = new Set(['username', 'phone', 'email']);

export interface RegisterFormProps {
  onRegistered(username: string): void;
  onSwitchToLogin(): void;
}

/**
 * Register half of the welcome dialog, in two steps (docs/rules/identity.md, "Registration"): account (username,
 * password, confirmation), then info (email, phone, SMS code, agreement). Both steps stay
 * mounted, the inactive one hidden, so values and server errors survive going back.
 */
export function RegisterForm({ onRegistered, onSwitchToLogin }: RegisterFormProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const [form] = Form.useForm<RegisterValues>();
  const [step, setStep] = useState<0 | 1>(0);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const agreementRule: FormRule = {
    validator: async (_rule, value: unknown) => {
      if (value !== true) throw new Error(translate(VALIDATION_MSG.agreementRequired));
    },
  };

  const next = async () => {
    try {
      await validateAndFocus(form, [...ACCOUNT_FIELDS]);
    } catch {
      return;
    }
    setStep(1);
  };

  const submit = async () => {
    if (busy.current) return;
    try {
      await validateAndFocus(form, [...INFO_FIELDS]);
    } catch {
      return;
    }
    const values = form.getFieldsValue(true) as RegisterValues;
    busy.current = true;
    setLoading(true);
    try {
      const res = await api.post(
        '/login/register',
        {
          username: values.username,
          password: values.password,
          email: values.email,
          phone: values.phone,
          smsCode: values.smsCode,
          locale: pageAccountLocale(),
        },
        { silent: true },
      );
      void message.success(translate(res.message || MSG.registerSuccess));
      onRegistered(values.username);
    } catch (err) {
      const text = fieldErrorOf(err);
      if (!text) return;
      const named = errorFieldOf(err);
      const field = named && SERVER_FIELDS.has(named) ? named : 'smsCode';
      if (field === 'username') setStep(0);
      form.setFields([{ name: field as keyof RegisterValues, errors: [translate(text)] }]);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };

  return (
    <div className="auth-panel" data-testid="register-form" data-step={step}>
      <Steps
        className="auth-panel__steps"
        size="small"
        // Stay horizontal on phones: two short steps fit, and a vertical list pushes the form down.
        responsive={false}
        current={step}
        items={[{ title: t('auth.register.stepAccount') }, { title: t('auth.register.stepInfo') }]}
      />
      {/* No <form>: a native submit would validate the hidden step too. Enter moves on instead. */}
      <div
        className="auth-form"
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
          if (event.target.type === 'checkbox') return;
          event.preventDefault();
          void (step === 0 ? next() : submit());
        }}
      >
        <Form
          form={form}
          component={false}
          name="register"
          size="large"
          initialValues={{ agreement: false }}
        >
          <div hidden={step !== 0} data-testid="register-step-account">
            <Form.Item name="username" rules={[schemaRule(FIELD_SCHEMAS.registerUsername, translate)]}>
              <Input
                prefix={<UserOutlined />}
                placeholder={t('auth.placeholders.registerUsername')}
                aria-label={t('auth.fields.username')}
                autoComplete="username"
              />
            </Form.Item>
            <Form.Item name="password" rules={[schemaRule(FIELD_SCHEMAS.registerPassword, translate)]}>
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('auth.placeholders.newPassword')}
                aria-label={t('auth.fields.password')}
                autoComplete="new-password"
              />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              dependencies={['password']}
              rules={[confirmPasswordRule('password', translate)]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={t('auth.placeholders.confirmPassword')}
                aria-label={t('auth.fields.confirmPassword')}
                autoComplete="new-password"
              />
            </Form.Item>
            <Button type="primary" block onClick={() => void next()} data-testid="register-next">
              {t('auth.register.next')}
            </Button>
          </div>

          <div hidden={step !== 1} data-testid="register-step-info">
            <Form.Item name="email" rules={[schemaRule(FIELD_SCHEMAS.email, translate)]}>
              <Input
                prefix={<MailOutlined />}
                placeholder={t('auth.placeholders.email')}
                aria-label={t('auth.fields.email')}
                autoComplete="email"
                maxLength={100}
              />
            </Form.Item>
            <PhoneField />
            <SmsCodeField form={form} smsKey="REGISTER_VERIFY_KEY" />
            <Form.Item name="agreement" valuePropName="checked" rules={[agreementRule]}>
              <Checkbox data-testid="register-agreement">
                {t('auth.register.agreementPrefix')}
                <a href={AGREEMENT_URL} target="_blank" rel="noopener noreferrer">
                  {t('auth.register.agreementLink')}
                </a>
              </Checkbox>
            </Form.Item>
            <div className="auth-form__actions">
              <Button onClick={() => setStep(0)} data-testid="register-prev">
                {t('auth.register.prev')}
              </Button>
              <Button type="primary" loading={loading} onClick={() => void submit()} data-testid="register-submit">
                {t('auth.register.submit')}
              </Button>
            </div>
          </div>
        </Form>
      </div>
      <p className="auth-panel__switch">
        {t('auth.hasAccount')}
        <Button type="link" size="small" onClick={onSwitchToLogin}>
          {t('auth.toLogin')}
        </Button>
      </p>
    </div>
  );
}
