import { useId, useRef, useState } from 'react';
import { Button, Input, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { SMS } from '@contest/shared';
import { checkCaptchaCode, sendCaptchaCode, type CaptchaCodeTarget, type CaptchaProof } from '../../lib/captcha';
import { fieldErrorOf, useTranslateMessage } from '../../lib/form-rules';
import { useCountdown } from '../../lib/use-countdown';
import './slider-captcha.css';

export interface CaptchaCodeAlternativeProps {
  /** The login the code is for. */
  target: CaptchaCodeTarget;
  /** The right code passed a nonce: the login goes on exactly as after the slider. */
  onPassed(proof: CaptchaProof): void;
  /** Injected by tests; default the server calls of lib/captcha. */
  send?: typeof sendCaptchaCode;
  check?: typeof checkCaptchaCode;
}

const CODE_PATTERN = new RegExp(`^\\d{${SMS.codeLength}}$`);
const RESEND_SECONDS = SMS.resendWaitMs / 1000;

/**
 * The slider's non-visual form (WCAG 1.1.1; docs/security.md, "Captcha code alternative"): a
 * named button opens it, a one-time code goes to the account's phone or e-mail, and the right
 * code passes the captcha. Every outcome is spoken: progress in a polite status, errors in an
 * alert; focus moves to the code field once the code is on its way.
 */
export function CaptchaCodeAlternative({ target, onPassed, send = sendCaptchaCode, check = checkCaptchaCode }: CaptchaCodeAlternativeProps) {
  const { t } = useTranslation();
  const translate = useTranslateMessage();
  const { remaining, start } = useCountdown();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const inputRef = useRef<InputRef>(null);
  const panelId = useId();
  const introId = useId();
  const errorId = useId();
  const inputId = useId();

  const fail = (err: unknown) => {
    const text = fieldErrorOf(err);
    setStatus('');
    // The server's text, translated when it is a shared one; network failures were toasted already.
    setError(text ? translate(text) : '');
  };

  const onSend = async () => {
    setSending(true);
    setError('');
    try {
      const { resendAfterSeconds } = await send(target);
      start(resendAfterSeconds > 0 ? resendAfterSeconds : RESEND_SECONDS);
      setStatus(t('auth.captcha.codeSent'));
      inputRef.current?.focus();
    } catch (err) {
      fail(err);
    } finally {
      setSending(false);
    }
  };

  const onCheck = async () => {
    if (checking) return;
    if (!CODE_PATTERN.test(code)) {
      setStatus('');
      setError(t('auth.captcha.codeRequired'));
      inputRef.current?.focus();
      return;
    }
    setChecking(true);
    setError('');
    try {
      const proof = await check(target, code);
      setStatus(t('auth.captcha.codePassed'));
      onPassed(proof);
    } catch (err) {
      fail(err);
      inputRef.current?.focus();
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="captcha-code" data-testid="captcha-code">
      <Button
        type="link"
        size="small"
        className="captcha-code__toggle"
        data-testid="captcha-use-code"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
      >
        {t('auth.captcha.useCode')}
      </Button>
      {open && (
        <div id={panelId} className="captcha-code__panel" role="group" aria-label={t('auth.captcha.useCode')} aria-describedby={introId}>
          <p id={introId} className="captcha-code__intro">
            {t('auth.captcha.codeIntro')}
          </p>
          <Button data-testid="captcha-code-send" loading={sending} disabled={remaining > 0} onClick={() => void onSend()}>
            {remaining > 0 ? t('auth.captcha.codeResend', { seconds: remaining }) : t('auth.captcha.codeSend')}
          </Button>
          <div className="captcha-code__entry">
            <label htmlFor={inputId} className="captcha-code__label">
              {t('auth.captcha.codeLabel')}
            </label>
            <Input
              id={inputId}
              ref={inputRef}
              data-testid="captcha-code-input"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={SMS.codeLength}
              value={code}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => setCode(e.target.value.trim())}
              onPressEnter={(e) => {
                // Not the login form's submit: the dialog lives in a portal of that form's tree.
                e.preventDefault();
                e.stopPropagation();
                void onCheck();
              }}
            />
            <Button type="primary" data-testid="captcha-code-submit" loading={checking} onClick={() => void onCheck()}>
              {t('auth.captcha.codeSubmit')}
            </Button>
          </div>
          {/* Always in the page, so their changes are announced: errors assertively, progress politely. */}
          <div id={errorId} className="captcha-code__error" data-testid="captcha-code-error" role="alert">
            {error}
          </div>
          <div className="captcha-code__status" data-testid="captcha-code-status" role="status" aria-live="polite">
            {status}
          </div>
        </div>
      )}
    </div>
  );
}
