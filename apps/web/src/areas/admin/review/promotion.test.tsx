/** 晋级决赛 on 决赛项目管理, with mocked answers (packages/shared/src/review/api.ts, promotion). */
import { answerConfirm } from '../../../test/confirm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PromotionPreview, PromotionRankRow, PromotionRecord, PromotionResult } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, closing, mockGet, page } from './review-fixtures';

const PREVIEW = '/admin/final/promotion/preview';
const CONFIRM = '/admin/final/promotion/confirm';
const RULE = { aggregate: 'TRIMMED_MEAN' as const, minScoresForTrim: 5, tieBreak: ['RULE_SCORE' as const, 'RAW_MEAN' as const] };

const rank = (n: number, over: Partial<PromotionRankRow> = {}): PromotionRankRow => ({
  id: ID(n),
  projectName: `医保智能审核${n}号`,
  orgName: `第${n}人民医院`,
  track: 'SMART_SUPERVISION',
  rank: n,
  trackRank: n,
  ruleScore: 90 - n,
  decidedBy: null,
  inFinal: false,
  selected: false,
  ...over,
});

/** The top `n` selected; the next one tied with the last selected (the cut line). */
const topPreview = (token: string, n: number, reviewOpen = false): PromotionPreview => {
  const ranking = [1, 2, 3, 4].map((i) => rank(i, { selected: i <= n, inFinal: i === 2, ...(i === n + 1 ? { rank: n, ruleScore: 90 - n, decidedBy: 'EQUAL' } : {}) }));
  return { token, rule: RULE, reviewOpen, ranking, selectedCount: n, atCutLine: ranking.filter((r) => r.id === ID(n + 1)) };
};

const record: PromotionRecord = { id: 'pr1', mode: 'TOP_PER_TRACK', n: 5, count: 20, actorName: '运营一号', createdAt: '2025-07-10T02:00:00Z' };


