import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { changeLocale, initI18n } from '../../i18n';
import { refused } from '../../test/api-mocks';
import { CaptchaCodeAlternative } from './CaptchaCodeAlternative';

beforeAll(() => {
  initI18n();
  changeLocale('zh-cn');
});

afterEach(() => {
  vi.restoreAllMocks();
});

const TARGET = { realm: 'USER' as const, account: 'demo1' };

function setup(overrides: { check?: ReturnType<typeof vi.fn>; send?: ReturnType<typeof vi.fn> } = {}) {
  const send = overrides.send ?? vi.fn().mockResolvedValue({ resendAfterSeconds: 60 });
  const check = overrides.check ?? vi.fn().mockResolvedValue({ imageKey: 'nonce-code', slidingDistance: 0 });
  const onPassed = vi.fn();
  render(<CaptchaCodeAlternative target={TARGET} onPassed={onPassed} send={send as never} check={check as never} />);
  return { send, check, onPassed };
}

describe('captcha code alternative: the slider without sight (WCAG 1.1.1)', () => {
  it('is a named, keyboard-reachable button that opens the panel', async () => {
    setup();
    const toggle = screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // A real <button>: Tab reaches it and Enter/Space press it.
    expect(toggle.tagName).toBe('BUTTON');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('group', { name: '无法完成滑块验证？改用验证码' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '6位验证码' })).toBeTruthy();
  });

  it('sends the code, announces it, moves focus to the code field; the right code passes', async () => {
    const { send, check, onPassed } = setup();
    fireEvent.click(screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    });
    expect(send).toHaveBeenCalledWith(TARGET);
    const input = screen.getByRole('textbox', { name: '6位验证码' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(screen.getByRole('status').textContent).toBe('验证码已发送，请查收该账号绑定的手机短信或邮件');
    // The send button counts down (60 s between sends).
    expect(screen.getByTestId('captcha-code-send').textContent).toMatch(/\d+秒后可重新发送/);

    fireEvent.change(input, { target: { value: '123456' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    expect(check).toHaveBeenCalledWith(TARGET, '123456');
    await waitFor(() => expect(onPassed).toHaveBeenCalledWith({ imageKey: 'nonce-code', slidingDistance: 0 }));
  });

  it('a wrong code is said in an alert and tied to the field; nothing passes', async () => {
    const check = vi.fn().mockRejectedValue(refused('验证码错误'));
    const { onPassed } = setup({ check });
    fireEvent.click(screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    const input = screen.getByRole('textbox', { name: '6位验证码' });
    fireEvent.change(input, { target: { value: '000000' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('验证码错误'));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(onPassed).not.toHaveBeenCalled();
  });

  it('a malformed code is refused locally with an alert, no call', async () => {
    const { check } = setup();
    fireEvent.click(screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    fireEvent.change(screen.getByRole('textbox', { name: '6位验证码' }), { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    expect(screen.getByRole('alert').textContent).toBe('请输入6位数字验证码');
    expect(check).not.toHaveBeenCalled();
  });

  it('a refused send (too soon) is said in the alert', async () => {
    const send = vi.fn().mockRejectedValue(refused('验证码发送过于频繁，请60秒后再试', { retryAfterSeconds: 30 }));
    setup({ send });
    fireEvent.click(screen.getByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('验证码发送过于频繁，请60秒后再试'));
  });

  it('says it in English too', async () => {
    changeLocale('en');
    try {
      setup();
      fireEvent.click(screen.getByRole('button', { name: "Can't use the slider? Get a code instead" }));
      expect(screen.getByRole('button', { name: 'Send code' })).toBeTruthy();
      expect(screen.getByRole('textbox', { name: '6-digit code' })).toBeTruthy();
    } finally {
      changeLocale('zh-cn');
    }
  });
});
