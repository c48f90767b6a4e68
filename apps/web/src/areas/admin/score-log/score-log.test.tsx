/** 评分存证 (/admin/results/score-log) with mocked answers (packages/shared/src/results/score-log.ts). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SCORE_LOG_GENESIS, type ApiEnvelope, type Page, type ScoreLogEntryView, type ScoreLogVerifyAnswer } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { formatDateTime } from '../../../components/admin-kit';
import { changeLocale } from '../../../i18n';
import type { StaffInfo } from '../../../lib/session';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const PATH = '/admin/results/score-log';
const PROJECT = '5b0c8f4e-2d7a-4c51-9a43-0f6e1d2c3b4a';
const hex = (c: string) => c.repeat(64);

const entry = (seq: number, over: Partial<ScoreLogEntryView> = {}): ScoreLogEntryView => ({
  v: 2,
  seq,
  kind: 'SCORE_SUBMITTED',
  round: 'PRELIMINARY',
  subjectType: 'prelim_doc',
  subjectId: PROJECT,
  actorId: 'a1b2c3d4-0000-4000-8000-000000000001',
  actorName: '张三（E0001）',
  payload: { projectName: '医保智能审核', scores: { innovation: 20, feasibility: 18.5 }, total: 38.5, commentSha256: hex('e') },
  at: '2025-09-01T08:00:00.000Z',
  prevHash: seq === 1 ? SCORE_LOG_GENESIS : hex(String(seq - 1)),
  hash: hex(String(seq)),
  ...over,
});

const LIST = [
  entry(3, { kind: 'PROMOTION', subjectType: 'promotion', subjectId: 'promo-1', actorName: '管理员', payload: { ruleText: '人工选定', promotedIds: [PROJECT] } }),
  entry(2, { kind: 'SCORE_RETURNED', actorName: '管理员', payload: { reason: '评分依据不足' } }),
  entry(1),
];

const ANCHOR = {
  id: 'anchor-1',
  round: 'PRELIMINARY' as const,
  resultVersionId: 'version-1',
  version: 1,
  seq: 2,
  headHash: hex('2'),
  merkleRoot: hex('c'),
  newsId: 'news-1',
  publishedAt: '2025-09-30T02:00:00.000Z',
};

const page = (list: ScoreLogEntryView[]): Page<ScoreLogEntryView> => ({ list, page: 1, size: 10, total: list.length });

const verified = (over: Partial<ScoreLogVerifyAnswer> = {}): ScoreLogVerifyAnswer => ({
  ok: true,
  count: 3,
  lastSeq: 3,
  lastHash: hex('3'),
  tookMs: 12,
  checkedAt: '2025-10-01T02:00:00.000Z',
  anchors: { count: 1 },
  live: { sheets: 9 },
  ...over,
});

type Params = Record<string, unknown> | undefined;

function mockGet(info: StaffInfo, verify: () => Promise<ApiEnvelope<unknown>> = async () => ok(verified())) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Params; responseType?: string }) => {
    if (url === '/admin/user/account') return ok(info);
    if (url === '/admin/score-log') {
      const params = config?.params ?? {};
      return ok(page(params.seq ? LIST.filter((e) => String(e.seq) === params.seq) : LIST));
    }
    if (url === '/admin/score-log/verify') return verify();
    if (url === '/admin/score-log/anchors') return ok({ list: [ANCHOR] });
    if (url === '/admin/score-log/export') return { blob: new Blob(['x']), fileName: 'x' } as never;
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);
/** The list row showing `text` (the same name may also sit in a filter's select). */
/** The table row showing `text` (the same text may also be a filter's chosen option, outside the table). */
const rowOf = (text: string) =>
  waitFor(() => {
    const row = screen.queryAllByText(text).map((el) => el.closest('tr.ant-table-row')).find((tr): tr is HTMLTableRowElement => tr !== null);
    if (!row) throw new Error(`no table row shows ${text}`);
    return row;
  }, SLOW);

