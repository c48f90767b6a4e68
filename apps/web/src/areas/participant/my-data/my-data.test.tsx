/** The participant's 个人数据 (/my-data), with mocked answers (docs/retention.md, "Requests"). */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DataRequestItem, MyDataOverview } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { changeLocale } from '../../../i18n';
import { mockGets } from '../team/contest-fixtures';

const SLOW = { timeout: 20_000 };

describe('个人数据 (participant)', { timeout: 60_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  const item = (over: Partial<DataRequestItem>): DataRequestItem => ({
    id: 'x',
    kind: 'EXPORT',
    status: 'READY',
    reason: null,
    reply: null,
    waitReason: null,
    createdAt: '2026-06-01T02:00:00.000Z',
    decidedAt: null,
    doneAt: null,
    expiresAt: '2026-06-08T02:00:00.000Z',
    size: 2048,
    version: 1,
    ...over,
  });

  it('a ready export downloads; a waiting deletion says why; no second request form while one is open', async () => {
    const overview: MyDataOverview = {
      export: item({ id: 'exp-1' }),
      deletion: item({ id: 'del-1', kind: 'DELETE', status: 'WAITING', reason: '不再参赛', reply: '同意', waitReason: 'PUBLICITY_OPEN', expiresAt: null, size: null }),
    };
    const get = mockGets({ '/my-data': overview }) as unknown as MockInstance<(url: string, config?: unknown) => Promise<unknown>>;
    const base = get.getMockImplementation()!;
    get.mockImplementation(async (url, config) => (url === '/my-data/export/exp-1/download' ? { blob: new Blob(['zip']), fileName: 'my.zip' } : base(url, config)));
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    renderRoute('/my-data');
    expect(await screen.findByRole('heading', { name: '个人数据' }, SLOW)).toBeTruthy();
    expect((await screen.findByTestId('my-data-waiting', {}, SLOW)).textContent).toContain('您的项目结果仍在公示期内');
    expect(screen.queryByTestId('my-data-delete-button')).toBeNull();
    fireEvent.click(screen.getByTestId('my-data-download'));
    await waitFor(() => expect(get).toHaveBeenCalledWith('/my-data/export/exp-1/download', { responseType: 'blob' }), SLOW);
  });

  it('a deletion request needs a reason and a confirmation', async () => {
    mockGets({ '/my-data': { export: null, deletion: null } satisfies MyDataOverview });
    const post = vi.spyOn(api, 'post').mockImplementation(async () => ok(item({ kind: 'DELETE', status: 'PENDING' })));
    renderRoute('/my-data');
    fireEvent.click(await screen.findByTestId('my-data-delete-button', {}, SLOW));
    expect(await screen.findAllByText('请说明申请删除的原因（最多 500 字）', {}, SLOW)).not.toHaveLength(0);
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole('textbox'), { target: { value: '不再参赛' } });
    fireEvent.click(screen.getByTestId('my-data-delete-button'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/my-data/deletion', { reason: '不再参赛' }), SLOW);
  });
});
