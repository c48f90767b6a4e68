import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_MSG, VALIDATION_MSG } from '@contest/shared';
import { api } from '../../../lib/api';
import { closeAuthModal, getAuthModalState } from '../../../lib/auth-modal';
import { ok, participantInfo, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';

function type(placeholder: string, value: string, index = 0) {
  const input = screen.getAllByPlaceholderText(placeholder)[index] as HTMLElement;
  fireEvent.change(input, { target: { value } });
}

function explainOf(placeholder: string, index = 0): string {
  const input = screen.getAllByPlaceholderText(placeholder)[index] as HTMLElement;
  return input.closest('.ant-form-item')?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

const NEW_PASSWORD = '请输入密码（8-16位，含数字、字母和特殊字符）';
const CONFIRM = '请再次输入密码';

describe('password pages', () => {
  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
  });

  it('/forget-password resets the password, toasts the server message and opens login', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null, AUTH_MSG.passwordReset));
    const { router } = renderRoute('/forget-password');
    await screen.findByRole('heading', { level: 1, name: '忘记密码' });

    fireEvent.click(screen.getByTestId('forget-password-submit'));
    await waitFor(() => {
      expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneRequired);
      expect(explainOf(NEW_PASSWORD)).toBe(VALIDATION_MSG.loginPasswordRequired);
      expect(explainOf(CONFIRM)).toBe(VALIDATION_MSG.confirmPasswordRequired);
    });

    type('请输入手机号', '13800000001');
    type('请输入验证码', '123456');
    type(NEW_PASSWORD, 'Newpass@1');
    type(CONFIRM, 'Newpass@1');
    fireEvent.click(screen.getByTestId('forget-password-submit'));

    expect(await screen.findByText(AUTH_MSG.passwordReset)).toBeTruthy();
    expect(post).toHaveBeenCalledWith(
      '/login/find/password',
      { phone: '13800000001', smsCode: '123456', password: 'Newpass@1' },
      { silent: true },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getAuthModalState()).toEqual({ open: true, type: 'login' });
  });

  it('/forget-password shows a refusal under the code field', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(refused(AUTH_MSG.noAccountForPhone));
    renderRoute('/forget-password');
    await screen.findByRole('heading', { level: 1, name: '忘记密码' });
    type('请输入手机号', '13800000009');
    type('请输入验证码', '123456');
    type(NEW_PASSWORD, 'Newpass@1');
    type(CONFIRM, 'Newpass@1');
    fireEvent.click(screen.getByTestId('forget-password-submit'));
    await waitFor(() => expect(explainOf('请输入验证码')).toBe(AUTH_MSG.noAccountForPhone));
  });

  it('/alert-password asks to log in first without a token', async () => {
    renderRoute('/alert-password');
    await screen.findByRole('heading', { level: 1, name: '修改密码' });
    expect(screen.getByText('请先登录后再修改密码。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '去登录' }));
    expect(getAuthModalState().open).toBe(true);
    expect(sessionStorage.getItem('redirectPath')).toBe('/alert-password');
  });

  it('/alert-password changes the password and stays signed in', async () => {
    localStorage.setItem('AccessToken', 'token-1');
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo4')));
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(AUTH_MSG.oldPasswordWrong, { field: 'oldPassword' }))
      .mockResolvedValueOnce(ok(null, AUTH_MSG.passwordChanged));
    renderRoute('/alert-password');
    await screen.findByText(/当前账号：demo4/);

    type('请输入原密码', 'Demo@2025');
    type(NEW_PASSWORD, 'Demo@2025');
    await waitFor(() => expect(explainOf(NEW_PASSWORD)).toBe(VALIDATION_MSG.passwordSame));
    type(NEW_PASSWORD, 'Newpass@1');
    type(CONFIRM, 'Newpass@2');
    await waitFor(() => expect(explainOf(CONFIRM)).toBe(VALIDATION_MSG.passwordMismatch));
    type(CONFIRM, 'Newpass@1');

    fireEvent.click(screen.getByTestId('alert-password-submit'));
    await waitFor(() => expect(explainOf('请输入原密码')).toBe(AUTH_MSG.oldPasswordWrong));

    type('请输入原密码', 'Demo@2026');
    fireEvent.click(screen.getByTestId('alert-password-submit'));
    expect(await screen.findByText(AUTH_MSG.passwordChanged)).toBeTruthy();
    expect(post).toHaveBeenLastCalledWith(
      '/login/change/password',
      { oldPassword: 'Demo@2026', newPassword: 'Newpass@1' },
      { silent: true },
    );
    expect(localStorage.getItem('AccessToken')).toBe('token-1');
  });
});
