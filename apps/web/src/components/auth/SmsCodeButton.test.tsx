import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { VALIDATION_MSG } from '@contest/shared';
import { api } from '../../lib/api';
import { closeAuthModal } from '../../lib/auth-modal';
import { ok, refused } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';

// The forget-password page hosts a send button (FIND_PASSWORD_KEY); the dialog's work the same.
async function openPage() {
  renderRoute('/forget-password');
  await screen.findByRole('heading', { level: 1, name: '忘记密码' });
  return screen.getByTestId('sms-code-button') as HTMLButtonElement;
}

function explainOf(placeholder: string): string {
  const item = screen.getByPlaceholderText(placeholder).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

/** Runs timers and the promises they release (form validation, the mocked call). */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('SmsCodeButton', () => {
  afterEach(() => {
    vi.useRealTimers();
    closeAuthModal();
    vi.restoreAllMocks();
  });

  it('needs a valid phone before sending', async () => {
    const post = vi.spyOn(api, 'post');
    const button = await openPage();
    fireEvent.click(button);
    await waitFor(() => expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneRequired));
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '1234' } });
    fireEvent.click(button);
    await waitFor(() => expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneLength));
    expect(post).not.toHaveBeenCalled();
    expect(button.disabled).toBe(false);
  });

  it('counts down 60 s after sending, then resets', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null, '验证码已发送'));
    const button = await openPage();
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000001' } });

    vi.useFakeTimers();
    fireEvent.click(button);
    await advance(0);
    expect(post).toHaveBeenCalledWith(
      '/login/send/sms',
      { phone: '13800000001', smsKey: 'FIND_PASSWORD_KEY' },
      { silent: true },
    );
    expect(button.textContent).toBe('60s后重新获取');
    expect(button.disabled).toBe(true);

    await advance(1000);
    expect(button.textContent).toBe('59s后重新获取');
    await advance(58_000);
    expect(button.textContent).toBe('1s后重新获取');
    expect(button.disabled).toBe(true);
    await advance(1000);
    expect(button.textContent).toBe('获取验证码');
    expect(button.disabled).toBe(false);
  });

  it('shows a refusal under the code field and does not count down', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(refused('验证码发送过于频繁，请60秒后再试'));
    const button = await openPage();
    fireEvent.change(screen.getByPlaceholderText('请输入手机号'), { target: { value: '13800000001' } });
    fireEvent.click(button);
    await waitFor(() => expect(explainOf('请输入验证码')).toBe('验证码发送过于频繁，请60秒后再试'));
    expect(button.textContent).toBe('获取验证码');
    expect(button.disabled).toBe(false);
  });
});