describe('promotion to the final', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('前 N 名: the ranking with who goes, the cut line, the open-review warning; 确认晋级 sends the token and the list is read again', async () => {
    const get = mockGet(superAdmin(), { '/admin/final/list': page([]), '/admin/final/promotions': [record] });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === PREVIEW) return ok(topPreview('p1', 3, true));
      if (url === CONFIRM) return ok<PromotionResult>({ promotionId: 'pr2', added: 2, already: 1 });
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    fireEvent.click(await screen.findByTestId('final-promote', {}, SLOW));
    const dialog = await screen.findByTestId('promotion-dialog');
    const previewButton = within(dialog).getByTestId('promotion-preview') as HTMLButtonElement;
    expect(previewButton.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('晋级名额 N'), { target: { value: '3' } });
    await waitFor(() => expect(previewButton.disabled).toBe(false));
    fireEvent.click(previewButton);
    await waitFor(() => expect(post).toHaveBeenCalledWith(PREVIEW, { mode: 'TOP_OVERALL', n: 3, ids: [] }, { silent: true }));

    const result = await within(dialog).findByTestId('promotion-result');
    expect(within(result).getByTestId('promotion-review-open').textContent).toContain('初赛评分尚未结束');
    expect(within(result).getByTestId('promotion-count').textContent).toContain('将晋级 3 个项目（其中 1 个已在决赛）');
    expect(within(result).getByTestId('promotion-count').textContent).toContain('另有 1 个项目与最后一名并列');
    const rows = ['1', '2', '3', '4'].map((n) => within(result).getByText(`医保智能审核${n}号`).closest('tr')!);
    expect(rows.slice(0, 3).every((r) => r.className.includes('review-row--selected'))).toBe(true);
    expect(rows[3]!.className).not.toContain('review-row--selected');
    expect(rows[3]!.className).toContain('review-row--cut');
    expect(within(rows[3]!).getByTestId('cut-line-tag').textContent).toBe('分数线并列');
    expect(within(rows[3]!).getByTestId('decided-by').textContent).toBe('并列');
    expect(rows[1]!.textContent).toContain('已在决赛');

    // It asks first, saying how many go; 取消 sends nothing.
    fireEvent.click(within(dialog).getByTestId('promotion-confirm'));
    await answerConfirm(/确认后写入决赛名单/, '取消');
    expect(callsTo(post, CONFIRM)).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('promotion-confirm'));
    await answerConfirm(/确认后写入决赛名单/, '确认晋级');
    await waitFor(() => expect(post).toHaveBeenCalledWith(CONFIRM, { mode: 'TOP_OVERALL', n: 3, ids: [], token: 'p1' }, { silent: true }));
    expect(await screen.findByText('晋级名单已确认：新增 2 个项目，1 个已在决赛')).toBeTruthy();
    await waitFor(() => expect(closing(dialog)).toBe(true));
    await waitFor(() => expect(callsTo(get, '/admin/final/list').length).toBeGreaterThan(1));

    fireEvent.click(screen.getByTestId('promotion-history'));
    const history = await screen.findByTestId('promotion-history-dialog');
    await waitFor(() => expect(history.textContent).toContain('运营一号'));
    expect(history.textContent).toContain('各方向前 N 名');
    expect(history.textContent).toContain('20');
  });

  it('手动选择: picks from the ranking; a STALE confirm offers a new preview, whose token is confirmed', async () => {
    mockGet(superAdmin(), { '/admin/final/list': page([]) });
    let previews = 0;
    let confirms = 0;
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string, body: unknown) => {
      if (url === PREVIEW) {
        previews += 1;
        const picked = (body as { mode: string; ids: string[] }).mode === 'PICKED' ? (body as { ids: string[] }).ids : [];
        const base = topPreview(`p${previews}`, 1);
        const ranking = base.ranking.map((r) => ({ ...r, selected: picked.length ? picked.includes(r.id) : r.selected }));
        return ok<PromotionPreview>({ ...base, ranking, selectedCount: ranking.filter((r) => r.selected).length, atCutLine: [] });
      }
      if (url === CONFIRM) {
        confirms += 1;
        if (confirms === 1) throw refused('排名已变化，请重新预览', { reason: 'STALE' });
        return ok<PromotionResult>({ promotionId: 'pr3', added: 2, already: 0 });
      }
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    fireEvent.click(await screen.findByTestId('final-promote', {}, SLOW));
    const dialog = await screen.findByTestId('promotion-dialog');
    fireEvent.click(within(dialog).getByLabelText('手动选择'));
    fireEvent.click(await within(dialog).findByTestId('promotion-load-ranking'));
    const result = await within(dialog).findByTestId('promotion-result');
    // Only the ranking was read: nothing counts as chosen, nothing can be confirmed yet.
    expect(within(result).getByTestId('promotion-changed')).toBeTruthy();
    expect((within(dialog).getByTestId('promotion-confirm') as HTMLButtonElement).disabled).toBe(true);
    expect(within(result).getByText('医保智能审核1号').closest('tr')!.className).not.toContain('review-row--selected');

    fireEvent.click(within(result).getByLabelText('选择「医保智能审核4号」'));
    fireEvent.click(within(result).getByLabelText('选择「医保智能审核2号」'));
    expect(within(dialog).getByText('已勾选 2 个项目')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('promotion-preview'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(PREVIEW, { mode: 'PICKED', ids: [ID(2), ID(4)] }, { silent: true }));
    await waitFor(() => expect(within(dialog).getByTestId('promotion-count').textContent).toContain('将晋级 2 个项目'));

    fireEvent.click(within(dialog).getByTestId('promotion-confirm'));
    await answerConfirm(/确认后写入决赛名单/, '确认晋级');
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(CONFIRM, { mode: 'PICKED', ids: [ID(2), ID(4)], token: 'p2' }, { silent: true }));
    expect((await within(dialog).findByTestId('promotion-stale')).textContent).toContain('排名已变化');
    expect((within(dialog).getByTestId('promotion-confirm') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(dialog).getByTestId('promotion-stale-repreview'));
    await waitFor(() => expect(within(dialog).queryByTestId('promotion-stale')).toBeNull());
    expect(previews).toBe(3);
    await waitFor(() => expect((within(dialog).getByTestId('promotion-confirm') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(within(dialog).getByTestId('promotion-confirm'));
    await answerConfirm(/确认后写入决赛名单/, '确认晋级');
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(CONFIRM, { mode: 'PICKED', ids: [ID(2), ID(4)], token: 'p3' }, { silent: true }));
    expect(await screen.findByText('晋级名单已确认：新增 2 个项目，0 个已在决赛')).toBeTruthy();
  });

  it('without final:promote there is no 晋级决赛 button; the records stay readable', async () => {
    mockGet(operator(['final'], []), { '/admin/final/list': page([]), '/admin/final/promotions': [record] });
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    fireEvent.click(await screen.findByTestId('promotion-history', {}, SLOW));
    const history = await screen.findByTestId('promotion-history-dialog');
    await waitFor(() => expect(history.textContent).toContain('运营一号'));
    expect(screen.queryByTestId('final-promote')).toBeNull();
  });
});
