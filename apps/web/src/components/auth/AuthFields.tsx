import type { ReactNode } from 'react';
import { Form, Input, type FormInstance } from 'antd';
import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SmsKey } from '@contest/shared';
import { FIELD_SCHEMAS, schemaRule, useTranslateMessage } from '../../lib/form-rules';
import { SmsCodeButton } from './SmsCodeButton';

/**
 * The identity fields every form repeats (login, register, staff login, password recovery):
 * one place for their rules, input hints and limits. Dialog forms show an icon prefix and no
 * label; the full-page forms pass a `label` instead.
 */
interface FieldProps {
  label?: ReactNode;
}

export function UsernameLoginField({ autoFocus }: { autoFocus?: boolean }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  return (
    <Form.Item name="username" rules={[schemaRule(FIELD_SCHEMAS.loginUsername, translate)]}>
      <Input
        prefix={<UserOutlined />}
        placeholder={t('auth.placeholders.username')}
        aria-label={t('auth.fields.username')}
        autoComplete="username"
        maxLength={64}
        autoFocus={autoFocus}
      />
    </Form.Item>
  );
}

export function PasswordLoginField({ autoFocus }: { autoFocus?: boolean }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  return (
    <Form.Item name="password" rules={[schemaRule(FIELD_SCHEMAS.loginPassword, translate)]}>
      <Input.Password
        prefix={<LockOutlined />}
        placeholder={t('auth.placeholders.password')}
        aria-label={t('auth.fields.password')}
        autoComplete="current-password"
        autoFocus={autoFocus}
      />
    </Form.Item>
  );
}

export function PhoneField({ label }: FieldProps) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  return (
    <Form.Item name="phone" label={label} rules={[schemaRule(FIELD_SCHEMAS.phone, translate)]}>
      <Input
        prefix={label ? undefined : <MobileOutlined />}
        placeholder={t('auth.placeholders.phone')}
        aria-label={label ? undefined : t('auth.fields.phone')}
        autoComplete="tel"
        inputMode="numeric"
        maxLength={11}
      />
    </Form.Item>
  );
}

/** The code input with its send button; the button reads the phone from the same form. */
export function SmsCodeField({ form, smsKey, label, htmlFor }: FieldProps & { form: FormInstance; smsKey: SmsKey; htmlFor?: string }) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  return (
    <Form.Item label={label} className="auth-form__code" htmlFor={htmlFor}>
      <div className="auth-form__code-row">
        <Form.Item name="smsCode" noStyle rules={[schemaRule(FIELD_SCHEMAS.smsCode, translate)]}>
          <Input
            prefix={label ? undefined : <SafetyOutlined />}
            placeholder={t('auth.placeholders.smsCode')}
            aria-label={label ? undefined : t('auth.fields.smsCode')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
          />
        </Form.Item>
        <SmsCodeButton form={form} smsKey={smsKey} />
      </div>
    </Form.Item>
  );
}
