import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_MSG } from '@contest/shared';
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

const STAFF_INFO = { account: 'ops1', name: '运营', roles: [], roleCode: 'SYSTEM', roleName: '运营', menus: [], buttons: [], agree: true, code: null };

/** The forced change of docs/security.md "Accounts and reach", as the consoles show it. */
describe('forced password change (admin and expert consoles)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('a login that says mustChangePassword opens the change page, not the console', async () => {
    vi.spyOn(api, 'post').mockResolvedValue(ok({ accessToken: 'admin-token', account: 'ops1', teamStatus: null, prelimDocStatus: null, mustChangePassword: true }));
    vi.spyOn(api, 'get').mockResolvedValue(ok(STAFF_INFO));
    const { router } = renderRoute('/admin/login');
    await screen.findByText('管理员登录');
    fireEvent.change(screen.getByPlaceholderText('请输入用户名'), { target: { value: 'ops1' } });
    fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'Given@2025' } });
    fireEvent.click(screen.getByTestId('staff-login-submit'));
    fireEvent.click(await screen.findByRole('button', { name: 'pass-captcha' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/change-password'));
    expect(await screen.findByTestId('admin-change-password')).toBeTruthy();
  });

  it('changes the password from the keyboard, then opens the console home; a wrong old password shows under its field', async () => {
    localStorage.setItem('ExpertToken', 'expert-token');
    const post = vi.spyOn(api, 'post').mockRejectedValueOnce(refused(AUTH_MSG.oldPasswordWrong, { field: 'oldPassword' }));
    vi.spyOn(api, 'get').mockResolvedValue(ok(STAFF_INFO));
    const { router } = renderRoute('/expert/change-password');
    const page = await screen.findByTestId('expert-change-password');
    expect(page.querySelector('h1')?.textContent).toBe('修改密码');
    const old = screen.getByLabelText('原密码');
    // The first field has the focus: the form is usable without a mouse.
    await waitFor(() => expect(document.activeElement).toBe(old));
    fireEvent.change(old, { target: { value: 'Given@2025' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'Mine@2025x' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'Mine@2025x' } });
    fireEvent.submit(old.closest('form')!);
    await waitFor(() => expect(old.closest('.ant-form-item')?.textContent).toContain(AUTH_MSG.oldPasswordWrong));
    expect(router.state.location.pathname).toBe('/expert/change-password');

    post.mockResolvedValueOnce(ok(null, AUTH_MSG.passwordChanged));
    fireEvent.submit(old.closest('form')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/index'));
    expect(post).toHaveBeenLastCalledWith('/login/change/password', { oldPassword: 'Given@2025', newPassword: 'Mine@2025x' }, { silent: true });
  });

  it('without a token the page sends to the login', async () => {
    const { router } = renderRoute('/admin/change-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
  });
});
