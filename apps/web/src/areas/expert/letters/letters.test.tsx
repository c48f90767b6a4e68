/** 我的聘书与感谢信 (/expert/letters) with mocked answers (docs/certificates.md, "Web pages"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MyCertificate } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { expert } from '../../../components/admin-kit/staff-fixtures';

const SLOW = { timeout: 20_000 };

const letter = (over: Partial<MyCertificate> = {}): MyCertificate => ({
  id: 'l1',
  serial: '2026-7K3Q-9XWD-M2PA-RT0V',
  kind: 'EXPERT_APPOINTMENT',
  round: 'FINAL',
  status: 'VALID',
  holderName: '张专家',
  projectName: null,
  award: null,
  resultVersion: 1,
  issuedAt: '2026-07-08T02:00:00.000Z',
  successorSerial: null,
  downloadPath: '/expert/certificates/l1/pdf',
  verifyPath: '/verify/2026-7K3Q-9XWD-M2PA-RT0V',
  ...over,
});

/** The expert's account and letters; other calls of the console get empty answers. */
function mockGet(letters: () => MyCertificate[] | Error) {
  localStorage.setItem('ExpertToken', 'expert-token');
  return vi.spyOn(api, 'get').mockImplementation((async (url: string) => {
    if (url === '/admin/user/account') return ok(expert());
    if (url === '/expert/certificates/mine') {
      const answer = letters();
      if (answer instanceof Error) throw answer;
      return ok(answer);
    }
    if (url === '/expert/certificates/l1/pdf') return { blob: new Blob(['%PDF']), fileName: '聘书.pdf' };
    if (url === '/expert/live/sessions') return ok([]);
    throw new Error(`unexpected GET ${url}`);
  }) as typeof api.get);
}

describe('我的聘书与感谢信', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('lists the letters with their status and PDF; the menu gains the entry', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const get = mockGet(() => [letter(), letter({ id: 'l2', kind: 'EXPERT_THANKS', status: 'REVOKED', serial: '2026-AAAA-BBBB-CCCC-DDDD' })]);
    renderRoute('/expert/letters');
    expect(await screen.findByRole('heading', { name: '我的聘书与感谢信', level: 1 }, SLOW)).toBeTruthy();
    const items = await screen.findAllByTestId('my-certificate', {}, SLOW);
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('专家聘书');
    expect(items[0]!.textContent).toContain('有效');
    expect(items[1]!.textContent).toContain('专家感谢信');
    expect(items[1]!.textContent).toContain('已撤销');
    await waitFor(() => expect(within(screen.getByTestId('console-menu')).getByText('我的聘书与感谢信')).toBeTruthy(), SLOW);

    fireEvent.click(within(items[0]!).getByTestId('my-certificate-download'));
    await waitFor(() => expect(get.mock.calls.some(([u]) => u === '/expert/certificates/l1/pdf')).toBe(true));
  });

  it('says nothing was issued yet', async () => {
    mockGet(() => []);
    renderRoute('/expert/letters');
    expect((await screen.findByTestId('my-certificates-empty', {}, SLOW)).textContent).toContain('聘书与感谢信尚未颁发');
    // No letter, no menu entry (the page stays reachable by its address).
    expect(within(screen.getByTestId('console-menu')).queryByText('我的聘书与感谢信')).toBeNull();
  });

  it('a failed list offers a retry', async () => {
    let fail = true;
    mockGet(() => (fail ? refused('服务繁忙', null, 500) : [letter()]));
    renderRoute('/expert/letters', { search: '?lang=en' });
    const failed = await screen.findByTestId('my-certificates-failed', {}, SLOW);
    expect(failed.textContent).toContain('The certificates could not be loaded');
    fail = false;
    fireEvent.click(within(failed).getByRole('button'));
    expect((await screen.findByTestId('my-certificate', {}, SLOW)).textContent).toContain('Expert appointment letter');
  });
});
