import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderRoute } from '../test/render-route';

describe('router', () => {
  it('renders the 404 page for an unknown path', async () => {
    renderRoute('/no/such/page');
    const page = await screen.findByTestId('not-found');
    expect(page.textContent).toContain('404');
    expect(page.textContent).toContain('抱歉，您访问的页面不存在');
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
  });

  it('renders the 404 page in English', async () => {
    renderRoute('/nope/page', { search: '?lang=en' });
    const page = await screen.findByTestId('not-found');
    expect(page.textContent).toContain('Sorry, the page you visited does not exist.');
    expect(screen.getByRole('button', { name: 'Back to home' })).toBeTruthy();
  });

  it('renders the home page with the contest name as its heading', async () => {
    renderRoute('/');
    const title = await screen.findByTestId('home-title');
    expect(title.tagName).toBe('H1');
    expect(title.textContent).toBe('2025全国智慧医保大赛');
    expect(screen.getByRole('link', { name: '立即报名' }).getAttribute('href')).toBe('/sign-up');
    await waitFor(() => expect(document.title).toBe('2025全国智慧医保大赛'));
  });

  it('redirects /expert to /expert/login', async () => {
    const { router } = renderRoute('/expert');
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/login'));
    expect(await screen.findByText('专家登录')).toBeTruthy();
  });

  it('serves the admin login placeholder', async () => {
    renderRoute('/admin/login');
    expect(await screen.findByText('管理员登录')).toBeTruthy();
  });

  it.each([
    ['/medical-insurance', '医保资讯'],
    ['/contest-dynamic', '大赛动态'],
    ['/sign-guide', '报名指南'],
    ['/sign-up', '参赛报名'],
    ['/materials-submit', '初赛材料提交'],
    ['/forget-password', '忘记密码'],
    ['/alert-password', '修改密码'],
  ])('gives %s a page titled %s', async (path, title) => {
    renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(`${title} - 2025全国智慧医保大赛`));
  });
});
