import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import type { ContestAttachment, StatusHistoryEntry } from '@contest/shared';
import { createHttpClient } from '../../api';
import { api } from '../../lib/api';
import { renderKit } from '../admin-kit/render-kit';
import { AttachmentList, ContestStatusTag, StatusHistory, labelOf } from '.';

// The preview dialog's PDF frame needs a real browser (e2e); images are enough here.
vi.mock('../preview/PdfFrame', () => ({ PdfFrame: () => null }));

const file = (uniqueNo: string, name: string): ContestAttachment => ({
  uniqueNo,
  name,
  extension: name.split('.').pop()!,
  size: 2048,
  filePath: `/api/attachment/stream/${uniqueNo}`,
});

/**
 * The app's client reads the page URL and localStorage on every call; this one does the same
 * over a fake network, so a test sees which token each call of a view carried.
 */
function recordTokens() {
  const sent: { url: string; authorization: string | null }[] = [];
  const client = createHttpClient({
    getPathname: () => window.location.pathname,
    storage: localStorage,
    ui: { error: () => {}, closeAll: () => {}, confirm: async () => true },
    navigate: () => {},
    openLogin: () => {},
    adapter: async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      sent.push({ url: config.url ?? '', authorization: String(config.headers.get('Authorization') ?? '') || null });
      return {
        data: new Blob(['png'], { type: 'image/png' }),
        status: 200,
        statusText: 'OK',
        headers: { 'content-type': 'image/png', 'content-disposition': "attachment; filename*=UTF-8''photo.png" },
        config,
        request: {},
      };
    },
  });
  vi.spyOn(api, 'get').mockImplementation(((url: string, config?: object) => client.get(url, config)) as typeof api.get);
  return sent;
}

describe('AttachmentList', { timeout: 20_000 }, () => {
  const startUrl = window.location.href;
  beforeEach(() => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', startUrl);
  });

  it.each([
    ['/admin/competition/qualification-detail/1', 'admin-token'],
    ['/expert/review-manage', 'expert-token'],
    ['/my-sign/detail', 'user-token'],
  ])('on %s previews and downloads with the token of the page realm', async (path, token) => {
    // Every realm signed in in the same browser: the page decides which token goes along.
    localStorage.setItem('AccessToken', 'user-token');
    localStorage.setItem('AdminToken', 'admin-token');
    localStorage.setItem('ExpertToken', 'expert-token');
    window.history.replaceState(null, '', path);
    const sent = recordTokens();
    renderKit(<AttachmentList files={[file('f1', '照片.png'), null, file('f2', '资料.zip')]} />, { path });

    const rows = screen.getAllByTestId('attachment-row');
    expect(rows).toHaveLength(2);
    // Only the image offers a preview.
    expect(within(rows[1]!).queryByRole('button', { name: /预览/ })).toBeNull();

    fireEvent.click(within(rows[0]!).getByRole('button', { name: /下载/ }));
    await waitFor(() => expect(sent).toContainEqual({ url: '/attachment/stream/f1', authorization: `Bearer ${token}` }));
    expect(HTMLAnchorElement.prototype.click).toHaveBeenCalled();

    fireEvent.click(within(rows[0]!).getByRole('button', { name: /预览/ }));
    expect(await screen.findByTestId('preview-image')).toBeTruthy();
    expect(sent.filter((call) => call.url === '/attachment/stream/f1')).toHaveLength(2);
    expect(sent.every((call) => call.authorization === `Bearer ${token}`)).toBe(true);
  });

  it('says when there is no file', () => {
    renderKit(<AttachmentList files={[null]} />);
    expect(screen.getByText('未上传')).toBeTruthy();
  });
});

const history: StatusHistoryEntry[] = [
  { id: 'h1', fromStatus: null, toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-03-01T02:00:00.000Z' },
  {
    id: 'h2',
    fromStatus: 'SUBMITTED',
    toStatus: 'REVISING',
    reason: '请补充盖章',
    actorRealm: 'ADMIN',
    actorName: '运营一号',
    createdAt: '2025-03-02T02:00:00.000Z',
  },
];

describe('StatusHistory', { timeout: 20_000 }, () => {
  it('shows staff by name (and kind of account) on admin pages', () => {
    renderKit(<StatusHistory kind="team" entries={history} />, { path: '/admin/competition/qualification-detail/1' });
    const items = screen.getAllByTestId('status-history-item');
    // Newest first.
    expect(items[0]!.textContent).toContain('运营一号（运营人员）：已提交 → 退回修改');
    expect(items[0]!.textContent).toContain('审核意见：请补充盖章');
    expect(items[1]!.textContent).toContain('demo1（参赛者）：已提交');
    // Audit times on the Beijing clock, whatever the device's zone, and marked as such.
    expect(items[1]!.textContent).toContain('2025-03-01 10:00:00（北京时间）');
  });

  it('shows staff as the committee to participants, whatever name the record holds', () => {
    renderKit(<StatusHistory kind="team" entries={history} />, { path: '/my-sign/detail' });
    const items = screen.getAllByTestId('status-history-item');
    expect(items[0]!.textContent).toContain('大赛组委会：已提交 → 退回修改');
    expect(items[0]!.textContent).not.toContain('运营一号');
    expect(items[1]!.textContent).toContain('demo1：已提交');
  });

  it('follows the language', () => {
    renderKit(<StatusHistory kind="prelim" entries={[{ ...history[1]!, toStatus: 'APPROVED' }]} />, {
      path: '/admin/preliminary/audit/1',
      search: '?lang=en',
    });
    expect(screen.getByTestId('status-history-item').textContent).toContain(
      '运营一号 (Operator): Submitted → Passed the formal check',
    );
    expect(screen.getByTestId('status-history-item').textContent).toContain('2025-03-02 10:00:00 (Beijing time)');
  });
});

describe('ContestStatusTag and labelOf', () => {
  it('names statuses and dictionary codes', () => {
    renderKit(
      <>
        <ContestStatusTag kind="team" status="REVISING" />
        <ContestStatusTag kind="prelim" status={null} />
      </>,
    );
    expect(screen.getByText('退回修改')).toBeTruthy();
    expect(screen.getByText('未开放')).toBeTruthy();
    const labels = { TRACK: { SMART_SUPERVISION: '智能监管与基金安全' } };
    expect(labelOf(labels, 'TRACK', 'SMART_SUPERVISION')).toBe('智能监管与基金安全');
    expect(labelOf(labels, 'TRACK', 'GONE')).toBe('GONE');
    expect(labelOf(labels, 'TRACK', null)).toBe('--');
  });
});
