import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONTEST_MSG, VALIDATION_MSG, type ContestPublic, type PhaseState, type PhaseWindow, type TeamStatus } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { VALID_CREDIT_CODE, mockGets, teamBrief, teamFixture } from './contest-fixtures';
import { mySignLoader } from './team-loader';

function explainOf(input: HTMLElement): string {
  return input.closest('.ant-form-item')?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

function field(label: RegExp | string, scope: HTMLElement = document.body): HTMLElement {
  return within(scope).getByLabelText(label);
}

function type(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

async function confirmDialog() {
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getByRole('button', { name: /确\s*认/ }));
}

describe('/my-sign loader', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each<[TeamStatus | null, boolean]>([
    [null, true],
    ['DRAFT', true],
    ['REVISING', true],
    ['SUBMITTED', false],
    ['APPROVED', false],
    ['REJECTED', false],
  ])('team status %s -> form allowed: %s', async (status, allowed) => {
    vi.spyOn(api, 'get').mockResolvedValue(ok(teamBrief(status)));
    const result = await mySignLoader();
    if (allowed) {
      expect(result).toMatchObject({ teamStatus: status });
    } else {
      expect(result).toBeInstanceOf(Response);
      expect((result as Response).headers.get('Location')).toBe('/my-sign/detail');
    }
  });

  it('sends a 401 to / (the client has opened the login dialog)', async () => {
    vi.spyOn(api, 'get').mockRejectedValue(refused('请先登录', null, 401));
    const result = await mySignLoader();
    expect((result as Response).headers.get('Location')).toBe('/');
  });
});

