import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PiiReveal } from '@contest/shared';
import { operator } from '../../../components/admin-kit/staff-fixtures';
import { renderKit } from '../../../components/admin-kit/render-kit';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { PiiText, piiValue } from './PiiText';

const TEAM = '11111111-1111-4111-8111-111111111111';
const reveal: PiiReveal = { kind: 'team', id: TEAM, values: { 'leader.phone': '13800000001', 'leader.email': 'zhang@example.com' } };

/** The admin's account (GET /admin/user/account) with these buttons; the reveal call answers `reveal`. */
function mockApi(buttons: string[]) {
  localStorage.setItem('AdminToken', 't');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url.startsWith('/admin/pii/')) return ok(reveal) as never;
    return ok(operator(['home', 'competition'], buttons)) as never;
  });
}

const revealCalls = (get: ReturnType<typeof mockApi>) => get.mock.calls.filter(([url]) => String(url).startsWith('/admin/pii/'));

function Record() {
  return (
    <div>
      <div data-testid="phone">
        <PiiText kind="team" id={TEAM} path="leader.phone" value="138****0001" />
      </div>
      <div data-testid="email">
        <PiiText kind="team" id={TEAM} path="leader.email" value="z***@example.com" />
      </div>
    </div>
  );
}

describe('masked personal information', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('shows the masked value, and no eye without pii:view', async () => {
    const get = mockApi(['qualification:view']);
    renderKit(<Record />);
    expect(await screen.findByText('138****0001')).toBeTruthy();
    expect(screen.getByText('z***@example.com')).toBeTruthy();
    // The account is loaded (the eye would show by now).
    await waitFor(() => expect(get).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: '查看完整信息' })).toBeNull();
    expect(revealCalls(get)).toHaveLength(0);
  });

  it('with pii:view, one click on an eye reads the record once and shows all its values in full', async () => {
    const get = mockApi(['qualification:view', 'pii:view']);
    renderKit(<Record />);
    const eyes = await screen.findAllByRole('button', { name: '查看完整信息' });
    expect(eyes).toHaveLength(2);
    // Nothing is read (nor recorded on the server) before the click.
    expect(revealCalls(get)).toHaveLength(0);
    fireEvent.click(eyes[0]!);
    expect(await within(screen.getByTestId('phone')).findByText('13800000001')).toBeTruthy();
    expect(within(screen.getByTestId('email')).getByText('zhang@example.com')).toBeTruthy();
    expect(revealCalls(get)).toEqual([[`/admin/pii/team/${TEAM}`]]);
    // Shown in full: the eyes are gone.
    expect(screen.queryByRole('button', { name: '查看完整信息' })).toBeNull();
  });

  it('leaves an empty value empty (the item keeps its -- placeholder), and an unmasked one without an eye', async () => {
    mockApi(['pii:view']);
    expect(piiValue('team', TEAM, 'advisor.phone', null)).toBeNull();
    expect(piiValue('team', TEAM, 'advisor.phone', '')).toBe('');
    renderKit(<PiiText kind="team" id={TEAM} path="leader.phone" value="13800000001" />);
    expect(await screen.findByText('13800000001')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: '查看完整信息' })).toBeNull();
  });
});
