import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '../lib/api';
import { ok } from '../test/api-mocks';
import { renderRoute } from '../test/render-route';
import { shouldShowBack } from './Breadcrumb';

const TOP = ['/', '/medical-insurance', '/contest-dynamic'];

function historyLength(n: number) {
  vi.spyOn(window.history, 'length', 'get').mockReturnValue(n);
}

describe('breadcrumb rule', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the back arrow only below the top level and with more than two history entries', () => {
    expect(shouldShowBack('/dynamic-detail', TOP, 3)).toBe(true);
    expect(shouldShowBack('/dynamic-detail', TOP, 2)).toBe(false);
    expect(shouldShowBack('/dynamic-detail', TOP, 1)).toBe(false);
    expect(shouldShowBack('/medical-insurance', TOP, 10)).toBe(false);
    expect(shouldShowBack('/medical-insurance/', TOP, 10)).toBe(false);
    expect(shouldShowBack('/', TOP, 10)).toBe(false);
  });

  it('renders the last label with a working back arrow on a detail page', async () => {
    historyLength(3);
    vi.spyOn(api, 'get').mockResolvedValue(ok({ list: [], page: 1, size: 10, total: 0 }));
    const { router } = renderRoute('/medical-insurance');
    await screen.findByRole('heading', { level: 1, name: '医保资讯' });
    expect(screen.getByTestId('breadcrumb').textContent).toBe('医保资讯');
    expect(screen.queryByTestId('breadcrumb-back')).toBeNull();

    await router.navigate('/dynamic-detail?id=x');
    await waitFor(() => expect(screen.getByTestId('breadcrumb').textContent).toBe('动态详情'));
    fireEvent.click(screen.getByTestId('breadcrumb-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/medical-insurance'));
  });

  it('has no back arrow when the history is short', async () => {
    historyLength(2);
    vi.spyOn(api, 'get').mockResolvedValue(ok({ list: [], page: 1, size: 10, total: 0 }));
    renderRoute('/dynamic-detail?id=x');
    await waitFor(() => expect(screen.getByTestId('breadcrumb').textContent).toBe('动态详情'));
    expect(screen.queryByTestId('breadcrumb-back')).toBeNull();
  });

  it('shows nothing on the home page, which declares no breadcrumb', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(ok({ list: [], page: 1, size: 10, total: 0 }));
    renderRoute('/');
    await screen.findByTestId('home-title');
    expect(screen.queryByTestId('breadcrumb')).toBeNull();
  });
});
