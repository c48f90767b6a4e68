/** 决赛管理 > 现场答辩 console pages with mocked answers (docs/live-final.md, "Calls"). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LIVE_MSG } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, closing, mockGet, page } from '../review/review-fixtures';
import { SESSION_ID, candidates, chairState, sessionDetail, sessionRow } from './live-fixtures';

const LIST = '/admin/live/sessions';
const DETAIL = `${LIST}/${SESSION_ID}`;
const CHAIR = `${DETAIL}/chair`;
const ACTIONS = `${DETAIL}/actions`;

describe('live final console pages', { timeout: 60_000 }, () => {
  beforeEach(() => {
    // The chair's stream never opens in the tests: the GET gives the state.
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('sessions list: rows with status; the create dialog says what is missing and sends nothing', async () => {
    mockGet(superAdmin(), {
      [LIST]: page([sessionRow(), sessionRow({ id: ID(901), name: '决赛第二场', status: 'LIVE' })]),
      '/admin/live/candidates': candidates(),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(sessionDetail()));
    renderRoute('/admin/final/live');
    const names = await screen.findAllByTestId('live-row-name', {}, SLOW);
    expect(names.map((n) => n.textContent)).toEqual(['决赛第一场', '决赛第二场']);
    const deletes = screen.getAllByTestId('live-row-delete') as HTMLButtonElement[];
    expect(deletes.map((b) => b.disabled)).toEqual([false, true]);
    // Times say Beijing time.
    expect(screen.getAllByText(/开始时间（北京时间）/).length).toBeGreaterThan(0);

    fireEvent.click(screen.getByTestId('live-create'));
    const dialog = await screen.findByTestId('live-session-dialog');
    fireEvent.change(within(dialog).getByLabelText('陈述时间（分钟）'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText(LIVE_MSG.sessionNameRequired)).toBeTruthy();
    expect(within(dialog).getByText(LIVE_MSG.venueRequired)).toBeTruthy();
    expect(within(dialog).getByText(LIVE_MSG.dateInvalid)).toBeTruthy();
    expect(within(dialog).getByText(LIVE_MSG.judgesRequired)).toBeTruthy();
    await waitFor(() => expect(within(dialog).getByText(LIVE_MSG.presentationMinutesInvalid)).toBeTruthy());
    expect(post).not.toHaveBeenCalled();
  });

  it('planning: the running order moves by keyboard (buttons with names), the draft is saved with the version; exclusions say why', async () => {
    mockGet(superAdmin(), {
      [DETAIL]: sessionDetail(),
      '/admin/live/candidates': candidates(),
      [`${DETAIL}/displays`]: [],
    });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(sessionDetail()));
    renderRoute(`/admin/final/live/${SESSION_ID}`);
    const rows = await screen.findAllByTestId('live-order-row', {}, SLOW);
    expect(rows).toHaveLength(3);
    const excluded = within(rows[1]!).getByTestId('live-order-excluded').textContent!;
    expect(excluded).toContain('E0102 李评委');
    expect(excluded).toContain('利益冲突');
    expect(excluded).toContain('单位名称相同');

    const down = screen.getByRole('button', { name: '下移「医保项目1号」' });
    expect((screen.getByRole('button', { name: '上移「医保项目1号」' }) as HTMLButtonElement).disabled).toBe(true);
    down.focus();
    fireEvent.click(down);
    await waitFor(() => expect(screen.getAllByTestId('live-order-row').map((r) => r.textContent?.includes('医保项目1号'))).toEqual([false, true, false]));
    expect(screen.getByTestId('live-order-announce').textContent).toBe('「医保项目1号」已移到第 2 位');
    // Focus stays with the moved project's button.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: '下移「医保项目1号」' })));
    expect(put).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('live-order-save'));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(`${DETAIL}/projects`, { projectIds: [ID(2), ID(1), ID(3)], version: 4 }, { silent: true }),
    );
  });

  it('chair: an action is sent with the version shown; a STALE refusal shows its message and reloads the state (no sign-out)', async () => {
    let version = 7;
    const get = mockGet(superAdmin(), { [CHAIR]: () => chairState({ session: { ...chairState().session, version } }) });
    const post = vi.spyOn(api, 'post').mockImplementation(async () => {
      version = 8;
      throw refused(LIVE_MSG.stale, { reason: 'STALE', version: 8 });
    });
    const { router } = renderRoute(`/admin/final/live/${SESSION_ID}/chair`);
    expect((await screen.findByTestId('live-stage-name', {}, SLOW)).textContent).toBe('医保项目1号');
    expect(screen.getByTestId('live-timer').textContent).toContain('07:00');
    expect(screen.getByTestId('live-stage-progress').textContent).toBe('已提交 1 / 2');
    // Sealed: no totals while presenting.
    expect(screen.getAllByTestId('live-judge-row')[0]!.textContent).toContain('评分结束后显示');

    fireEvent.click(screen.getByTestId('live-action-QA'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(ACTIONS, { action: 'QA', projectId: ID(1), version: 7 }, { silent: true }));
    expect(await screen.findByText(LIVE_MSG.stale)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, CHAIR).length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.getByTestId('live-version').textContent).toBe('版本 8'));
    expect(router.state.location.pathname).toBe(`/admin/final/live/${SESSION_ID}/chair`);
    expect(localStorage.getItem('AdminToken')).toBe('admin-token');

    // The next press carries the new version.
    post.mockResolvedValue(ok(chairState()));
    fireEvent.click(screen.getByTestId('live-action-QA'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(ACTIONS, { action: 'QA', projectId: ID(1), version: 8 }, { silent: true }));
  });

  it('chair: closing scoring with a judge missing needs a reason, sent with the version', async () => {
    mockGet(superAdmin(), { [CHAIR]: chairState() });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(chairState()));
    renderRoute(`/admin/final/live/${SESSION_ID}/chair`);
    fireEvent.click(await screen.findByTestId('live-action-CLOSE', {}, SLOW));
    const dialog = await screen.findByTestId('live-reason-dialog');
    expect(dialog.textContent).toContain('尚有 1 名评委未提交评分');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('原因'), { target: { value: ' 评委临时离场 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(ACTIONS, { action: 'CLOSE', reason: '评委临时离场', projectId: ID(1), version: 7 }, { silent: true }),
    );
    await waitFor(() => expect(closing(dialog)).toBe(true));
  });

  it('chair: a listed project shows its first action as a button and the others in a 更多 menu named for the project', async () => {
    mockGet(superAdmin(), { [CHAIR]: chairState() });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(chairState()));
    renderRoute(`/admin/final/live/${SESSION_ID}/chair`);
    const rows = await screen.findAllByTestId('live-chair-project', {}, SLOW);
    const waiting = rows.find((r) => r.textContent?.includes('医保项目2号'))!;
    // ABSENT, SKIP: one button, one menu entry; the menu button names its project.
    expect(within(waiting).getByTestId('live-action-ABSENT')).toBeTruthy();
    expect(within(waiting).queryByTestId('live-action-SKIP')).toBeNull();
    const more = within(waiting).getByRole('button', { name: '「医保项目2号」的更多操作' });
    fireEvent.click(more);
    fireEvent.click(await screen.findByRole('menuitem', { name: '跳过' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(ACTIONS, { action: 'SKIP', projectId: ID(2), version: 7 }, { silent: true }));
  });

  it('display links: a new link is shown once with its QR code (alt text), drawn in the browser', async () => {
    mockGet(superAdmin(), { [DETAIL]: sessionDetail(), '/admin/live/candidates': candidates(), [`${DETAIL}/displays`]: [] });
    const token = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const post = vi.spyOn(api, 'post').mockResolvedValue(
      ok({ id: ID(50), name: '主会场', token, path: `/live/${token}`, revoked: false, createdAt: '2026-11-29T08:00:00.000Z', revokedAt: null, lastSeenAt: null }),
    );
    renderRoute(`/admin/final/live/${SESSION_ID}`);
    fireEvent.click(await screen.findByTestId('live-display-create', {}, SLOW));
    const dialog = await screen.findByTestId('live-display-dialog');
    fireEvent.change(within(dialog).getByLabelText('链接名称'), { target: { value: '主会场' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`${DETAIL}/displays`, { name: '主会场' }, expect.anything()));
    const once = await screen.findByTestId('live-display-once');
    expect((within(once).getByTestId('live-display-url') as HTMLInputElement).value).toBe(`${window.location.origin}/live/${token}`);
    const qr = (await within(once).findByRole('img', { name: '大屏链接二维码' }, SLOW)) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(qr.src)).toContain('<svg');
  });
});
