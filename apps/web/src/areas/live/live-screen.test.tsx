/** The big screen (docs/live-final.md, "Big screen and display links", "Sealing") with a fake stream behind fetch. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { LiveDisplayState, LiveStageProject } from '@contest/shared';
import { renderRoute } from '../../test/render-route';

const SLOW = { timeout: 20_000 };
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function displayState(current: Partial<LiveStageProject> | null, over: Partial<LiveDisplayState> = {}): LiveDisplayState {
  return {
    session: { id: 's1', name: '决赛第一场', venue: '报告厅', date: '2026-11-29', status: 'LIVE', presentationMinutes: 8, qaMinutes: 5, version: 4 },
    current: current && {
      projectId: 'p2',
      order: 2,
      projectName: '医保智能审核',
      teamName: '智审团队',
      orgName: '某某大学',
      track: null,
      state: 'SCORING',
      timer: null,
      submitted: 2,
      expected: 3,
      result: null,
      ...current,
    },
    next: { projectId: 'p3', projectName: '基金监管平台', teamName: '监管队' },
    ranking: [{ rank: 1, projectId: 'p1', projectName: '医保便民服务', teamName: '便民队', orgName: '甲单位', score: 88.25 }],
    rule: 'TRIMMED_MEAN',
    serverTime: '2026-11-29T08:00:00.000Z',
    ...over,
  };
}

/** The display stream: the first state, then whatever the test pushes (or `gone`). */
function fakeStream(first: LiveDisplayState | { status: number; message: string }) {
  const enc = new TextEncoder();
  let write: (text: string) => void = () => {};
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if ('status' in first && typeof first.status === 'number') {
      return new Response(JSON.stringify({ status: first.status, code: 'NOT_FOUND', message: first.message, data: { reason: 'REVOKED' } }), { status: 404 });
    }
    if (url === `/api/live/display/${TOKEN}/events`) {
      return new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            write = (text) => c.enqueue(enc.encode(text));
            write(`event: state\ndata: ${JSON.stringify(first)}\n\n`);
          },
        }),
        { status: 200 },
      );
    }
    if (url === `/api/live/display/${TOKEN}`) return new Response(JSON.stringify({ status: 200, code: 'OK', message: '', data: first }));
    throw new Error(`unexpected fetch ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    push: (state: LiveDisplayState) => write(`event: state\ndata: ${JSON.stringify(state)}\n\n`),
    gone: () => write(`event: gone\ndata: ${JSON.stringify({ reason: 'REVOKED', message: '大屏链接无效或已撤销' })}\n\n`),
    fetchMock,
  };
}

describe('live big screen', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('while scoring shows only the count, never a judge mark, even if a snapshot carried one', async () => {
    // A snapshot with more than the display shape (as a chair's would have): the screen must not show it.
    const leaky = displayState({ state: 'SCORING' }) as LiveDisplayState & { current: { judges: unknown[] } };
    (leaky.current as unknown as { judges: unknown[] }).judges = [{ expertId: 'e1', name: '王评委', status: 'SUBMITTED', total: 77.5 }];
    fakeStream(leaky);
    renderRoute(`/live/${TOKEN}`);
    expect((await screen.findByTestId('screen-progress', {}, SLOW)).textContent).toContain('已提交 2/3');
    expect(screen.getByTestId('screen-session').textContent).toBe('决赛第一场');
    expect(screen.getByTestId('screen-project').textContent).toBe('医保智能审核');
    const page = screen.getByTestId('live-screen').textContent ?? '';
    expect(page).not.toContain('王评委');
    expect(page).not.toContain('77.5');
    expect(screen.queryByTestId('screen-score')).toBeNull();
    // The ranking of revealed projects and who is next.
    expect(screen.getByTestId('screen-ranking').textContent).toContain('88.25');
    expect(screen.getByTestId('screen-next').textContent).toContain('基金监管平台');
  });

  it('the reveal shows the project score by the rule and its rank', async () => {
    const stream = fakeStream(displayState({ state: 'CLOSED' }));
    renderRoute(`/live/${TOKEN}`);
    await screen.findByTestId('screen-closed', {}, SLOW);
    stream.push(
      displayState(
        { state: 'REVEALED', result: { score: 90.5, rank: 1 } },
        {
          serverTime: '2026-11-29T08:01:00.000Z',
          ranking: [
            { rank: 1, projectId: 'p2', projectName: '医保智能审核', teamName: '智审团队', orgName: '某某大学', score: 90.5 },
            { rank: 2, projectId: 'p1', projectName: '医保便民服务', teamName: '便民队', orgName: '甲单位', score: 88.25 },
          ],
        },
      ),
    );
    expect((await screen.findByTestId('screen-score', {}, SLOW)).textContent).toBe('90.50');
    expect(screen.getByTestId('screen-result').textContent).toContain('本场第 1 名');
    expect(screen.getAllByTestId('ranking-row')).toHaveLength(2);
  });

  it('the timer shows the phase and mm:ss, red when over', async () => {
    fakeStream(
      displayState({
        state: 'QA',
        timer: { phase: 'QA', limitSeconds: 300, elapsedMs: 305_000, running: false, at: '2026-11-29T08:00:00.000Z' },
      }),
    );
    renderRoute(`/live/${TOKEN}`);
    const timer = await screen.findByTestId('screen-timer', {}, SLOW);
    expect(timer.textContent).toContain('提问');
    expect(timer.textContent).toContain('+00:05');
    expect(timer.dataset.overtime).toBe('true');
  });

  it('a revoked link says so full screen', async () => {
    fakeStream({ status: 404, message: '大屏链接无效或已撤销' });
    renderRoute(`/live/${TOKEN}`);
    const message = await screen.findByTestId('screen-revoked', {}, SLOW);
    expect(message.textContent).toContain('大屏链接无效或已撤销');
  });

  it('a link revoked while open (gone) ends the stream with the message', async () => {
    const stream = fakeStream(displayState({ state: 'PRESENTING' }));
    renderRoute(`/live/${TOKEN}`);
    await screen.findByTestId('screen-stage', {}, SLOW);
    // The fake clock from before the gone: a reconnect would be a timer of it, and running the
    // clock past the longest backoff (10 s) proves there is none, without waiting for real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    stream.gone();
    await vi.waitFor(() => expect(screen.getByTestId('screen-revoked')).toBeTruthy(), { timeout: 20_000, interval: 50 });
    await vi.advanceTimersByTimeAsync(30_000);
    // No reconnect after gone.
    expect(stream.fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/events'))).toHaveLength(1);
  });

  it('follows ?theme= and toggles; English with ?lang=en', async () => {
    fakeStream(displayState({ state: 'SCORING' }));
    renderRoute(`/live/${TOKEN}?theme=light`, { search: '?lang=en' });
    const root = await screen.findByTestId('live-screen', {}, SLOW);
    expect(root.dataset.theme).toBe('light');
    expect((await screen.findByTestId('screen-progress', {}, SLOW)).textContent).toContain('Submitted 2/3');
    fireEvent.click(screen.getByTestId('screen-theme'));
    await waitFor(() => expect(screen.getByTestId('live-screen').dataset.theme).toBe('dark'));
  });
});
