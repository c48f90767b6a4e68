/** The judge's phone page (docs/live-final.md, "Judges", "Offline and resends") with a fake server behind fetch. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_RUBRICS, isValidPoints, type LiveJudgeState, type LiveOwnSheet, type LiveScoreBody } from '@contest/shared';
import { changeLocale, initI18n } from '../../../i18n';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { answerConfirm } from '../../../test/confirm';
import { renderRoute } from '../../../test/render-route';
import { expert } from '../../../components/admin-kit/staff-fixtures';
import { PointsStepper } from './PointsStepper';

const SLOW = { timeout: 20_000 };
const SESSION = '00000000-0000-4000-8000-000000000001';
const PROJECT = '00000000-0000-4000-8000-000000000002';
const criteria = DEFAULT_RUBRICS.FINAL;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function judgeState(over: Partial<NonNullable<LiveJudgeState['current']>> = {}, at = '2026-11-29T08:00:00.000Z'): LiveJudgeState {
  return {
    session: { id: SESSION, name: '决赛第一场', venue: '报告厅', date: '2026-11-29', status: 'LIVE', presentationMinutes: 8, qaMinutes: 5, version: 3 },
    current: {
      projectId: PROJECT,
      order: 2,
      projectName: '医保智能审核',
      teamName: '智审团队',
      orgName: '某某大学',
      track: null,
      state: 'PRESENTING',
      timer: { phase: 'PRESENTATION', limitSeconds: 480, elapsedMs: 60_000, running: true, at },
      submitted: 0,
      expected: 3,
      judging: true,
      conflict: false,
      canScore: true,
      own: null,
      ...over,
    },
    criteria,
    serverTime: at,
  };
}

const submittedOwn = (scores: Record<string, number>, comment: string): LiveOwnSheet => ({
  status: 'SUBMITTED',
  scores,
  comment,
  total: Object.values(scores).reduce((a, b) => a + b, 0),
  returnReason: null,
  submittedAt: '2026-11-29T08:05:00.000Z',
});

type PostAnswer = (body: LiveScoreBody) => Promise<Response> | Response;

/** The fake server: the judge's stream (the test pushes states) and the submit. */
function fakeServer(first: LiveJudgeState, post: PostAnswer) {
  localStorage.setItem('ExpertToken', 'expert-token');
  vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(expert());
    if (url === `/expert/live/sessions/${SESSION}`) return ok(first);
    if (url === '/messages') return ok({ total: 0, list: [] });
    throw new Error(`unexpected GET ${url}`);
  });
  const enc = new TextEncoder();
  let push: (state: LiveJudgeState) => void = () => {};
  const posts: LiveScoreBody[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === `/api/expert/live/sessions/${SESSION}/events`) {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          push = (state) => c.enqueue(enc.encode(`event: state\ndata: ${JSON.stringify(state)}\n\n`));
          push(first);
        },
      });
      return new Response(body, { status: 200 });
    }
    if (url === `/api/expert/live/sessions/${SESSION}/projects/${PROJECT}/score` && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as LiveScoreBody;
      posts.push(body);
      return post(body);
    }
    throw new Error(`unexpected fetch ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { posts, push: (s: LiveJudgeState) => push(s) };
}

const answer = (data: unknown, status = 200, message = '', reason?: string) =>
  new Response(JSON.stringify({ status, code: status === 200 ? 'OK' : 'BAD_REQUEST', message, data: reason ? { reason } : data }), { status: 200 });

const SCORES = { innovation: 18, feasibility: 17.5, value: 22, completeness: 13, defense: 18.5 };

async function fillAndSubmit(scores: Record<string, number> = SCORES, comment = '陈述清晰') {
  await screen.findByTestId('score-form', {}, SLOW);
  for (const [key, value] of Object.entries(scores)) {
    fireEvent.change(screen.getByTestId(`points-live-${key}`), { target: { value: String(value) } });
  }
  fireEvent.change(screen.getByLabelText('评语'), { target: { value: comment } });
  fireEvent.click(screen.getByTestId('submit-score'));
  await answerConfirm(/提交后不能修改/, '提交');
}

describe('live judge page', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the project on stage and submits with a key; then the sheet is locked', async () => {
    const server = fakeServer(judgeState(), (body) =>
      answer({ duplicate: false, state: judgeState({ canScore: false, submitted: 1, own: submittedOwn(body.scores, body.comment) }, '2026-11-29T08:05:00.000Z') }),
    );
    renderRoute(`/expert/live/${SESSION}`);
    const project = await screen.findByTestId('judge-project', {}, SLOW);
    expect(project.textContent).toContain('医保智能审核');
    expect(project.textContent).toContain('智审团队');
    expect(project.textContent).toContain('某某大学');
    // The final rubric from the state, 现场答辩 included.
    expect(await screen.findByText('现场答辩', {}, SLOW)).toBeTruthy();
    // The stepper moves in 0.5 steps.
    fireEvent.click(screen.getByRole('button', { name: '现场答辩 加 0.5 分' }));
    fireEvent.click(screen.getByRole('button', { name: '现场答辩 加 0.5 分' }));
    expect((screen.getByTestId('points-live-defense') as HTMLSelectElement).value).toBe('0.5');

    await fillAndSubmit();
    await waitFor(() => expect(server.posts).toHaveLength(1));
    expect(server.posts[0]).toMatchObject({ scores: SCORES, comment: '陈述清晰' });
    expect(server.posts[0]!.key).toMatch(UUID);
    const locked = await screen.findByTestId('locked', {}, SLOW);
    expect(within(locked).getByTestId('own-total').textContent).toContain('89');
    expect(screen.queryByTestId('score-form')).toBeNull();
    expect(screen.queryByTestId('submit-score')).toBeNull();
    // Nothing left on the device once answered.
    expect(localStorage.getItem(`live-score:${SESSION}:${PROJECT}`)).toBeNull();
  });

  it('a failed send keeps the score and resends the same key; a duplicate answer is success', async () => {
    let calls = 0;
    const server = fakeServer(judgeState(), (body) => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return answer({ duplicate: true, state: judgeState({ canScore: false, own: submittedOwn(body.scores, body.comment) }, '2026-11-29T08:05:00.000Z') });
    });
    renderRoute(`/expert/live/${SESSION}`);
    await fillAndSubmit();
    const status = await screen.findByTestId('send-status', {}, SLOW);
    await waitFor(() => expect(status.dataset.status).toBe('pending'));
    expect(status.textContent).toContain('未发送，网络恢复后自动发送');
    const stored = JSON.parse(localStorage.getItem(`live-score:${SESSION}:${PROJECT}`)!) as { key: string; scores: object };
    expect(stored.scores).toEqual(SCORES);
    expect(stored.key).toMatch(UUID);
    // The network is back.
    window.dispatchEvent(new Event('online'));
    await screen.findByTestId('locked', {}, SLOW);
    expect(server.posts).toHaveLength(2);
    expect(server.posts[1]!.key).toBe(server.posts[0]!.key);
    expect(localStorage.getItem(`live-score:${SESSION}:${PROJECT}`)).toBeNull();
  });

  it('a score on its way survives a reload and is sent with its key', async () => {
    localStorage.setItem(`live-score:${SESSION}:${PROJECT}`, JSON.stringify({ scores: SCORES, comment: '好', key: '11111111-2222-4333-8444-555555555555' }));
    const server = fakeServer(judgeState(), (body) =>
      answer({ duplicate: false, state: judgeState({ canScore: false, own: submittedOwn(body.scores, body.comment) }, '2026-11-29T08:05:00.000Z') }),
    );
    renderRoute(`/expert/live/${SESSION}`);
    await screen.findByTestId('locked', {}, SLOW);
    expect(server.posts).toEqual([{ scores: SCORES, comment: '好', key: '11111111-2222-4333-8444-555555555555' }]);
  });

  it('the stream saying "submitted" before the POST answers does not send the score again', async () => {
    let answerPost: (r: Response) => void = () => {};
    const server = fakeServer(judgeState(), () => new Promise<Response>((resolve) => (answerPost = resolve)));
    renderRoute(`/expert/live/${SESSION}`);
    await fillAndSubmit();
    await waitFor(() => expect(server.posts).toHaveLength(1), SLOW);
    const body = server.posts[0]!;
    const done = judgeState({ canScore: false, own: submittedOwn(body.scores, body.comment) }, '2026-11-29T08:05:00.000Z');
    // The news comes first (the sheet is remounted for the new status), then the POST's answer.
    server.push(done);
    await screen.findByTestId('locked', {}, SLOW);
    // The remounted sheet would resend at mount: by the time the stored score is gone (the
    // remount clears it), a resend would already be in `posts`.
    await waitFor(() => expect(localStorage.getItem(`live-score:${SESSION}:${PROJECT}`)).toBeNull(), SLOW);
    expect(server.posts).toHaveLength(1);
    answerPost(answer({ duplicate: false, state: done }));
  });

  it('a filled-in score is kept on the device across a reload', async () => {
    localStorage.setItem(`live-score:${SESSION}:${PROJECT}`, JSON.stringify({ scores: { innovation: 12.5 }, comment: '草稿', key: null }));
    fakeServer(judgeState(), () => answer(null, 400, '该项目当前不在评分中', 'NOT_SCORING'));
    renderRoute(`/expert/live/${SESSION}`);
    await screen.findByTestId('score-form', {}, SLOW);
    expect((screen.getByTestId('points-live-innovation') as HTMLSelectElement).value).toBe('12.5');
    expect((screen.getByLabelText('评语') as HTMLTextAreaElement).value).toBe('草稿');
  });

  it('a submitted sheet is locked: only the own sheet, no form', async () => {
    fakeServer(judgeState({ canScore: false, submitted: 2, own: submittedOwn(SCORES, '已评') }), () => answer(null, 400, '评分已提交，不能修改', 'NOT_ALLOWED'));
    renderRoute(`/expert/live/${SESSION}`);
    const locked = await screen.findByTestId('locked', {}, SLOW);
    expect(locked.textContent).toContain('评分已提交，不能修改');
    expect(within(locked).getByTestId('own-defense').textContent).toContain('18.5');
    expect(screen.queryByTestId('submit-score')).toBeNull();
  });

  it('a returned sheet shows the reason and takes a new submit with a new key', async () => {
    const oldKey = '11111111-2222-4333-8444-555555555555';
    const returned: LiveOwnSheet = { ...submittedOwn(SCORES, '已评'), status: 'RETURNED', returnReason: '现场答辩分数有误', submittedAt: null };
    const server = fakeServer(judgeState({ own: returned }), (body) =>
      answer({ duplicate: false, state: judgeState({ canScore: false, own: submittedOwn(body.scores, body.comment) }, '2026-11-29T08:06:00.000Z') }),
    );
    renderRoute(`/expert/live/${SESSION}`);
    const alert = await screen.findByTestId('returned', {}, SLOW);
    expect(alert.textContent).toContain('现场答辩分数有误');
    // The form starts from the returned sheet.
    expect((screen.getByTestId('points-live-defense') as HTMLSelectElement).value).toBe('18.5');
    fireEvent.change(screen.getByTestId('points-live-defense'), { target: { value: '15' } });
    fireEvent.click(screen.getByTestId('submit-score'));
    await answerConfirm(/提交后不能修改/, '提交');
    await screen.findByTestId('locked', {}, SLOW);
    expect(server.posts).toHaveLength(1);
    expect(server.posts[0]!.scores.defense).toBe(15);
    expect(server.posts[0]!.key).toMatch(UUID);
    expect(server.posts[0]!.key).not.toBe(oldKey);
  });

  it('scoring not open: the form is disabled; a refusal is shown and the values kept', async () => {
    const server = fakeServer(judgeState({ state: 'WAITING', canScore: false, timer: null }), () => answer(null, 400, '该项目当前不在评分中', 'NOT_SCORING'));
    renderRoute(`/expert/live/${SESSION}`);
    await screen.findByTestId('scoring-closed', {}, SLOW);
    expect((screen.getByTestId('submit-score') as HTMLButtonElement).disabled).toBe(true);
    // The chair starts: the stream opens scoring.
    server.push(judgeState({}, '2026-11-29T08:01:00.000Z'));
    await waitFor(() => expect((screen.getByTestId('submit-score') as HTMLButtonElement).disabled).toBe(false), SLOW);
    await fillAndSubmit();
    const refusal = await screen.findByTestId('refused', {}, SLOW);
    expect(refusal.textContent).toContain('该项目当前不在评分中');
    expect((screen.getByTestId('points-live-value') as HTMLSelectElement).value).toBe('22');
    const stored = JSON.parse(localStorage.getItem(`live-score:${SESSION}:${PROJECT}`)!) as { key: string | null };
    expect(stored.key).toBeNull();
  });

  it('a judge in conflict sees no form', async () => {
    fakeServer(judgeState({ judging: false, conflict: true, canScore: false }), () => answer(null));
    renderRoute(`/expert/live/${SESSION}`);
    expect((await screen.findByTestId('judge-conflict', {}, SLOW)).textContent).toContain('利益冲突');
    expect(screen.queryByTestId('score-form')).toBeNull();
  });
});

describe('the points stepper near a maximum that is no multiple of 0.5', () => {
  beforeAll(() => {
    initI18n();
    changeLocale('zh-cn');
  });

  /** The stepper as the page holds it: the value in state; `seen` records every value set. */
  function Held({ max, start, seen }: { max: number; start?: number; seen: Array<number | undefined> }) {
    const [value, setValue] = useState<number | undefined>(start);
    return (
      <PointsStepper
        id="c"
        name="答辩"
        max={max}
        value={value}
        disabled={false}
        onChange={(v) => {
          seen.push(v);
          setValue(v);
        }}
      />
    );
  }
  const select = () => screen.getByTestId('points-c') as HTMLSelectElement;
  const plus = () => screen.getByRole('button', { name: '答辩 加 0.5 分' }) as HTMLButtonElement;
  const minus = () => screen.getByRole('button', { name: '答辩 减 0.5 分' }) as HTMLButtonElement;

  it('max 7.3: the list ends ..., 6.5, 7 (every choice one the server takes); + stops at 7, never past the max', () => {
    const seen: Array<number | undefined> = [];
    render(<Held max={7.3} start={6} seen={seen} />);
    const options = [...select().options].map((o) => o.value).filter((v) => v !== '');
    expect(options.slice(-3)).toEqual(['6', '6.5', '7']);
    expect(options.every((v) => isValidPoints(Number(v), 7.3))).toBe(true);
    fireEvent.click(plus());
    fireEvent.click(plus());
    expect(select().value).toBe('7');
    expect(plus().disabled).toBe(true);
    fireEvent.click(plus());
    expect(seen).toEqual([6.5, 7]);
    fireEvent.click(minus());
    expect(select().value).toBe('6.5');
  });

  it('from empty, − starts at the top (7 for a max of 7.3), + at 0', () => {
    const seen: Array<number | undefined> = [];
    render(<Held max={7.3} seen={seen} />);
    fireEvent.click(minus());
    expect(select().value).toBe('7');
    fireEvent.change(select(), { target: { value: '' } });
    fireEvent.click(plus());
    expect(select().value).toBe('0');
    expect(minus().disabled).toBe(true);
    expect(seen).toEqual([7, undefined, 0]);
  });

  it('max 10: 9.5, then the max itself is taken, and no further', () => {
    const seen: Array<number | undefined> = [];
    render(<Held max={10} start={9.5} seen={seen} />);
    expect([...select().options].at(-1)!.value).toBe('10');
    fireEvent.click(plus());
    expect(select().value).toBe('10');
    expect(plus().disabled).toBe(true);
    fireEvent.click(plus());
    expect(seen).toEqual([10]);
    // Chosen in the list too.
    fireEvent.change(select(), { target: { value: '9.5' } });
    fireEvent.change(select(), { target: { value: '10' } });
    expect(seen.at(-1)).toBe(10);
  });
});

describe('the 现场答辩 menu entry', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  const row = { id: SESSION, name: '决赛第一场', venue: '报告厅', date: '2026-11-29', status: 'LIVE' as const };
  function mockSessions(rows: (typeof row)[]) {
    localStorage.setItem('ExpertToken', 'expert-token');
    vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/admin/user/account') return ok(expert());
      if (url === '/expert/live/sessions') return ok(rows);
      if (url === '/messages') return ok({ total: 0, list: [] });
      throw new Error(`unexpected GET ${url}`);
    });
  }

  it('is in the menu, and selected on the sessions page, when the expert judges a session', async () => {
    mockSessions([row]);
    renderRoute('/expert/live');
    await screen.findByTestId('live-session', {}, SLOW);
    const menu = screen.getByTestId('console-menu');
    const entry = await within(menu).findByText('现场答辩', {}, SLOW);
    expect(entry.closest('[data-menu-code]')?.getAttribute('data-menu-code')).toBe('expertLive');
    expect(entry.closest('li')?.className).toContain('ant-menu-item-selected');
  });

  it('is not in the menu without a session', async () => {
    mockSessions([]);
    renderRoute('/expert/live');
    await screen.findByTestId('live-sessions-empty', {}, SLOW);
    expect(within(screen.getByTestId('console-menu')).queryByText('现场答辩')).toBeNull();
  });
});