describe('/my-sign form', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  it('redirects to the detail when the team is no longer editable', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('SUBMITTED') });
    const { router } = renderRoute('/my-sign');
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign/detail'));
    expect(await screen.findByTestId('sign-detail')).toBeTruthy();
  });

  it('refuses an empty submit with the schema messages, leader phone/email formats included', async () => {
    mockGets({ '/team/my-brief': teamBrief(null), '/team/my': null });
    const post = vi.spyOn(api, 'post');
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    type(field('手机号', screen.getAllByText('团队负责人')[0]!.closest('.ant-card')! as HTMLElement), '123');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(explainOf(field('单位名称'))).toBe(CONTEST_MSG.orgNameRequired));
    const leader = screen.getByText('团队负责人').closest('.ant-card') as HTMLElement;
    expect(explainOf(field('手机号', leader))).toBe(VALIDATION_MSG.phoneLength);
    expect(explainOf(field('邮箱', leader))).toBe(VALIDATION_MSG.emailRequired);
    expect(explainOf(field('姓名', screen.getByTestId('member-row')))).toBe(CONTEST_MSG.memberNameRequired);
    expect(screen.getByText(CONTEST_MSG.certificateRequired)).toBeTruthy();
    expect(screen.getByText(CONTEST_MSG.commitmentRequired)).toBeTruthy();
    type(field('邮箱', leader), 'not-an-email');
    await waitFor(() => expect(explainOf(field('邮箱', leader))).toBe(VALIDATION_MSG.emailFormat));
    type(field('手机号', leader), '12345678901');
    await waitFor(() => expect(explainOf(field('手机号', leader))).toBe(VALIDATION_MSG.phoneFormat));
    expect(post).not.toHaveBeenCalled();
  });

  it('checks the credit code of an enterprise: required, 18 characters, checksum', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT', { creditCode: '' }) });
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    const code = field('统一社会信用代码');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(explainOf(code)).toBe(CONTEST_MSG.creditCodeRequired));
    type(code, '91350100M0001');
    await waitFor(() => expect(explainOf(code)).toBe(CONTEST_MSG.creditCodeLength));
    type(code, '91350100m000100y44');
    await waitFor(() => expect(explainOf(code)).toBe(CONTEST_MSG.creditCodeInvalid));
    // Typed in lower case, stored upper case: the checksum holds.
    type(code, VALID_CREDIT_CODE.toLowerCase());
    await waitFor(() => expect(explainOf(code)).not.toContain('统一社会信用代码'));
    expect((code as HTMLInputElement).value).toBe(VALID_CREDIT_CODE);
  });

  it('keeps between 1 and 9 members', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT') });
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    expect(screen.getAllByTestId('member-row')).toHaveLength(1);
    expect((screen.getByTestId('remove-member') as HTMLButtonElement).disabled).toBe(true);
    for (let i = 0; i < 8; i++) fireEvent.click(screen.getByTestId('add-member'));
    await waitFor(() => expect(screen.getAllByTestId('member-row')).toHaveLength(9));
    expect((screen.getByTestId('add-member') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('member-count').textContent).toContain('9');
    fireEvent.click(screen.getAllByTestId('remove-member')[8]!);
    await waitFor(() => expect(screen.getAllByTestId('member-row')).toHaveLength(8));
    expect((screen.getByTestId('add-member') as HTMLButtonElement).disabled).toBe(false);
  });

  describe('outside the sign-up window', () => {
    const schedule = (state: PhaseState, window: PhaseWindow): ContestPublic => ({
      name: '2026全国智慧医保大赛',
      now: '2026-06-10T00:00:00.000Z',
      currentPhase: null,
      phases: [
        { key: 'signUp', name: '报名', window, state },
        { key: 'prelimSubmission', name: '初赛材料提交', window: null, state: 'UNSCHEDULED' },
        { key: 'prelimReview', name: '初赛评审', window: null, state: 'UNSCHEDULED' },
        { key: 'finalReview', name: '决赛评审', window: null, state: 'UNSCHEDULED' },
      ],
    });
    const closedBrief = { ...teamBrief('DRAFT'), signUpOpen: false };

    it('shows the draft read-only, says sign-up has ended and offers no buttons', async () => {
      mockGets({
        '/team/my-brief': closedBrief,
        '/team/my': teamFixture('DRAFT'),
        '/contest/public': schedule('ENDED', { start: '2026-04-30T16:00:00.000Z', end: '2026-05-31T15:59:59.000Z' }),
      });
      renderRoute('/my-sign');
      const form = await screen.findByTestId('sign-form');
      expect(await screen.findByText('报名已截止，报名信息仅供查看，不能再修改或提交。')).toBeTruthy();
      expect((field('单位名称') as HTMLInputElement).disabled).toBe(true);
      expect((field('团队名称') as HTMLInputElement).disabled).toBe(true);
      expect((screen.getByTestId('add-member') as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getAllByTestId('remove-member').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
      expect(within(form).queryByTestId('save-draft')).toBeNull();
      expect(within(form).queryByTestId('submit')).toBeNull();
    });

    it('says when a sign-up that has not begun opens', async () => {
      mockGets({
        '/team/my-brief': closedBrief,
        '/team/my': null,
        '/contest/public': schedule('NOT_STARTED', { start: '2026-06-30T16:00:00.000Z', end: null }),
      });
      renderRoute('/my-sign');
      await screen.findByTestId('sign-form');
      expect(await screen.findByText('报名尚未开始，将于 2026-07-01 00:00（北京时间）开放。届时可填写、保存和提交报名信息。')).toBeTruthy();
      expect((field('单位名称') as HTMLInputElement).disabled).toBe(true);
      expect(screen.queryByTestId('submit')).toBeNull();
    });

    it('keeps the form editable, with its buttons, while sign-up is open', async () => {
      mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT') });
      renderRoute('/my-sign');
      await screen.findByTestId('sign-form');
      expect((field('单位名称') as HTMLInputElement).disabled).toBe(false);
      expect((screen.getByTestId('save-draft') as HTMLButtonElement).disabled).toBe(false);
      expect((screen.getByTestId('submit') as HTMLButtonElement).disabled).toBe(false);
      expect(screen.queryByText('当前不在报名时间内，暂不能保存或提交。')).toBeNull();
    });
  });

  it('saves an incomplete draft with the lenient rules and sends uploads as uniqueNo', async () => {
    mockGets({ '/team/my-brief': teamBrief(null), '/team/my': null });
    const put = vi.spyOn(api, 'put').mockImplementation(async (_url, body) => ok({ ...teamFixture('DRAFT'), ...(body as object) }));
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    type(field('单位名称'), '福州数字医保研究院');
    fireEvent.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    const [url, body, config] = put.mock.calls[0]!;
    expect(url).toBe('/team/my');
    expect(body).toMatchObject({ orgName: '福州数字医保研究院', certificate: null, members: [expect.objectContaining({ name: '' })] });
    expect(config).toMatchObject({ silent: true });
    expect(await screen.findByText(CONTEST_MSG.draftSaved)).toBeTruthy();
    // Required-field messages belong to submit, not to a draft.
    expect(screen.queryByText(CONTEST_MSG.teamNameRequired)).toBeNull();
  });

  it('shows the server refusal above the form and under its field', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT') });
    vi.spyOn(api, 'put').mockRejectedValue(refused(CONTEST_MSG.signUpClosed));
    vi.spyOn(api, 'post').mockRejectedValue(refused(CONTEST_MSG.attachmentInvalid, { field: 'commitment' }));
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    fireEvent.click(screen.getByTestId('save-draft'));
    expect((await screen.findByTestId('form-refusal')).textContent).toContain(CONTEST_MSG.signUpClosed);
    fireEvent.click(screen.getByTestId('submit'));
    await confirmDialog();
    await waitFor(() => expect(screen.getByTestId('form-refusal').textContent).toContain(CONTEST_MSG.attachmentInvalid));
    const commitment = screen.getByText('参赛承诺书（签字盖章）').closest('.ant-form-item') as HTMLElement;
    // antd draws a field's error a tick after it is set (its error list is debounced).
    await waitFor(() => expect(commitment.querySelector('.ant-form-item-explain')?.textContent).toBe(CONTEST_MSG.attachmentInvalid));
  });

  it('shows the refusal of a team name with control characters under that field', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT') });
    vi.spyOn(api, 'put').mockRejectedValue(refused(VALIDATION_MSG.controlCharacters, { field: 'teamName' }));
    renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    fireEvent.click(screen.getByTestId('save-draft'));
    expect((await screen.findByTestId('form-refusal')).textContent).toContain(VALIDATION_MSG.controlCharacters);
    await waitFor(() => expect(explainOf(field('团队名称'))).toBe(VALIDATION_MSG.controlCharacters));
  });

  it('submits a complete sign-up after the confirm and opens the detail', async () => {
    mockGets({ '/team/my-brief': teamBrief('DRAFT'), '/team/my': teamFixture('DRAFT') });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(teamFixture('SUBMITTED')));
    const { router } = renderRoute('/my-sign');
    await screen.findByTestId('sign-form');
    fireEvent.click(screen.getByTestId('submit'));
    await confirmDialog();
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign/detail'));
    expect(post).toHaveBeenCalledWith(
      '/team/my/submit',
      expect.objectContaining({ creditCode: VALID_CREDIT_CODE, certificate: 'cert000000000000000001', commitment: 'comm000000000000000001', recommendation: null }),
      { silent: true },
    );
    expect(await screen.findByTestId('sign-detail')).toBeTruthy();
  });

  it('shows a returned team the reason', async () => {
    mockGets({ '/team/my-brief': teamBrief('REVISING'), '/team/my': teamFixture('REVISING', { auditReason: '承诺书未盖章' }) });
    renderRoute('/my-sign');
    expect((await screen.findByTestId('revising-reason')).textContent).toContain('承诺书未盖章');
  });

  it('shows English labels and translated schema messages', async () => {
    mockGets({ '/team/my-brief': teamBrief(null), '/team/my': null });
    renderRoute('/my-sign', { search: '?lang=en' });
    await screen.findByTestId('sign-form');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(explainOf(field('Organisation name'))).toBe('Please enter the organisation name'));
  });
});

