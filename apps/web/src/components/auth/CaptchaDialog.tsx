import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { SliderCaptcha, type SliderCaptchaResult } from '../SliderCaptcha/SliderCaptcha';
import { CaptchaCodeAlternative } from '../SliderCaptcha/CaptchaCodeAlternative';
import { checkCaptcha, fetchCaptcha, type CaptchaCodeTarget, type CaptchaProof } from '../../lib/captcha';
import { announce } from '../../lib/form-errors';

/** Long enough to read the slider's success text before the dialog goes. */
const SUCCESS_LINGER_MS = 400;

export interface CaptchaPromptOptions {
  /**
   * Offered in the dialog as "改用短信验证码登录": the way in for whoever cannot use the
   * slider (screen reader users above all). Closing the dialog ends the pending request as
   * cancelled before this runs.
   */
  onUseSms?(): void;
}

export interface CaptchaPrompt {
  /**
   * Shows the slider; resolves with the proof once passed, or null if the user closed it.
   * With `target` (the login the form is about to make), the dialog also offers the one-time
   * code instead of the slider (docs/security.md, "Captcha code alternative").
   */
  request(target?: CaptchaCodeTarget): Promise<CaptchaProof | null>;
  /** Render this once in the form's component. */
  element: ReactNode;
}

/**
 * The slider in a small dialog of its own, promise-driven so a submit handler reads as a
 * straight line: validate, `await request()`, log in. A dialog rather than a popover
 * because the 320 px puzzle must fit phones too, where the server can still demand it.
 */
export function useCaptchaPrompt(options: CaptchaPromptOptions = {}): CaptchaPrompt {
  const { t } = useTranslation();
  const { onUseSms } = options;
  const [open, setOpen] = useState(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [target, setTarget] = useState<CaptchaCodeTarget | null>(null);
  const resolverRef = useRef<((proof: CaptchaProof | null) => void) | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);

  const settle = useCallback((proof: CaptchaProof | null) => {
    const resolve = resolverRef.current;
    resolverRef.current = null;
    setOpen(false);
    resolve?.(proof);
  }, []);

  useEffect(
    () => () => {
      if (timerRef.current) clearTimeout(timerRef.current);
      // An unmounted form no longer waits; its pending submit ends as "cancelled".
      resolverRef.current?.(null);
      resolverRef.current = null;
    },
    [],
  );

  const request = useCallback((codeTarget?: CaptchaCodeTarget) => {
    // A second request replaces the first; the first ends as cancelled.
    resolverRef.current?.(null);
    return new Promise<CaptchaProof | null>((resolve) => {
      resolverRef.current = resolve;
      setTarget(codeTarget ?? null);
      setOpen(true);
    });
  }, []);

  const onSuccess = useCallback(
    (result: SliderCaptchaResult) => {
      const proof = { imageKey: result.nonceStr, slidingDistance: result.slidingDistance };
      timerRef.current = setTimeout(() => settle(proof), SUCCESS_LINGER_MS);
    },
    [settle],
  );

  const element = (
    <Modal
      open={open}
      title={t('auth.captcha.title')}
      footer={null}
      width={368}
      centered
      destroyOnHidden
      mask={{ closable: false }}
      // Tab stays inside the dialog; closing it gives focus back to the submit button.
      focusable={{ trap: true, focusTriggerAfterClose: true }}
      // antd focuses its own panel once the opening motion ends, which took focus away from the
      // handle (autofocused on mount) while a keyboard user was already pressing the arrows: the
      // handle gets it back, unless the user has moved on to another control in the dialog.
      afterOpenChange={(opened) => {
        const body = bodyRef.current;
        if (!opened || !body) return;
        const active = document.activeElement;
        if (active && body.contains(active)) return;
        body.querySelector<HTMLElement>('[role="slider"]')?.focus({ preventScroll: true });
      }}
      onCancel={() => {
        if (timerRef.current) clearTimeout(timerRef.current);
        settle(null);
      }}
      className="captcha-dialog"
    >
      <div className="captcha-dialog__body" data-testid="captcha-dialog" ref={bodyRef}>
        {/* Focus starts on the handle: arrow keys move it, Enter submits. */}
        <SliderCaptcha fetchCaptcha={fetchCaptcha} verify={checkCaptcha} onSuccess={onSuccess} autoFocus />
        {target && (
          <CaptchaCodeAlternative
            target={target}
            onPassed={(proof) => {
              if (timerRef.current) clearTimeout(timerRef.current);
              // The dialog closes at once: the page's live region says why the form goes on.
              announce(t('auth.captcha.codePassed'));
              settle(proof);
            }}
          />
        )}
        {onUseSms && (
          <Button
            type="link"
            size="small"
            className="captcha-dialog__sms"
            data-testid="captcha-use-sms"
            onClick={() => {
              if (timerRef.current) clearTimeout(timerRef.current);
              settle(null);
              onUseSms();
            }}
          >
            {t('auth.captcha.useSms')}
          </Button>
        )}
      </div>
    </Modal>
  );

  return { request, element };
}
