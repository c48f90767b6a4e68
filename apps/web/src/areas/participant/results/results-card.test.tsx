/** 评审结果 on /material-submission/detail, with mocked answers (docs/api-results.md, "Participant"). */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RESULTS_MSG, type MyAppeal, type MyResults, type MyRoundResult } from '@contest/shared';
import { api } from '../../../lib/api';
import type { CallConfig } from '../../../api';
import { directUnavailable, ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { mockGets, prelimFixture } from '../team/contest-fixtures';

const NOW = '2025-09-20T02:00:00.000Z';
const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();

function prelimResult(over: Partial<MyRoundResult> = {}): MyRoundResult {
  return {
    round: 'PRELIMINARY',
    published: true,
    version: 1,
    publishedAt: '2025-09-18T02:00:00.000Z',
    periodEndsAt: later(2 * 24 * HOUR + 7 * HOUR + 10 * 60_000),
    // Half a minute past the whole minutes: the countdown reads the clock a few ms after the answer.
    appealEndsAt: later(5 * HOUR + 20 * 60_000 + 30_000),
    inPeriod: true,
    appealOpen: true,
    newsId: 'news-1',
    entry: { projectId: 'doc-1', projectName: '医保基金智能审核', outcome: 'NOT_PROMOTED', awardName: null, rank: 12, trackRank: 4, score: 78.456 },
    appeal: null,
    canAppeal: true,
    appealBlocker: null,
    anchor: null,
    ...over,
  };
}

const unpublishedFinal: MyRoundResult = {
  round: 'FINAL',
  published: false,
  version: null,
  publishedAt: null,
  periodEndsAt: null,
  appealEndsAt: null,
  inPeriod: false,
  appealOpen: false,
  newsId: null,
  entry: null,
  appeal: null,
  canAppeal: false,
  appealBlocker: null,
  anchor: null,
};

const mine = (...rounds: MyRoundResult[]): MyResults => ({ now: NOW, rounds: [...rounds, unpublishedFinal] });

const appeal = (over: Partial<MyAppeal> = {}): MyAppeal => ({
  id: 'ap-1',
  round: 'PRELIMINARY',
  version: 1,
  status: 'SUBMITTED',
  reason: '评分与评审意见不符',
  attachments: [],
  reply: null,
  createdAt: '2025-09-19T02:00:00.000Z',
  decidedAt: null,
  dueAt: later(3 * 24 * HOUR),
  resolvedVersion: null,
  ...over,
});

function renderDetail(answers: MyResults | (() => MyResults)) {
  // The contest fixtures answer the page's other calls; /results/mine may change between reads.
  const get = mockGets({ '/prelim-doc/my': prelimFixture('APPROVED') }) as unknown as MockInstance<(url: string, config?: unknown) => Promise<unknown>>;
  const base = get.getMockImplementation()!;
  get.mockImplementation(async (url, config) => (url === '/results/mine' ? ok(typeof answers === 'function' ? answers() : answers) : base(url, config)));
  renderRoute('/material-submission/detail');
  return get;
}

const pieceUpload = (name: string) => ({ complete: true, uniqueNo: `U-${name}`, name, size: 10, filePath: `/api/attachment/stream/U-${name}` });

describe('评审结果 card', { timeout: 60_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  it('shows the outcome, rank and score, the countdowns on the server clock, and no card for an unpublished round', async () => {
    renderDetail(mine(prelimResult()));
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    expect(within(card).getByText('初赛评审结果')).toBeTruthy();
    expect(within(card).getByTestId('outcome-tag').textContent).toBe('未晋级决赛');
    expect(within(card).getByTestId('my-rank').textContent).toBe('第 12 名（赛道第 4 名）');
    expect(card.textContent).toContain('78.46');
    expect(within(card).getByTestId('period-countdown').textContent).toBe('剩余 2 天 7 小时');
    expect(within(card).getByTestId('appeal-countdown').textContent).toBe('剩余 5 小时 20 分钟');
    expect(within(card).getByTestId('appeal-open')).toBeTruthy();
    expect(screen.queryByTestId('result-card-FINAL')).toBeNull();
  });

  it('提出申诉: the reason is required and at most 1000 characters, at most 3 files; a refusal is shown and the card read again', async () => {
    let reads = 0;
    renderDetail(() => {
      reads += 1;
      return reads === 1 ? mine(prelimResult()) : mine(prelimResult({ canAppeal: false, appealOpen: false, appealBlocker: RESULTS_MSG.appealClosed }));
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string, _body: unknown, config?: CallConfig) => {
      if (url === '/attachment/piece/upload') return ok(pieceUpload(String((config?.params as Record<string, string>).name)));
      if (url === '/attachment/direct/start') throw directUnavailable();
      if (url === '/results/prelim/appeal') throw refused(RESULTS_MSG.appealClosed, { reason: 'CLOSED' });
      throw new Error(`unexpected POST ${url}`);
    });
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    fireEvent.click(within(card).getByTestId('appeal-open'));
    const dialog = await screen.findByTestId('appeal-dialog');
    const submit = within(dialog).getByRole('button', { name: '提交申诉' });

    fireEvent.click(submit);
    expect(await within(dialog).findByText(RESULTS_MSG.appealReasonRequired)).toBeTruthy();
    const reason = within(dialog).getByLabelText('申诉理由');
    fireEvent.change(reason, { target: { value: '长'.repeat(1001) } });
    expect(within(dialog).getByText('1001 / 1000')).toBeTruthy();
    fireEvent.click(submit);
    expect(await within(dialog).findByText(RESULTS_MSG.appealReasonTooLong)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(reason, { target: { value: '长'.repeat(1000) } });
    expect(within(dialog).getByText('1000 / 1000')).toBeTruthy();

    // Four files picked: three are stored, the fourth is refused by the uploader.
    const files = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'].map((n) => new File([new Uint8Array(10)], n, { lastModified: 1 }));
    await act(async () => {
      fireEvent.change(within(dialog).getByTestId('upload-input'), { target: { files } });
    });
    await waitFor(() => expect(within(dialog).getAllByRole('listitem').filter((r) => r.getAttribute('data-status') === 'ok')).toHaveLength(3));
    expect(within(dialog).getByText('d.pdf').closest('[role="listitem"]')!.getAttribute('data-status')).toBe('error_exceedUploadMaxNum');

    fireEvent.click(submit);
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/results/prelim/appeal', { reason: '长'.repeat(1000), attachments: ['U-a.pdf', 'U-b.pdf', 'U-c.pdf'] }, { silent: true }),
    );
    expect((await within(dialog).findByTestId('appeal-error')).textContent).toBe(RESULTS_MSG.appealClosed);
    // Read again: the window is over, the button is gone and the card says why.
    await waitFor(() => expect(within(card).queryByTestId('appeal-open')).toBeNull());
    expect(within(card).getByTestId('appeal-blocker').textContent).toBe(RESULTS_MSG.appealClosed);
  });

  it('an appeal filed is shown with its state; the reply once answered; ended periods say so and offer no button', async () => {
    renderDetail(
      mine(
        prelimResult({
          periodEndsAt: later(-HOUR),
          appealEndsAt: later(-2 * HOUR),
          inPeriod: false,
          appealOpen: false,
          canAppeal: false,
          appealBlocker: RESULTS_MSG.appealAlready,
          appeal: appeal({ status: 'REJECTED', reply: '经复核，评分无误。', decidedAt: '2025-09-19T08:00:00.000Z' }),
        }),
      ),
    );
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    expect(within(card).getByTestId('period-countdown').textContent).toBe('已结束');
    expect(within(card).getByTestId('appeal-status').textContent).toBe('已答复（驳回）');
    expect(within(card).getByTestId('appeal-reply').textContent).toContain('经复核，评分无误。');
    expect(within(card).queryByTestId('appeal-open')).toBeNull();
    // The team's own appeal explains itself: no second "already appealed" notice.
    expect(within(card).queryByTestId('appeal-blocker')).toBeNull();
  });

  it('存证回执: the published head and root are shown, and the receipt downloads as JSON; none without a head', async () => {
    const anchor = { seq: 42, headHash: 'a'.repeat(64), merkleRoot: 'b'.repeat(64) };
    const receipt = { format: 'contest-score-receipt', publication: { version: 1 }, merkle: { size: 42, root: anchor.merkleRoot }, entries: [] };
    const get = renderDetail(mine(prelimResult({ anchor })));
    const base = get.getMockImplementation()!;
    get.mockImplementation(async (url, config) => (url === '/results/prelim/receipt' ? ok(receipt) : base(url, config)));
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/receipt');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    const item = within(card).getByTestId('receipt');
    expect(item.textContent).toContain('第 42 条');
    expect(within(item).getByTestId('receipt-root').textContent).toContain('b'.repeat(64));
    fireEvent.click(within(item).getByTestId('receipt-download'));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(get.mock.calls.some(([url]) => url === '/results/prelim/receipt')).toBe(true);
    const blob = created.mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual(receipt);
  });

  it('no receipt button for a version published without a head', async () => {
    renderDetail(mine(prelimResult()));
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    expect(within(card).queryByTestId('receipt')).toBeNull();
  });

  it('a submitted appeal says by when the organisers answer', async () => {
    renderDetail(mine(prelimResult({ canAppeal: false, appealBlocker: RESULTS_MSG.appealAlready, appeal: appeal() })));
    const card = await screen.findByTestId('result-card-PRELIMINARY', {}, { timeout: 20_000 });
    expect(within(card).getByTestId('appeal-status').textContent).toBe('已提交，待处理');
    expect(within(card).getByTestId('appeal-note').textContent).toBe('组委会将于 2025-09-23 10:00（北京时间）前答复。');
    expect(within(card).queryByTestId('appeal-open')).toBeNull();
  });
});
