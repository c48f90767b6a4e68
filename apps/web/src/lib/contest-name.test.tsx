import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { changeLocale, i18n, initI18n } from '../i18n';
import { rememberContestName } from '../i18n/contest-name';
import { Logo } from '../components/Logo';
import { previewWatermarkText } from '../components/preview/preview-watermark';
import { ok } from '../test/api-mocks';
import { api } from './api';
import { useContestName, useLoadContestName } from './contest-name';

const SLOW = { timeout: 10_000 };
const BUILT_IN = { name: '2025全国智慧医保大赛', nameEn: '2025 National Smart Medical-Insurance Competition' };

beforeAll(() => {
  initI18n();
});

afterEach(() => {
  // The module graph is shared with other test files: put the built-in names back.
  rememberContestName(BUILT_IN);
  changeLocale('zh-cn');
  vi.restoreAllMocks();
});

function Shell() {
  useLoadContestName();
  const name = useContestName();
  return (
    <>
      <Logo />
      <p data-testid="watermark">{previewWatermarkText('/my-sign', 'USER', name)}</p>
    </>
  );
}

describe('contest name of 大赛设置', () => {
  it('fills {{contestName}} of every text in the page language, the welcome dialog and footer included', () => {
    rememberContestName({ name: '2026全国智慧医保大赛', nameEn: '2026 Smart Insurance Cup' });
    changeLocale('zh-cn');
    expect(i18n.t('auth.welcome')).toBe('欢迎参加2026全国智慧医保大赛');
    expect(i18n.t('footer.copyright')).toBe('© 2026全国智慧医保大赛组委会 版权所有');
    changeLocale('en');
    expect(i18n.t('auth.welcome')).toBe('Welcome to the 2026 Smart Insurance Cup');
    expect(i18n.t('appName')).toBe('2026 Smart Insurance Cup');
    expect(i18n.t('site:home.organisers.hostName')).toBe('Organising Committee of the 2026 Smart Insurance Cup');
  });

  it('keeps the built-in names until the server answers, and for blank answers', () => {
    rememberContestName({ name: '  ', nameEn: undefined });
    expect(i18n.t('appName')).toBe(BUILT_IN.name);
    changeLocale('en');
    expect(i18n.t('appName')).toBe(BUILT_IN.nameEn);
  });

  it('shows the name from GET /contest/public in the header logo and the watermark, in the page language', async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue(ok({ ...BUILT_IN, name: '第二届智慧医保大赛', nameEn: 'Second Smart Insurance Cup', phases: [], currentPhase: null, now: '2026-01-01T00:00:00.000Z' }));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <Shell />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByRole('link', { name: '第二届智慧医保大赛' })).toBeTruthy(), SLOW);
    expect(screen.getByTestId('watermark').textContent).toBe('第二届智慧医保大赛');
    expect(get).toHaveBeenCalledWith('/contest/public', { silent: true });
    act(() => changeLocale('en'));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Second Smart Insurance Cup' })).toBeTruthy(), SLOW);
    expect(screen.getByTestId('watermark').textContent).toBe('Second Smart Insurance Cup');
  });
});
