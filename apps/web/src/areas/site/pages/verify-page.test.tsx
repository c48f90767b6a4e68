/** 证书验证 (/verify, /verify/{serial}) with mocked answers (docs/certificates.md, "Verification"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CERTIFICATE_MSG, type CertificateVerification } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { CONTEST_PUBLIC } from '../../../test/contest-public';

const SLOW = { timeout: 15_000 };
const SERIAL = '2026-7K3Q-9XWD-M2PA-RT0V';
const NEXT = '2026-AAAA-BBBB-CCCC-DDDD';

const doc = (over: Partial<CertificateVerification> = {}): CertificateVerification => ({
  serial: SERIAL,
  status: 'VALID',
  kind: 'AWARD',
  holderName: '智慧医保队',
  holderType: 'TEAM',
  projectName: '医保基金智能审核',
  award: '一等奖',
  contestName: '第一届医保创新大赛',
  round: 'FINAL',
  resultVersion: 2,
  issuedAt: '2026-07-02T02:00:00.000Z',
  successorSerial: null,
  ...over,
});

/** The verification answers `answer(serial)`; the layout's own calls get empty answers. */
function mockVerify(answer: (serial: string) => unknown) {
  return vi.spyOn(api, 'get').mockImplementation((async (url: string) => {
    const verify = /^\/certificates\/verify\/(.+)$/.exec(url);
    if (verify) {
      const value = answer(decodeURIComponent(verify[1]!));
      if (value instanceof Error) throw value;
      return ok(value);
    }
    if (url === '/contest/public') return ok(CONTEST_PUBLIC);
    if (url === '/site/content') return ok({});
    if (url === '/documents') return ok([]);
    throw refused(`unexpected GET ${url}`);
  }) as typeof api.get);
}

const verifyCalls = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([u]) => String(u).startsWith('/certificates/verify/'));

describe('证书验证', { timeout: 30_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('a valid certificate: green banner, holder, kind, award, project, contest, round, result version and issue date; no contact details', async () => {
    mockVerify(() => doc());
    renderRoute(`/verify/${SERIAL}`);
    expect(await screen.findByRole('heading', { name: '证书验证', level: 1 }, SLOW)).toBeTruthy();
    const banner = await screen.findByTestId('verify-banner', {}, SLOW);
    expect(banner.getAttribute('data-status')).toBe('VALID');
    expect(banner.className).toContain('ant-alert-success');
    expect(banner.textContent).toContain('证书有效');
    const facts = screen.getByTestId('verify-facts').textContent!;
    for (const text of [SERIAL, '获奖证书', '智慧医保队', '医保基金智能审核', '一等奖', '第一届医保创新大赛', '决赛', '第 2 版', '2026-07-02']) expect(facts).toContain(text);
    expect(facts).toContain('参赛队伍');
    expect(facts).not.toMatch(/手机|电话|邮箱|@/);
  });

  it('a superseded certificate says so and links to its successor', async () => {
    const get = mockVerify((serial) => (serial === SERIAL ? doc({ status: 'SUPERSEDED', successorSerial: NEXT }) : doc({ serial: NEXT, award: '二等奖', resultVersion: 3 })));
    const { router } = renderRoute(`/verify/${SERIAL}`);
    const banner = await screen.findByTestId('verify-banner', {}, SLOW);
    expect(banner.getAttribute('data-status')).toBe('SUPERSEDED');
    expect(banner.className).toContain('ant-alert-warning');
    expect(banner.textContent).toContain('已被新版本取代');
    const link = within(banner).getByTestId('verify-successor');
    expect(link.textContent).toContain(NEXT);
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/verify/${NEXT}`));
    await waitFor(() => expect(screen.getByTestId('verify-banner').getAttribute('data-status')).toBe('VALID'), SLOW);
    expect(screen.getByTestId('verify-facts').textContent).toContain('二等奖');
    expect(verifyCalls(get).map(([u]) => u)).toEqual([`/certificates/verify/${SERIAL}`, `/certificates/verify/${NEXT}`]);
  });

  it('a revoked certificate shows the red banner', async () => {
    mockVerify(() => doc({ status: 'REVOKED', award: null, kind: 'EXPERT_THANKS', holderType: 'EXPERT', holderName: '张专家', projectName: null }));
    renderRoute(`/verify/${SERIAL}`);
    const banner = await screen.findByTestId('verify-banner', {}, SLOW);
    expect(banner.getAttribute('data-status')).toBe('REVOKED');
    expect(banner.className).toContain('ant-alert-error');
    expect(banner.textContent).toContain('已撤销');
    const facts = screen.getByTestId('verify-facts').textContent!;
    expect(facts).toContain('专家张专家');
    expect(facts).not.toContain('项目名称');
  });

  it('an unknown serial shows the not-found state; a malformed one is not sent at all', async () => {
    const get = mockVerify(() => refused(CERTIFICATE_MSG.serialUnknown, null, 404));
    renderRoute('/verify/2000-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(await screen.findByTestId('verify-not-found', {}, SLOW)).toBeTruthy();
    expect(screen.getByRole('heading', { name: '未找到该证书' })).toBeTruthy();
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(verifyCalls(get)).toHaveLength(1);

    get.mockClear();
    renderRoute('/verify/not-a-serial');
    expect(await screen.findByTestId('verify-invalid', {}, SLOW)).toBeTruthy();
    expect(verifyCalls(get)).toHaveLength(0);
  });

  it('a failed call offers a retry; a lower-case serial is looked up in its canonical form', async () => {
    let fail = true;
    const get = mockVerify(() => (fail ? refused('服务繁忙', null, 500) : doc()));
    renderRoute(`/verify/${SERIAL.toLowerCase()}`);
    const failed = await screen.findByTestId('verify-failed', {}, SLOW);
    fail = false;
    fireEvent.click(within(failed).getByRole('button'));
    expect((await screen.findByTestId('verify-banner', {}, SLOW)).getAttribute('data-status')).toBe('VALID');
    expect(verifyCalls(get).every(([u]) => u === `/certificates/verify/${SERIAL}`)).toBe(true);
  });

  it('/verify takes a serial typed with spaces and I/O for 1/0 and opens its page; a wrong one is refused in place', async () => {
    mockVerify(() => doc({ serial: '2026-1K3Q-9XWD-M2PA-RT00' }));
    const { router } = renderRoute('/verify', { search: '?lang=en' });
    expect(await screen.findByRole('heading', { name: 'Certificate verification', level: 1 }, SLOW)).toBeTruthy();
    const input = screen.getByLabelText('Serial number');
    fireEvent.change(input, { target: { value: 'abc' } });
    fireEvent.click(screen.getByTestId('verify-submit'));
    expect(await screen.findByText('The serial number is not valid; check it and try again')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/verify');
    fireEvent.change(input, { target: { value: '2026 ik3q 9xwd m2pa rtoo' } });
    fireEvent.click(screen.getByTestId('verify-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/verify/2026-1K3Q-9XWD-M2PA-RT00'));
    expect((await screen.findByTestId('verify-banner', {}, SLOW)).textContent).toContain('Valid certificate');
  });
});
