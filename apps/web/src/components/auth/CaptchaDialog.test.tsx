import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { changeLocale, initI18n } from '../../i18n';
import { api } from '../../lib/api';
import type { CaptchaCodeTarget, CaptchaProof } from '../../lib/captcha';
import { ok } from '../../test/api-mocks';
import { useCaptchaPrompt, type CaptchaPromptOptions } from './CaptchaDialog';

beforeAll(() => {
  initI18n();
  changeLocale('zh-cn');
});

afterEach(() => {
  vi.restoreAllMocks();
});

const CHALLENGE = { nonceStr: 'nonce-1', canvasSrc: 'data:image/png;base64,a', blockSrc: 'data:image/png;base64,b', blockY: 20 };

/** A form's stand-in: a button that asks for the captcha and shows how the request ended. */
function Asker({ target, ...props }: CaptchaPromptOptions & { target?: CaptchaCodeTarget }) {
  const captcha = useCaptchaPrompt(props);
  const [outcome, setOutcome] = useState('pending');
  return (
    <div>
      <button type="button" onClick={() => void captcha.request(target).then((proof: CaptchaProof | null) => setOutcome(proof ? proof.imageKey : 'cancelled'))}>
        ask
      </button>
      <span data-testid="outcome">{outcome}</span>
      {captcha.element}
    </div>
  );
}

async function open(props: CaptchaPromptOptions & { target?: CaptchaCodeTarget } = {}) {
  vi.spyOn(api, 'get').mockResolvedValue(ok(CHALLENGE));
  render(<Asker {...props} />);
  fireEvent.click(screen.getByRole('button', { name: 'ask' }));
  const dialog = await screen.findByTestId('captcha-dialog');
  await waitFor(() => expect(dialog.querySelector('[data-testid="slider-captcha"]')?.getAttribute('data-nonce')).toBe('nonce-1'));
  return dialog;
}

describe('captcha dialog: keyboard and screen readers', () => {
  it('starts with focus on the slider handle, operable from the keyboard', async () => {
    await open();
    const handle = screen.getByRole('slider', { name: '拼图滑块' });
    await waitFor(() => expect(document.activeElement).toBe(handle));
    fireEvent.keyDown(handle, { key: 'PageUp' });
    expect(handle.getAttribute('aria-valuenow')).toBe('20');
  });

  it('offers the SMS path: the link cancels the slider and hands over to the form', async () => {
    const onUseSms = vi.fn();
    await open({ onUseSms });
    const link = screen.getByRole('button', { name: '改用短信验证码登录' });
    await act(async () => {
      fireEvent.click(link);
    });
    expect(onUseSms).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toBe('cancelled'));
  });

  it('has no SMS link where there is no SMS login (staff consoles)', async () => {
    await open();
    expect(screen.queryByRole('button', { name: '改用短信验证码登录' })).toBeNull();
  });

  it('offers the one-time code when the form names its login (every login form does)', async () => {
    await open({ target: { realm: 'EXPERT', account: 'e0001' } });
    const toggle = screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' });
    // Inside the dialog, so Tab reaches it from the slider within the focus trap.
    expect(screen.getByTestId('captcha-dialog').contains(toggle)).toBe(true);
  });

  it('has no code alternative without a login to send it for', async () => {
    await open();
    expect(screen.queryByRole('button', { name: '无法完成滑块验证？改用验证码' })).toBeNull();
  });

  it('says it in English too', async () => {
    changeLocale('en');
    try {
      await open({ onUseSms: () => undefined });
      expect(screen.getByRole('button', { name: 'Sign in with an SMS code instead' })).toBeTruthy();
      expect(screen.getByRole('slider', { name: 'Puzzle slider' }).getAttribute('aria-valuetext')).toBe('Moved 0 px');
    } finally {
      changeLocale('zh-cn');
    }
  });
});
