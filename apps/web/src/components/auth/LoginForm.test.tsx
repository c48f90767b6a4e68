import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AUTH_MSG, VALIDATION_MSG } from '@contest/shared';
import { api } from '../../lib/api';
import { closeAuthModal, getAuthModalState, openAuthModal } from '../../lib/auth-modal';
import { ok, participantInfo, refused } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';

const device = vi.hoisted(() => ({ mobile: false }));
vi.mock('../../lib/device', () => ({ isMobileBrowser: () => device.mobile }));

// The real slider needs a drag over images; a button standing in for "passed" is enough here.
vi.mock('../SliderCaptcha/SliderCaptcha', () => ({
  SliderCaptcha: ({ onSuccess }: { onSuccess(result: object): void }) => (
    <button type="button" onClick={() => onSuccess({ nonceStr: 'nonce-1', slidingDistance: 123.5, elapsedMs: 900 })}>
      pass-captcha
    </button>
  ),
}));

const LOGIN_RESULT = { accessToken: 'token-1', account: 'demo1', teamStatus: null, prelimDocStatus: null };

async function openLogin(path = '/', lang?: string) {
  const result = renderRoute(path, lang ? { search: `?lang=${lang}` } : {});
  await screen.findByTestId('home-title');
  act(() => openAuthModal('login'));
  await screen.findByTestId('login-form');
  return result;
}

function type(placeholder: string, value: string) {
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });
}

/** The submit button of the visible tab (both tabs stay mounted once opened). */
function submit() {
  fireEvent.click(within(screen.getByRole('tabpanel')).getByTestId('login-submit'));
}

