/** 我的证书 on /material-submission/detail, with mocked answers (docs/certificates.md, "Web pages"). */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MyCertificate, MyResults, MyRoundResult } from '@contest/shared';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { mockGets, prelimFixture } from '../team/contest-fixtures';

const SLOW = { timeout: 20_000 };

const final = (published: boolean): MyRoundResult => ({
  round: 'FINAL',
  published,
  version: published ? 1 : null,
  publishedAt: published ? '2026-07-01T02:00:00.000Z' : null,
  periodEndsAt: published ? '2026-07-06T02:00:00.000Z' : null,
  appealEndsAt: null,
  inPeriod: false,
  appealOpen: false,
  newsId: null,
  entry: published ? { projectId: 'doc-1', projectName: '医保基金智能审核', outcome: 'AWARDED', awardName: '一等奖', rank: 1, trackRank: null, score: 92 } : null,
  appeal: null,
  canAppeal: false,
  appealBlocker: null,
  anchor: null,
});

const results = (published: boolean): MyResults => ({ now: '2026-07-10T02:00:00.000Z', rounds: [final(published)] });

const certificate = (over: Partial<MyCertificate> = {}): MyCertificate => ({
  id: 'c1',
  serial: '2026-7K3Q-9XWD-M2PA-RT0V',
  kind: 'AWARD',
  round: 'FINAL',
  status: 'VALID',
  holderName: '智慧医保队',
  projectName: '医保基金智能审核',
  award: '一等奖',
  resultVersion: 1,
  issuedAt: '2026-07-08T02:00:00.000Z',
  successorSerial: null,
  downloadPath: '/api/certificates/c1/pdf',
  verifyPath: '/verify/2026-7K3Q-9XWD-M2PA-RT0V',
  ...over,
});

function renderDetail(mine: MyResults, certificates: MyCertificate[] | Error | (() => MyCertificate[] | Error), search = '') {
  const get = mockGets({ '/prelim-doc/my': prelimFixture('APPROVED'), '/results/mine': mine }) as unknown as MockInstance<(url: string, config?: unknown) => Promise<unknown>>;
  const base = get.getMockImplementation()!;
  get.mockImplementation(async (url: string, config?: unknown) => {
    if (url === '/certificates/mine') {
      const answer = typeof certificates === 'function' ? certificates() : certificates;
      if (answer instanceof Error) throw answer;
      return ok(answer);
    }
    if (url === '/certificates/c1/pdf') return { blob: new Blob(['%PDF']), fileName: '证书.pdf' };
    return base(url, config);
  });
  renderRoute('/material-submission/detail', { search });
  return get;
}

describe('我的证书', { timeout: 60_000 }, () => {
  beforeEach(() => {
    localStorage.setItem('AccessToken', 'token-1');
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('lists the team certificates with kind, award, status and issue date; the PDF downloads through the API', async () => {
    const get = renderDetail(results(true), [
      certificate(),
      certificate({ id: 'c0', serial: '2026-AAAA-BBBB-CCCC-DDDD', kind: 'PARTICIPATION', award: null, status: 'SUPERSEDED', successorSerial: '2026-7K3Q-9XWD-M2PA-RT0V' }),
    ]);
    const card = await screen.findByTestId('my-certificates-card', {}, SLOW);
    expect(within(card).getByText('我的证书')).toBeTruthy();
    const items = await within(card).findAllByTestId('my-certificate');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('获奖证书 · 一等奖');
    expect(items[0]!.textContent).toContain('有效');
    expect(items[0]!.textContent).toContain('2026-07-08');
    expect(items[1]!.textContent).toContain('参赛证书');
    expect(items[1]!.textContent).toContain('已被新版本取代');
    expect(items[1]!.textContent).toContain('已由新证书 2026-7K3Q-9XWD-M2PA-RT0V 取代');
    expect(within(items[0]!).getByRole('link', { name: /验证页/ }).getAttribute('href')).toBe('/verify/2026-7K3Q-9XWD-M2PA-RT0V');

    fireEvent.click(within(items[0]!).getByTestId('my-certificate-download'));
    await waitFor(() => expect(get.mock.calls.some(([u, c]) => u === '/certificates/c1/pdf' && (c as { responseType?: string }).responseType === 'blob')).toBe(true));
  });

  it('says nothing is issued yet once a result is published', async () => {
    renderDetail(results(true), []);
    const card = await screen.findByTestId('my-certificates-card', {}, SLOW);
    expect((await within(card).findByTestId('my-certificates-empty')).textContent).toContain('证书尚未颁发');
  });

  it('stays away before any result is published and nothing is held', async () => {
    const get = renderDetail(results(false), []);
    await waitFor(() => expect(get.mock.calls.some(([u]) => u === '/certificates/mine')).toBe(true), SLOW);
    await screen.findAllByText('医保基金智能审核', {}, SLOW);
    // Wait for the list's own answer and the render it causes: the card would be drawn by then.
    const call = get.mock.calls.findIndex(([u]) => u === '/certificates/mine');
    await act(async () => {
      await get.mock.results[call]!.value;
    });
    expect(screen.queryByTestId('my-certificates-card')).toBeNull();
  });

  it('a failed list offers a retry', async () => {
    let fail = true;
    renderDetail(results(true), () => (fail ? refused('服务繁忙', null, 500) : [certificate()]));
    const failed = await screen.findByTestId('my-certificates-failed', {}, SLOW);
    fail = false;
    fireEvent.click(within(failed).getByRole('button'));
    expect(await screen.findByTestId('my-certificate', {}, SLOW)).toBeTruthy();
  });

  it('speaks English on English pages', async () => {
    renderDetail(results(true), [certificate({ status: 'REVOKED' })], '?lang=en');
    const card = await screen.findByTestId('my-certificates-card', {}, SLOW);
    expect(within(card).getByText('My certificates')).toBeTruthy();
    const item = await within(card).findByTestId('my-certificate');
    expect(item.textContent).toContain('Award certificate · 一等奖');
    expect(within(item).getByTestId('certificate-status').textContent).toBe('Revoked');
    expect(within(item).getByTestId('my-certificate-download').textContent).toContain('Download PDF');
  });
});