describe('评分存证', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('lists the entries newest first with their names, actor and hash prefix; the filters are the URL', async () => {
    const get = mockGet(superAdmin());
    const { router } = renderRoute(`${PATH}?kind=PROMOTION&round=PRELIMINARY`);
    expect(await screen.findByRole('heading', { name: '评分存证' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, '/admin/score-log').at(-1)![1]).toEqual({ params: { kind: 'PROMOTION', round: 'PRELIMINARY', page: 1, size: 10 } }), SLOW);
    const promotion = await rowOf('晋级决赛');
    expect(promotion.textContent).toContain('晋级');
    expect(promotion.textContent).toContain('promo-1');
    expect(promotion.textContent).toContain('管理员');
    expect(promotion.textContent).toContain(`${'3'.repeat(12)}…`);
    expect(promotion.textContent).not.toContain('3'.repeat(13));
    const submitted = await rowOf('提交评分');
    expect(submitted.textContent).toContain('初赛');
    expect(submitted.textContent).toContain('张三（E0001）');
    expect(submitted.textContent).toContain(formatDateTime('2025-09-01T08:00:00.000Z'));
    expect(submitted.textContent).toContain('项目 5b0c8f4e…');

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('关键字'), { target: { value: '评分依据' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(callsTo(get, '/admin/score-log').at(-1)![1]).toEqual({ params: { kind: 'PROMOTION', round: 'PRELIMINARY', keyword: '评分依据', page: 1, size: 10 } }), SLOW);
    expect(new URLSearchParams(router.state.location.search).get('keyword')).toBe('评分依据');
  });

  it('校验: an intact chain shows the count and the whole last hash, copyable', async () => {
    const get = mockGet(superAdmin());
    renderRoute(PATH);
    await rowOf('晋级决赛');
    expect(screen.queryByTestId('score-log-verify-ok')).toBeNull();
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    const ok = await screen.findByTestId('score-log-verify-ok', {}, SLOW);
    expect(callsTo(get, '/admin/score-log/verify')).toHaveLength(1);
    expect(ok.textContent).toContain('存证链完整，未发现篡改');
    expect(ok.textContent).toContain('共 3 条记录，最后一条序号 3，耗时 12 毫秒。');
    expect(within(ok).getByTestId('score-log-last-hash').textContent).toContain(hex('3'));
    expect(within(ok).getByTestId('score-log-last-hash').className).toContain('score-log-mono');
    expect(within(ok).getByRole('button', { name: /复制|copy/i })).toBeTruthy();
    expect(ok.textContent).toContain(formatDateTime('2025-10-01T02:00:00.000Z'));
    expect(screen.queryByTestId('score-log-broken-row')).toBeNull();
    expect(screen.getByTestId('score-log-verify-button').textContent).toContain('重新校验');
  });

  it('校验: a broken chain names the first broken entry, marks it in the list, and shows it alone on request', async () => {
    const get = mockGet(superAdmin(), async () =>
      ok(verified({ ok: false, firstBroken: { seq: 2, reason: 'HASH_MISMATCH', expected: hex('a'), found: hex('2') } })),
    );
    const { router } = renderRoute(PATH);
    await rowOf('晋级决赛');
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    const broken = await screen.findByTestId('score-log-verify-broken', {}, SLOW);
    expect(broken.textContent).toContain('存证链已断裂：第 2 条记录异常');
    expect(broken.textContent).toContain('记录内容与其哈希不符（记录被修改）');
    expect(within(broken).getByTestId('score-log-expected').textContent).toBe(hex('a'));
    expect(within(broken).getByTestId('score-log-found').textContent).toBe(hex('2'));
    const marked = await screen.findByTestId('score-log-broken-row');
    expect(marked.textContent).toContain('2 异常');
    expect(marked.closest('tr')!.textContent).toContain('退回评分');

    fireEvent.click(within(broken).getByTestId('score-log-show-broken'));
    await waitFor(() => expect(router.state.location.search).toBe('?seq=2'));
    await waitFor(() => expect(callsTo(get, '/admin/score-log').at(-1)![1]).toEqual({ params: { seq: '2', page: 1, size: 10 } }), SLOW);
    await waitFor(() => expect(screen.queryByText('晋级决赛')).toBeNull());
    expect(screen.getByTestId('score-log-broken-row')).toBeTruthy();

    // The entry's drawer says why it is broken.
    fireEvent.click(within(screen.getByTestId('score-log-broken-row').closest('tr')!).getByTestId('score-log-detail-open'));
    expect((await screen.findByTestId('score-log-detail-broken', {}, SLOW)).textContent).toContain('记录内容与其哈希不符');
  });

  it('校验: an intact chain that no longer matches its published head, or a sheet that differs from its entry, is named; the published heads are listed', async () => {
    mockGet(superAdmin(), async () =>
      ok(
        verified({
          ok: false,
          anchors: { count: 1, firstMismatch: { reason: 'ANCHOR_HEAD_MISMATCH', anchorId: 'anchor-1', round: 'PRELIMINARY', version: 1, seq: 2, expected: hex('2'), found: hex('d') } },
          live: {
            sheets: 9,
            firstDifference: { reason: 'SHEET_FIELD_DIFFERS', sheetId: 'sheet-7', round: 'PRELIMINARY', projectId: PROJECT, projectName: '医保智能审核', expertId: 'x', expertCode: 'E0007', field: 'total', expected: '77', found: '100', seq: 1 },
          },
        }),
      ),
    );
    renderRoute(PATH);
    const heads = await screen.findByTestId('score-log-anchors', {}, SLOW);
    expect(heads.textContent).toContain('初赛第 1 版');
    expect(heads.textContent).toContain(hex('c'));
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    const anchor = await screen.findByTestId('score-log-anchor-mismatch', {}, SLOW);
    expect(anchor.textContent).toContain('与初赛第 1 版公示的链头（序号 2）不符');
    expect(anchor.textContent).toContain('链头哈希与公示时不符');
    expect(anchor.textContent).toContain(hex('d'));
    const live = screen.getByTestId('score-log-live-difference');
    expect(within(live).getByTestId('score-log-live-where').textContent).toBe('评分表 sheet-7，项目「医保智能审核」，专家 E0007，字段 total');
    expect(live.textContent).toContain('77');
    expect(live.textContent).toContain('100');
    expect(screen.queryByTestId('score-log-verify-ok')).toBeNull();
    expect(screen.queryByTestId('score-log-verify-broken')).toBeNull();
  });

  it('校验: a gap marks the entry after the missing one', async () => {
    mockGet(superAdmin(), async () => ok(verified({ ok: false, firstBroken: { seq: 2, reason: 'GAP', expected: '2', found: '3' } })));
    renderRoute(PATH);
    await rowOf('晋级决赛');
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    const broken = await screen.findByTestId('score-log-verify-broken', {}, SLOW);
    expect(broken.textContent).toContain('序号不连续（记录被删除）');
    expect((await screen.findByTestId('score-log-broken-row')).closest('tr')!.textContent).toContain('晋级决赛');
  });

  it('校验 refused or failing: the panel says the check did not finish', async () => {
    mockGet(superAdmin(), async () => {
      throw refused('操作过于频繁，请稍后再试', null, 429);
    });
    renderRoute(PATH);
    await rowOf('晋级决赛');
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    expect((await screen.findByTestId('score-log-verify-failed', {}, SLOW)).textContent).toContain('校验未能完成');
    expect(screen.queryByTestId('score-log-verify-ok')).toBeNull();
  });

  it('详情: every field, the payload pretty-printed, hash and previous hash in full, monospace and copyable', async () => {
    mockGet(superAdmin());
    renderRoute(PATH);
    const row = await rowOf('提交评分');
    fireEvent.click(within(row).getByTestId('score-log-detail-open'));
    const detail = await screen.findByTestId('score-log-detail', {}, SLOW);
    expect(screen.getByText('存证记录 #1')).toBeTruthy();
    const payload = within(detail).getByTestId('score-log-detail-payload');
    expect(payload.textContent).toBe(JSON.stringify(LIST[2]!.payload, null, 2));
    expect(payload.textContent).toContain('\n  "scores": {\n    "innovation": 20,');
    for (const [id, value] of [
      ['score-log-detail-hash', hex('1')],
      ['score-log-detail-prev-hash', SCORE_LOG_GENESIS],
      ['score-log-detail-subject', PROJECT],
    ] as const) {
      const el = within(detail).getByTestId(id);
      expect(el.textContent).toContain(value);
      expect(el.className).toContain('score-log-mono');
      expect(el.querySelector('[aria-label]') ?? el.querySelector('button')).toBeTruthy();
    }
    expect(detail.textContent).toContain('2025-09-01T08:00:00.000Z');
    expect(detail.textContent).toContain('SCORE_SUBMITTED');
    expect(detail.textContent).toContain('张三（E0001）');
  });

  it('导出 .xlsx and JSONL with the filters, for the button holder only', async () => {
    const get = mockGet(superAdmin());
    renderRoute(`${PATH}?kind=SCORE_RETURNED`);
    await rowOf('晋级决赛');
    fireEvent.click(screen.getByTestId('score-log-export-jsonl'));
    await waitFor(() => expect(get).toHaveBeenCalledWith('/admin/score-log/export', { params: { kind: 'SCORE_RETURNED', format: 'jsonl' }, responseType: 'blob' }));
    fireEvent.click(screen.getByTestId('score-log-export-xlsx'));
    await waitFor(() => expect(get).toHaveBeenCalledWith('/admin/score-log/export', { params: { kind: 'SCORE_RETURNED', format: 'xlsx' }, responseType: 'blob' }));
  });

  it('a reader without score-log:export sees no export, but lists and verifies', async () => {
    const get = mockGet(operator(['results'], []));
    renderRoute(PATH);
    await rowOf('晋级决赛');
    expect(screen.queryByTestId('score-log-export-xlsx')).toBeNull();
    expect(screen.queryByTestId('score-log-export-jsonl')).toBeNull();
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    expect(await screen.findByTestId('score-log-verify-ok', {}, SLOW)).toBeTruthy();
    expect(callsTo(get, '/admin/score-log/export')).toHaveLength(0);
  });

  it('speaks English with ?lang=en', async () => {
    mockGet(superAdmin());
    renderRoute(PATH, { search: '?lang=en' });
    expect(await screen.findByRole('heading', { name: 'Score log' }, SLOW)).toBeTruthy();
    expect((await rowOf('Promotion to the final')).textContent).toContain('Preliminary');
    fireEvent.click(screen.getByTestId('score-log-verify-button'));
    expect((await screen.findByTestId('score-log-verify-ok', {}, SLOW)).textContent).toContain('The chain is intact');
    expect(screen.getByTestId('score-log-export-jsonl').textContent).toContain('Export JSONL');
  });
});
