import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { closeAuthModal, getAuthModalState } from '../../lib/auth-modal';
import { renderRoute } from '../../test/render-route';

describe('GatewayLayout', () => {
  afterEach(() => closeAuthModal());

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
});
