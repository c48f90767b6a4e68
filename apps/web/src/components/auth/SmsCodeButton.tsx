import { useState } from 'react';
import { Button, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { SMS, type SmsKey } from '@contest/shared';
import { api } from '../../lib/api';
import { fieldErrorOf, useTranslateMessage } from '../../lib/form-rules';
import { useCountdown } from '../../lib/use-countdown';
import { useFeedback } from '../feedback';
import { validateAndFocus } from '../../lib/form-errors';

export interface SmsCodeButtonProps {
  form: FormInstance;
  smsKey: SmsKey;
  phoneField?: string;
  /** Where a refusal from the server is shown (spec: under the code field). */
  codeField?: string;
  block?: boolean;
}

const RESEND_SECONDS = SMS.resendWaitMs / 1000;

/**
 * "Get code" button of the SMS fields: checks the phone field first, sends, then stays
 * disabled for 60 s showing the seconds left (docs/rules/identity.md, "SMS codes").
 */
export function SmsCodeButton({
  form,
  smsKey,
  phoneField = 'phone',
  codeField = 'smsCode',
  block = false,
}: SmsCodeButtonProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const translate = useTranslateMessage();
  const { remaining, start } = useCountdown();
  const [sending, setSending] = useState(false);

  const send = async () => {
    let phone: string;
    try {
      // Shows the phone rule's message under the phone field when it fails.
      phone = ((await validateAndFocus(form, [phoneField])) as Record<string, string>)[phoneField] ?? '';
    } catch {
      return;
    }
    setSending(true);
    try {
      const res = await api.post<{ resendAfterSeconds?: number } | null>(
        '/login/send/sms',
        { phone, smsKey },
        { silent: true },
      );
      form.setFields([{ name: codeField, errors: [] }]);
      // Same words as the server's 验证码已发送, but translatable.
      void message.success(t('auth.sms.sent'));
      const wait = res.data?.resendAfterSeconds;
      start(typeof wait === 'number' && wait > 0 ? wait : RESEND_SECONDS);
    } catch (err) {
      const text = fieldErrorOf(err);
      if (text) form.setFields([{ name: codeField, errors: [translate(text)] }]);
    } finally {
      setSending(false);
    }
  };

  const counting = remaining > 0;
  return (
    <Button
      className="sms-code-button"
      data-testid="sms-code-button"
      block={block}
      loading={sending}
      disabled={counting}
      onClick={() => void send()}
    >
      {counting ? t('auth.sms.resend', { seconds: remaining }) : t('auth.sms.send')}
    </Button>
  );
}
