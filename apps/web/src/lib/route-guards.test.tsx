import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { api } from './api';
import { closeAuthModal, getAuthModalState } from './auth-modal';
import { ok, participantInfo, refused } from '../test/api-mocks';
import { renderRoute } from '../test/render-route';

describe('route guards', () => {
  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
  });

  it('sends a participant page without AccessToken to / with the login dialog, saving the target', async () => {
    const { router } = renderRoute('/my-message?tab=unread');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sessionStorage.getItem('redirectPath')).toBe('/my-message?tab=unread');
    expect(getAuthModalState()).toEqual({ open: true, type: 'login' });
    expect(await screen.findByTestId('login-form')).toBeTruthy();
  });

  it('opens a participant page with an AccessToken and shows the account', async () => {
    localStorage.setItem('AccessToken', 'token-1');
    // A participant without a team: the sign-up page stays (a team would send it to its detail).
    const get = vi.spyOn(api, 'get').mockImplementation(async (url: string) =>
      url === '/team/my' ? ok(null) : url === '/team/my-brief' ? ok({ teamStatus: null }) : ok(participantInfo('demo2')),
    );
    const { router } = renderRoute('/my-sign');
    expect(await screen.findByText('demo2')).toBeTruthy();
    await screen.findByTestId('sign-form');
    expect(router.state.location.pathname).toBe('/my-sign');
    expect(get).toHaveBeenCalledWith('/user/account');
    expect(sessionStorage.getItem('redirectPath')).toBeNull();
  });

  it('drops the token and opens login when the user info fails on a page that needs login', async () => {
    localStorage.setItem('AccessToken', 'token-1');
    vi.spyOn(api, 'get').mockRejectedValue(refused('服务器开小差了，请稍后再试', null, 500));
    const { router } = renderRoute('/my-sign');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('AccessToken')).toBeNull();
    expect(sessionStorage.getItem('redirectPath')).toBe('/my-sign');
    expect(getAuthModalState().open).toBe(true);
  });

  it('keeps the token on a public page when the user info fails', async () => {
    localStorage.setItem('AccessToken', 'token-1');
    vi.spyOn(api, 'get').mockRejectedValue(refused('服务器开小差了，请稍后再试', null, 500));
    const { router } = renderRoute('/medical-insurance');
    await waitFor(() =>
      expect(screen.getByTestId('gateway-account').dataset.status).toBe('anonymous'),
    );
    expect(router.state.location.pathname).toBe('/medical-insurance');
    expect(localStorage.getItem('AccessToken')).toBe('token-1');
    expect(getAuthModalState().open).toBe(false);
  });

  it.each([
    ['/admin/home', '/admin/login'],
    ['/admin', '/admin/login'],
    ['/expert/index', '/expert/login'],
  ])('sends %s without its token to %s', async (path, login) => {
    const { router } = renderRoute(path);
    await waitFor(() => expect(router.state.location.pathname).toBe(login));
    expect(sessionStorage.getItem('redirectPath')).toBe(path);
  });

  it('lets an admin with AdminToken in, and not with a participant or expert token', async () => {
    localStorage.setItem('AccessToken', 'user');
    localStorage.setItem('ExpertToken', 'expert');
    const first = renderRoute('/admin/home');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/admin/login'));
    first.unmount();

    localStorage.setItem('AdminToken', 'admin');
    vi.spyOn(api, 'get').mockResolvedValue(
      ok({ account: 'admin', name: '超级管理员', roles: [], roleCode: 'SUPER_ADMIN', roleName: '超级管理员', menus: [{ code: 'home', name: '首页', nameEn: 'Home', path: '/admin/home', icon: 'HomeOutlined', children: [] }], buttons: [], agree: false, code: null }),
    );
    const second = renderRoute('/admin/home');
    expect(await screen.findByTestId('staff-account')).toBeTruthy();
    expect(second.router.state.location.pathname).toBe('/admin/home');
  });
});
