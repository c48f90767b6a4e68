import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '../../lib/api';
import { closeAuthModal, getAuthModalState } from '../../lib/auth-modal';
import { ok, participantInfo } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';

describe('GatewayLayout', () => {
  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows the navigation, the login area and the footer on the home page', async () => {
    renderRoute('/');
    await screen.findByTestId('home-title');
    const nav = screen.getByRole('navigation', { name: '主导航' });
    for (const label of ['首页', '医保资讯', '大赛动态', '报名指南', '参赛报名', '材料提交']) {
      expect(nav.textContent).toContain(label);
    }
    expect(screen.getByTestId('gateway-account')).toBeTruthy();
    expect(screen.getByTestId('gateway-footer')).toBeTruthy();
  });

  it('hides the footer and the login area on /forget-password', async () => {
    renderRoute('/forget-password');
    await screen.findByRole('heading', { level: 1, name: '忘记密码' });
    expect(screen.queryByTestId('gateway-footer')).toBeNull();
    expect(screen.queryByTestId('gateway-account')).toBeNull();
  });

  it('hides only the footer on /alert-password', async () => {
    renderRoute('/alert-password');
    await screen.findByRole('heading', { level: 1, name: '修改密码' });
    expect(screen.queryByTestId('gateway-footer')).toBeNull();
    expect(screen.getByTestId('gateway-account')).toBeTruthy();
  });

  it('opens the welcome dialog with the requested type', async () => {
    renderRoute('/');
    await screen.findByTestId('home-title');
    fireEvent.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('欢迎参加2025全国智慧医保大赛')).toBeTruthy();
    expect(getAuthModalState()).toEqual({ open: true, type: 'register' });
  });

  it('moves to / before opening the dialog from a page that needs login', async () => {
    const { router } = renderRoute('/sign-up');
    await screen.findByRole('heading', { level: 1, name: '参赛报名' });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getAuthModalState()).toEqual({ open: true, type: 'login' });
  });

  it('switches the language from the header', async () => {
    renderRoute('/');
    await screen.findByTestId('home-title');
    expect(screen.getByTestId('lang-switch')).toBeTruthy();
    fireEvent.click(screen.getByText('English'));
    await waitFor(() =>
      expect(screen.getByTestId('home-title').textContent).toBe(
        '2025 National Smart Medical-Insurance Competition',
      ),
    );
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');
    fireEvent.click(screen.getByText('中文'));
    await waitFor(() => expect(document.documentElement.lang).toBe('zh-cn'));
  });

  describe('when signed in', () => {
    async function signedIn(path = '/') {
      localStorage.setItem('AccessToken', 'token-1');
      vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo3')));
      const result = renderRoute(path);
      fireEvent.mouseEnter(await screen.findByTestId('account-menu'));
      fireEvent.click(screen.getByTestId('account-menu'));
      await screen.findByText('个人中心');
      return result;
    }

    it('shows the account name instead of the login buttons', async () => {
      localStorage.setItem('AccessToken', 'token-1');
      vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo('demo3')));
      renderRoute('/');
      const account = await screen.findByTestId('account-menu');
      expect(account.textContent).toContain('demo3');
      expect(screen.getByTestId('gateway-account').textContent).not.toContain('注册');
    });

    it('个人中心 goes to /my-sign', async () => {
      const { router } = await signedIn();
      fireEvent.click(screen.getByText('个人中心'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign'));
    });

    it('修改密码 opens /alert-password in a new tab', async () => {
      const open = vi.spyOn(window, 'open').mockReturnValue(null);
      await signedIn();
      fireEvent.click(screen.getByText('修改密码'));
      expect(open).toHaveBeenCalledWith('/alert-password', '_blank', 'noopener');
    });

    it('退出登录 tells the server, removes the token, forgets the user and goes to /', async () => {
      const fetchMock = vi.fn(async () => new Response('{}'));
      vi.stubGlobal('fetch', fetchMock);
      const { router } = await signedIn('/medical-insurance');
      fireEvent.click(screen.getByText('退出登录'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(localStorage.getItem('AccessToken')).toBeNull();
      await waitFor(() =>
        expect(screen.getByTestId('gateway-account').dataset.status).toBe('anonymous'),
      );
      expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/logout',
        expect.objectContaining({ method: 'POST', headers: { Authorization: 'Bearer token-1' } }),
      );
    });
  });
});
