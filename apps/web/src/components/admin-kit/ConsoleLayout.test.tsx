import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '../../lib/api';
import { ok } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';
import { expert, expertConsoleAnswer } from './staff-fixtures';
import { svgOfDataUrl } from './watermark';

describe('expert console', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shares the console layout and carries the watermark of code and masked account', async () => {
    localStorage.setItem('ExpertToken', 'expert-token');
    vi.spyOn(api, 'get').mockImplementation(expertConsoleAnswer(expert(), ok));
    renderRoute('/expert/index');
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    expect(within(menu).getByText('初赛评审')).toBeTruthy();
    const mark = await screen.findByTestId('console-watermark');
    expect(mark.dataset.text).toBe('E0001 138****0001');
    const url = /url\("?([^")]+)"?\)/.exec(mark.style.backgroundImage)?.[1] ?? '';
    const image = svgOfDataUrl(url);
    expect(image).toContain('>E0001</text>');
    expect(image).toContain('>138****0001</text>');
    expect(image).not.toContain('13800000001');
    expect(mark.style.backgroundSize).toBe('300px 240px');
    await waitFor(() => expect(localStorage.getItem('expertTabs')).toContain('/expert/index'));
    expect(localStorage.getItem('adminTabs')).toBeNull();
  });

  it('shows an unknown expert path as a 404 inside the console, with a way back to its home', async () => {
    localStorage.setItem('ExpertToken', 'expert-token');
    vi.spyOn(api, 'get').mockImplementation(expertConsoleAnswer(expert(), ok));
    const { router } = renderRoute('/expert/no-such-page');
    const notFound = await screen.findByTestId('console-not-found', {}, { timeout: 15_000 });
    expect(screen.getByTestId('expert-console').contains(notFound)).toBe(true);
    expect(screen.queryByTestId('not-found')).toBeNull();
    fireEvent.click(within(notFound).getByRole('button', { name: '返回控制台首页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/index'));
  });
});
