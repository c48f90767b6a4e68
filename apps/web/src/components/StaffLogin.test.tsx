import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_MSG, VALIDATION_MSG } from '@contest/shared';
import { api } from '../lib/api';
import { ok, refused } from '../test/api-mocks';
import { renderRoute } from '../test/render-route';

vi.mock('./SliderCaptcha/SliderCaptcha', () => ({
  SliderCaptcha: ({ onSuccess }: { onSuccess(result: object): void }) => (
    <button type="button" onClick={() => onSuccess({ nonceStr: 'nonce-9', slidingDistance: 88, elapsedMs: 1500 })}>
      pass-captcha
    </button>
  ),
}));

const STAFF_INFO = {
  account: 'e0001',
  name: '专家一',
  roles: [{ id: 'EXPERT', code: 'EXPERT' }],
  roleCode: 'EXPERT',
  roleName: '评审专家',
  menus: [],
  buttons: [],
  agree: false,
  code: 'E0001',
};

const ADMIN_HOME_MENU = { code: 'home', name: '首页', nameEn: 'Home', path: '/admin/home', icon: 'HomeOutlined', children: [] };

function fill(username: string, password: string) {
  fireEvent.change(screen.getByPlaceholderText('请输入用户名'), { target: { value: username } });
  fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('staff-login-submit'));
}

function explainOf(placeholder: string): string {
  const item = screen.getByPlaceholderText(placeholder).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

describe('StaffLogin', () => {
  afterEach(() => vi.restoreAllMocks());

  it('validates, then logs an expert in through the slider and opens /expert/index', async () => {
    const post = vi
      .spyOn(api, 'post')
      .mockResolvedValue(ok({ accessToken: 'expert-token', account: 'e0001', teamStatus: null, prelimDocStatus: null }));
    vi.spyOn(api, 'get').mockResolvedValue(ok(STAFF_INFO));
    const { router } = renderRoute('/expert/login');
    await screen.findByText('专家登录');

    fireEvent.click(screen.getByTestId('staff-login-submit'));
    expect(await screen.findByText(VALIDATION_MSG.usernameRequired)).toBeTruthy();
    expect(await screen.findByText(VALIDATION_MSG.passwordRequired)).toBeTruthy();

    fill('e0001', 'Demo@2025');
    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/index'));
    expect(post).toHaveBeenCalledWith(
      '/expert/login',
      { username: 'e0001', password: 'Demo@2025', imageKey: 'nonce-9', slidingDistance: 88, locale: 'zh-CN' },
      { silent: true },
    );
    expect(localStorage.getItem('ExpertToken')).toBe('expert-token');
    expect(localStorage.getItem('AdminToken')).toBeNull();
    expect((await screen.findByTestId('staff-account')).textContent).toContain('专家一');
  });

  it('offers admins the one-time code instead of the slider (WCAG 1.1.1); the code passes and the login proceeds', async () => {
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/captcha/code/send') return ok({ resendAfterSeconds: 60 });
      if (url === '/captcha/code/check') return ok({ pass: true });
      return ok({ accessToken: 'admin-token', account: 'admin', teamStatus: null, prelimDocStatus: null });
    });
    vi.spyOn(api, 'get').mockImplementation(async (url: string) =>
      url === '/captcha'
        ? ok({ nonceStr: 'nonce-staff', canvasSrc: '', blockSrc: '', blockY: 0 })
        : // With a menu: an admin without one is signed out by the console as soon as it loads,
          // which on a slow machine came before the token was looked at.
          ok({ ...STAFF_INFO, account: 'admin', roleCode: 'SUPER_ADMIN', menus: [ADMIN_HOME_MENU] }),
    );
    const { router } = renderRoute('/admin/login');
    await screen.findByText('管理员登录');
    fill('admin', 'Admin@2025');
    const toggle = await screen.findByRole('button', { name: '无法完成滑块验证？改用验证码' });
    fireEvent.click(toggle);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '发送验证码' }));
    });
    expect(post).toHaveBeenCalledWith('/captcha/code/send', { realm: 'ADMIN', account: 'admin' }, { silent: true });
    fireEvent.change(screen.getByRole('textbox', { name: '6位验证码' }), { target: { value: '111222' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '验证并继续' }));
    });
    // The code check, then the login and the console: lazily loaded parts on a loaded machine take longer than waitFor's 1 s.
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'), { timeout: 15_000 });
    expect(localStorage.getItem('AdminToken')).toBe('admin-token');
    expect(post).toHaveBeenCalledWith(
      '/admin/login',
      { username: 'admin', password: 'Admin@2025', imageKey: 'nonce-staff', slidingDistance: 0, locale: 'zh-CN' },
      { silent: true },
    );
  });

  it('shows an admin refusal under the password field', async () => {
    vi.spyOn(api, 'post').mockRejectedValue(refused(AUTH_MSG.badCredentials));
    const { router } = renderRoute('/admin/login');
    await screen.findByText('管理员登录');
    fill('admin', 'Wrong@2025');
    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(explainOf('请输入密码')).toBe(AUTH_MSG.badCredentials));
    // Said aloud as well: the page's live region carries the refusal.
    await waitFor(() => expect(document.querySelector('[data-testid="live-region"]')?.textContent).toBe(AUTH_MSG.badCredentials));
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(localStorage.getItem('AdminToken')).toBeNull();
  });
});
