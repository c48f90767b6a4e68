import { useRef, useState } from 'react';
import { Button, Card, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AUTH_MSG } from '@contest/shared';
import { PhoneField, SmsCodeField } from '../../../components/auth/AuthFields';
import { api } from '../../../lib/api';
import { openAuthModal } from '../../../lib/auth-modal';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  errorFieldOf,
  fieldErrorOf,
  schemaRule,
  useTranslateMessage,
} from '../../../lib/form-rules';
import '../../../components/auth/auth-forms.css';
import './password-page.css';
import { useFeedback } from '../../../components/feedback';

interface ForgetPasswordValues {
  phone: string;
  smsCode: string;
  password: string;
  confirmPassword: string;
}

const FIELDS = new Set(['phone', 'smsCode', 'password']);

/** /forget-password: phone, SMS code, new password; then back to the login dialog. */
export function ForgetPasswordPage() {
  const { t } = useTranslation(['site', 'common']);
  const { message } = useFeedback();
  const navigate = useNavigate();
  const translate = useTranslateMessage();
  const [form] = Form.useForm<ForgetPasswordValues>();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const toLogin = () => {
    void navigate('/');
    openAuthModal('login');
  };

  const submit = async (values: ForgetPasswordValues) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const res = await api.post(
        '/login/find/password',
        { phone: values.phone, smsCode: values.smsCode, password: values.password },
        { silent: true },
      );
      void message.success(translate(res.message || AUTH_MSG.passwordReset));
      form.resetFields();
      toLogin();
    } catch (err) {
      const text = fieldErrorOf(err);
      if (!text) return;
      const named = errorFieldOf(err);
      const field = named && FIELDS.has(named) ? named : 'smsCode';
      form.setFields([{ name: field as keyof ForgetPasswordValues, errors: [translate(text)] }]);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };

  return (
    <section className="password-page">
      <Card className="password-page__card">
        <h1 className="password-page__title">{t('titles.forgetPassword')}</h1>
        <p className="password-page__intro">{t('forgetPassword.intro')}</p>
        <Form
          form={form}
          name="forget-password"
          className="auth-form"
          layout="vertical"
          size="large"
          requiredMark={false}
          onFinish={(values) => void submit(values)}
        >
          <PhoneField label={t('common:auth.fields.phone')} />
          <SmsCodeField
            form={form}
            smsKey="FIND_PASSWORD_KEY"
            label={t('common:auth.fields.smsCode')}
            htmlFor="forget-password_smsCode"
          />
          <Form.Item
            name="password"
            label={t('common:auth.fields.newPassword')}
            rules={[schemaRule(FIELD_SCHEMAS.registerPassword, translate)]}
          >
            <Input.Password placeholder={t('common:auth.placeholders.newPassword')} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            label={t('common:auth.fields.confirmPassword')}
            dependencies={['password']}
            rules={[confirmPasswordRule('password', translate)]}
          >
            <Input.Password placeholder={t('common:auth.placeholders.confirmPassword')} autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loading} data-testid="forget-password-submit">
            {t('forgetPassword.submit')}
          </Button>
        </Form>
        <p className="password-page__foot">
          {t('forgetPassword.rememberPassword')}
          <Button type="link" size="small" onClick={toLogin}>
            {t('forgetPassword.toLogin')}
          </Button>
        </p>
      </Card>
    </section>
  );
}