describe('/my-sign/detail', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  it('shows the team, its files, the audit history with reasons and an edit button when returned', async () => {
    mockGets({
      '/team/my': teamFixture('REVISING', {
        auditReason: '承诺书未盖章',
        history: [
          { id: 'h1', fromStatus: null, toStatus: 'DRAFT', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-06-01T02:00:00.000Z' },
          { id: 'h2', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-06-02T02:00:00.000Z' },
          { id: 'h3', fromStatus: 'SUBMITTED', toStatus: 'REVISING', reason: '承诺书未盖章', actorRealm: 'ADMIN', actorName: '大赛组委会', createdAt: '2025-06-03T02:00:00.000Z' },
        ],
      }),
    });
    const { router } = renderRoute('/my-sign/detail');
    const detail = await screen.findByTestId('sign-detail');
    expect(within(detail).getByTestId('contest-status').textContent).toBe('退回修改');
    expect(within(detail).getByText('智能监管与基金安全')).toBeTruthy();
    expect(within(detail).getByText('营业执照.pdf')).toBeTruthy();
    expect(within(detail).getAllByTestId('attachment-row')).toHaveLength(2);
    const history = within(detail).getByTestId('status-history');
    expect(history.textContent).toContain('大赛组委会：已提交 → 退回修改');
    expect(history.textContent).toContain('审核意见：承诺书未盖章');
    expect(within(detail).getByTestId('audit-reason').textContent).toContain('承诺书未盖章');
    fireEvent.click(within(detail).getByTestId('edit-sign'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign'));
  });

  it('has no edit button for a submitted team, and invites a user without team to sign up', async () => {
    mockGets({ '/team/my': teamFixture('SUBMITTED') });
    const first = renderRoute('/my-sign/detail');
    await screen.findByTestId('sign-detail');
    expect(screen.queryByTestId('edit-sign')).toBeNull();
    expect(screen.getByTestId('contest-status').textContent).toBe('已提交');
    first.unmount();
    vi.restoreAllMocks();
    mockGets({ '/team/my': null });
    renderRoute('/my-sign/detail');
    expect(await screen.findByTestId('sign-detail-empty')).toBeTruthy();
  });
});