/** The explain text under the form item holding the input with this placeholder. */
function explainOf(placeholder: string): string {
  const item = screen.getByPlaceholderText(placeholder).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

describe('LoginForm', () => {
  beforeEach(() => {
    device.mobile = false;
  });

  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
  });

  it('shows the spec messages for empty and malformed password-login fields', async () => {
    const post = vi.spyOn(api, 'post');
    await openLogin();
    submit();
    expect(await screen.findByText(VALIDATION_MSG.usernameRequired)).toBeTruthy();
    expect(await screen.findByText(VALIDATION_MSG.passwordRequired)).toBeTruthy();

    type('请输入用户名', 'demo1');
    type('请输入密码', 'short');
    await waitFor(() => expect(explainOf('请输入密码')).toBe(VALIDATION_MSG.passwordRule));
    await waitFor(() => expect(explainOf('请输入用户名')).toBe(''));
    // No slider and no call while the form is invalid.
    expect(screen.queryByTestId('captcha-dialog')).toBeNull();
    expect(post).not.toHaveBeenCalled();
  });

  it('checks the phone in the spec order on the SMS tab', async () => {
    await openLogin();
    fireEvent.click(screen.getByRole('tab', { name: '短信登录' }));
    await screen.findByPlaceholderText('请输入手机号');
    submit();
    expect(await screen.findByText(VALIDATION_MSG.phoneRequired)).toBeTruthy();
    expect(await screen.findByText(VALIDATION_MSG.codeRequired)).toBeTruthy();

    type('请输入手机号', '1380000');
    await waitFor(() => expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneLength));
    type('请输入手机号', '12800000000');
    await waitFor(() => expect(explainOf('请输入手机号')).toBe(VALIDATION_MSG.phoneFormat));
    type('请输入手机号', '13800000000');
    await waitFor(() => expect(explainOf('请输入手机号')).toBe(''));
  });

  it('shows English equivalents in English', async () => {
    await openLogin('/', 'en');
    submit();
    expect(await screen.findByText('Please enter the username')).toBeTruthy();
    expect(await screen.findByText('Please enter the password')).toBeTruthy();
  });

  it('on desktop passes the slider first, then stores the token, toasts and goes to /my-sign', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(LOGIN_RESULT, AUTH_MSG.loginSuccess));
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo1')));
    const { router } = await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();

    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(localStorage.getItem('AccessToken')).toBe('token-1'));
    expect(post).toHaveBeenCalledWith(
      '/login',
      { username: 'demo1', password: 'Demo@2025', imageKey: 'nonce-1', slidingDistance: 123.5, locale: 'zh-CN' },
      { silent: true },
    );
    expect(await screen.findByText('登录成功')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign'));
    expect(getAuthModalState().open).toBe(false);
  });

  it('the slider dialog offers a one-time code instead (WCAG 1.1.1): the right code passes and the login proceeds', async () => {
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/captcha/code/send') return ok({ resendAfterSeconds: 60 }, '验证码已发送');
      if (url === '/captcha/code/check') return ok({ pass: true });
      return ok(LOGIN_RESULT, AUTH_MSG.loginSuccess);
    });
    vi.spyOn(api, 'get').mockImplementation(async (url: string) =>
      url === '/captcha' ? ok({ nonceStr: 'nonce-fresh', canvasSrc: '', blockSrc: '', blockY: 0 }) : ok(participantInfo('demo1')),
    );
    const { router } = await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();

    fireEvent.click(await screen.findByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    });
    expect(post).toHaveBeenCalledWith('/captcha/code/send', { realm: 'USER', account: 'demo1' }, { silent: true });
    fireEvent.change(screen.getByRole('textbox', { name: '6位验证码' }), { target: { value: '654321' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    });
    await waitFor(() => expect(localStorage.getItem('AccessToken')).toBe('token-1'));
    expect(post).toHaveBeenCalledWith('/captcha/code/check', { realm: 'USER', account: 'demo1', imageKey: 'nonce-fresh', code: '654321' }, { silent: true });
    expect(post).toHaveBeenCalledWith(
      '/login',
      { username: 'demo1', password: 'Demo@2025', imageKey: 'nonce-fresh', slidingDistance: 0, locale: 'zh-CN' },
      { silent: true },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign'));
  });

  it('on the SMS tab the code is asked for the phone (isPhoneLogin)', async () => {
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) =>
      url === '/captcha/code/send' ? ok({ resendAfterSeconds: 60 }) : ok(LOGIN_RESULT),
    );
    await openLogin();
    fireEvent.click(screen.getByRole('tab', { name: '短信登录' }));
    type('请输入手机号', '13800000001');
    type('请输入验证码', '123456');
    submit();
    fireEvent.click(await screen.findByRole('button', { name: '无法完成滑块验证？改用验证码' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    });
    expect(post).toHaveBeenCalledWith('/captcha/code/send', { realm: 'USER', account: '13800000001', isPhoneLogin: true }, { silent: true });
  });

  it('on mobile logs in without the slider and returns to the saved page', async () => {
    device.mobile = true;
    sessionStorage.setItem('redirectPath', '/my-message');
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(LOGIN_RESULT, AUTH_MSG.loginSuccess));
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo1')));
    const { router } = await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();

    await waitFor(() => expect(router.state.location.pathname).toBe('/my-message'));
    expect(post).toHaveBeenCalledWith('/login', { username: 'demo1', password: 'Demo@2025', locale: 'zh-CN' }, { silent: true });
    expect(screen.queryByRole('button', { name: 'pass-captcha' })).toBeNull();
    expect(localStorage.getItem('AccessToken')).toBe('token-1');
    expect(sessionStorage.getItem('redirectPath')).toBeNull();
  });

  it('shows the slider and retries when the server asks for it, also on mobile', async () => {
    device.mobile = true;
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(VALIDATION_MSG.captchaRequired, { captchaRequired: true }))
      .mockResolvedValueOnce(ok(LOGIN_RESULT));
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo1')));
    await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();

    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post.mock.calls[1]?.[1]).toEqual({
      username: 'demo1',
      password: 'Demo@2025',
      imageKey: 'nonce-1',
      slidingDistance: 123.5,
      locale: 'zh-CN',
    });
    await waitFor(() => expect(localStorage.getItem('AccessToken')).toBe('token-1'));
  });

  it('puts a refusal under the password field, keeps the dialog open and stores nothing', async () => {
    device.mobile = true;
    // The server answers an unknown name and a wrong password alike, with no remaining tries (docs/rules/identity.md, "Sign-in").
    vi.spyOn(api, 'post').mockRejectedValue(refused(AUTH_MSG.badCredentials));
    await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Wrong@2025');
    submit();

    await waitFor(() => expect(explainOf('请输入密码')).toBe(AUTH_MSG.badCredentials));
    expect(localStorage.getItem('AccessToken')).toBeNull();
    expect(getAuthModalState().open).toBe(true);
    expect(within(screen.getByTestId('login-form')).getByTestId('login-submit')).toBeTruthy();
  });

  it('puts an SMS-login refusal under the code field', async () => {
    device.mobile = true;
    // A locked account is refused SMS login too (docs/rules/identity.md, "Lockout"); an unknown phone answers as a wrong code.
    const post = vi.spyOn(api, 'post').mockRejectedValue(refused(AUTH_MSG.locked, { lockedUntil: '2025-06-01T02:15:00.000Z' }));
    await openLogin();
    fireEvent.click(screen.getByRole('tab', { name: '短信登录' }));
    type('请输入手机号', '13800000009');
    type('请输入验证码', '123456');
    submit();

    await waitFor(() => expect(explainOf('请输入验证码')).toBe(AUTH_MSG.locked));
    expect(post).toHaveBeenCalledWith(
      '/login',
      { isPhoneLogin: true, phone: '13800000009', smsCode: '123456', locale: 'zh-CN' },
      { silent: true },
    );
  });

  it('the slider dialog offers 改用短信验证码登录: it cancels the slider and opens the SMS tab, which then skips the slider', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(LOGIN_RESULT));
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo1')));
    await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();
    await screen.findByRole('button', { name: 'pass-captcha' });
    fireEvent.click(screen.getByRole('button', { name: '改用短信验证码登录' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: '短信登录' }).getAttribute('aria-selected')).toBe('true'));
    expect(post).not.toHaveBeenCalled();

    type('请输入手机号', '13800000001');
    type('请输入验证码', '123456');
    submit();
    await waitFor(() => expect(post).toHaveBeenCalledOnce());
    // No imageKey: nobody pressed the stand-in slider, the login went straight through.
    expect(post).toHaveBeenCalledWith('/login', { isPhoneLogin: true, phone: '13800000001', smsCode: '123456', locale: 'zh-CN' }, { silent: true });
  });

  it('closing the slider cancels the login; the next submit asks again', async () => {
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(LOGIN_RESULT));
    vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo1')));
    await openLogin();
    type('请输入用户名', 'demo1');
    type('请输入密码', 'Demo@2025');
    submit();
    await screen.findByRole('button', { name: 'pass-captcha' });
    const dialog = screen.getByTestId('captcha-dialog').closest('.ant-modal') as HTMLElement;
    fireEvent.click(dialog.querySelector('.ant-modal-close') as HTMLElement);
    // Let the cancelled submit settle before trying again.
    await act(async () => {});
    expect(post).not.toHaveBeenCalled();
    expect(getAuthModalState().open).toBe(true);

    submit();
    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
  });
});
