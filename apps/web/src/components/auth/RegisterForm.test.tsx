import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_MSG, MSG, VALIDATION_MSG } from '@contest/shared';
import { api } from '../../lib/api';
import { closeAuthModal, getAuthModalState, openAuthModal } from '../../lib/auth-modal';
import { changeLocale, i18n } from '../../i18n';
import { ok, refused } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';

async function openRegister() {
  renderRoute('/');
  await screen.findByTestId('home-title');
  act(() => openAuthModal('register'));
  return screen.findByTestId('register-form');
}

function type(placeholder: string, value: string) {
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });
}

function explainOf(placeholder: string): string {
  const item = screen.getByPlaceholderText(placeholder).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

const USERNAME = '请输入用户名（小写字母或数字）';
const PASSWORD = '请输入密码（8-16位，含数字、字母和特殊字符）';
const CONFIRM = '请再次输入密码';

async function fillAccountStep(form: HTMLElement) {
  type(USERNAME, 'newuser1');
  type(PASSWORD, 'Passw0rd!');
  type(CONFIRM, 'Passw0rd!');
  fireEvent.click(screen.getByTestId('register-next'));
  await waitFor(() => expect(form.dataset.step).toBe('1'));
}

function fillInfoStep() {
  type('请输入邮箱地址', 'new@example.com');
  type('请输入手机号', '13900000001');
  type('请输入验证码', '123456');
  fireEvent.click(screen.getByTestId('register-agreement'));
}

describe('RegisterForm', () => {
  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
  });

  it('stays on the account step until it is valid', async () => {
    const form = await openRegister();
    expect(form.dataset.step).toBe('0');
    fireEvent.click(screen.getByTestId('register-next'));
    await waitFor(() => {
      expect(explainOf(USERNAME)).toBe(VALIDATION_MSG.usernameRequired);
      expect(explainOf(PASSWORD)).toBe(VALIDATION_MSG.loginPasswordRequired);
      expect(explainOf(CONFIRM)).toBe(VALIDATION_MSG.confirmPasswordRequired);
    });
    expect(form.dataset.step).toBe('0');

    type(USERNAME, 'NewUser');
    await waitFor(() => expect(explainOf(USERNAME)).toBe(VALIDATION_MSG.usernameFormat));
    type(USERNAME, 'newuser1');
    type(PASSWORD, 'Passw0rd!');
    type(CONFIRM, 'Passw0rd');
    await waitFor(() => expect(explainOf(CONFIRM)).toBe(VALIDATION_MSG.passwordRule));
    type(CONFIRM, 'Passw0rd@');
    await waitFor(() => expect(explainOf(CONFIRM)).toBe(VALIDATION_MSG.passwordMismatch));
    fireEvent.click(screen.getByTestId('register-next'));
    await act(async () => {});
    expect(form.dataset.step).toBe('0');

    type(CONFIRM, 'Passw0rd!');
    fireEvent.click(screen.getByTestId('register-next'));
    await waitFor(() => expect(form.dataset.step).toBe('1'));
    // The info step starts clean: no errors before the user tried to submit it.
    expect(explainOf('请输入邮箱地址')).toBe('');
  });

  it('requires the info fields and the ticked agreement', async () => {
    const post = vi.spyOn(api, 'post');
    const form = await openRegister();
    await fillAccountStep(form);
    fireEvent.click(screen.getByTestId('register-submit'));
    // antd shows each field's error after its own validation settles: wait for every one.
    await waitFor(() => {
      expect(explainOf('请输入邮箱地址')).toBe(VALIDATION_MSG.emailRequired);
      expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneRequired);
      expect(explainOf('请输入验证码')).toBe(VALIDATION_MSG.codeRequired);
    });
    expect(await screen.findByText(VALIDATION_MSG.agreementRequired)).toBeTruthy();

    type('请输入邮箱地址', 'not-an-email');
    await waitFor(() => expect(explainOf('请输入邮箱地址')).toBe(VALIDATION_MSG.emailFormat));
    expect(post).not.toHaveBeenCalled();

    const link = screen.getByRole('link', { name: '《用户须知及隐私政策》' });
    expect(link.getAttribute('href')).toBe('/files/xieyi.pdf');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('registers, toasts 注册成功 and switches to login with the username filled', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null, MSG.registerSuccess));
    const form = await openRegister();
    await fillAccountStep(form);
    fillInfoStep();
    fireEvent.click(screen.getByTestId('register-submit'));

    expect(await screen.findByText('注册成功')).toBeTruthy();
    expect(post).toHaveBeenCalledWith(
      '/login/register',
      {
        username: 'newuser1',
        password: 'Passw0rd!',
        email: 'new@example.com',
        phone: '13900000001',
        smsCode: '123456',
        locale: 'zh-CN',
      },
      { silent: true },
    );
    await screen.findByTestId('login-form');
    expect(getAuthModalState()).toEqual({ open: true, type: 'login' });
    expect((screen.getByPlaceholderText('请输入用户名') as HTMLInputElement).value).toBe('newuser1');
  });

  it('in English sends the page language and acknowledges the server\'s 注册成功 by its message key', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null, MSG.registerSuccess));
    try {
      renderRoute('/', { search: '?lang=en' });
      await screen.findByTestId('home-title');
      act(() => openAuthModal('register'));
      const form = await screen.findByTestId('register-form');
      const ph = (key: string) => String(i18n.t(`auth.placeholders.${key}` as never));
      type(ph('registerUsername'), 'newuser1');
      type(ph('newPassword'), 'Passw0rd!');
      type(ph('confirmPassword'), 'Passw0rd!');
      fireEvent.click(screen.getByTestId('register-next'));
      await waitFor(() => expect(form.dataset.step).toBe('1'));
      type(ph('email'), 'new@example.com');
      type(ph('phone'), '13900000001');
      type(ph('smsCode'), '123456');
      fireEvent.click(screen.getByTestId('register-agreement'));
      fireEvent.click(screen.getByTestId('register-submit'));

      expect(await screen.findByText('Registered')).toBeTruthy();
      expect(screen.queryByText(MSG.registerSuccess)).toBeNull();
      expect(post).toHaveBeenCalledWith('/login/register', expect.objectContaining({ username: 'newuser1', locale: 'en' }), { silent: true });
    } finally {
      localStorage.removeItem('lang');
      changeLocale('zh-cn');
    }
  });

  it('sends a taken username back to the account step, under the username', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(refused(AUTH_MSG.usernameTaken, { field: 'username' }));
    const form = await openRegister();
    await fillAccountStep(form);
    fillInfoStep();
    fireEvent.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(form.dataset.step).toBe('0'));
    await waitFor(() => expect(explainOf(USERNAME)).toBe(AUTH_MSG.usernameTaken));
  });

  it('puts other refusals under the code field', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(refused('验证码错误或已过期'));
    const form = await openRegister();
    await fillAccountStep(form);
    fillInfoStep();
    fireEvent.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(explainOf('请输入验证码')).toBe('验证码错误或已过期'));
    expect(form.dataset.step).toBe('1');
  });
});
