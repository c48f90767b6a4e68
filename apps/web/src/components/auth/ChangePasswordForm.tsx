import { useRef, useState } from 'react';
import { Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUTH_MSG } from '@contest/shared';
import { api } from '../../lib/api';
import {
  FIELD_SCHEMAS,
  confirmPasswordRule,
  errorFieldOf,
  fieldErrorOf,
  newPasswordRule,
  schemaRule,
  useTranslateMessage,
} from '../../lib/form-rules';
import { useFeedback } from '../feedback';

export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const FIELDS = new Set(['oldPassword', 'newPassword']);

/**
 * POST /login/change/password for every realm (the participant's /alert-password and the
 * consoles' forced change, docs/security.md "Accounts and reach"): one call at a time, the
 * server's message as the toast, a refusal placed under the field it names (else the old
 * password). `staff` leaves 401/409/5xx to the console's client, as the staff forms do.
 */
export function useChangePasswordSubmit(form: FormInstance<ChangePasswordValues>, onChanged: () => void, staff = false) {
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);

  const submit = async (values: ChangePasswordValues) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    try {
      const res = await api.post('/login/change/password', { oldPassword: values.oldPassword, newPassword: values.newPassword }, { silent: true });
      void message.success(translate(res.message || AUTH_MSG.passwordChanged));
      onChanged();
    } catch (err) {
      const text = fieldErrorOf(err, staff);
      if (!text) return;
      const named = errorFieldOf(err);
      const field = named && FIELDS.has(named) ? named : 'oldPassword';
      form.setFields([{ name: field as keyof ChangePasswordValues, errors: [translate(text)] }]);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };
  return { submit, loading };
}

/** Old password, new password (not the old one, by the spec's rule) and its confirmation. */
export function ChangePasswordFields({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t } = useTranslation('common');
  const translate = useTranslateMessage();
  return (
    <>
      <Form.Item name="oldPassword" label={t('auth.fields.oldPassword')} rules={[schemaRule(FIELD_SCHEMAS.oldPassword, translate)]}>
        <Input.Password placeholder={t('auth.placeholders.oldPassword')} autoComplete="current-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item name="newPassword" label={t('auth.fields.newPassword')} dependencies={['oldPassword']} rules={[newPasswordRule('oldPassword', translate)]}>
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
    </>
  );
}
