import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { api } from './api';
import { ok, participantInfo } from '../test/api-mocks';
import { hasPermission, Permission } from './permission';
import { renderKit } from '../components/admin-kit/render-kit';
import { operator } from '../components/admin-kit/staff-fixtures';

const ops = { roles: ['SYSTEM', 'OPS'], codes: ['user:view', 'user:export'] };

describe('hasPermission', () => {
  it('keeps an element when one of the required codes is held', () => {
    expect(hasPermission(ops, { codes: ['user:export', 'role:edit'] })).toBe(true);
    expect(hasPermission(ops, { codes: ['role:edit'] })).toBe(false);
  });

  it("lets '*' allow everything, on either side", () => {
    expect(hasPermission({ roles: ['USER'], codes: ['*'] }, { codes: ['role:edit'] })).toBe(true);
    expect(hasPermission(ops, { codes: ['*'] })).toBe(true);
  });

  it('removes nothing without a list', () => {
    expect(hasPermission(ops)).toBe(true);
    expect(hasPermission(ops, { codes: [] })).toBe(true);
    expect(hasPermission(null, {})).toBe(true);
  });

  it('checks roles, and both lists when both are given', () => {
    expect(hasPermission(ops, { roles: ['SUPER_ADMIN'] })).toBe(false);
    expect(hasPermission(ops, { roles: ['OPS'] })).toBe(true);
    expect(hasPermission(ops, { roles: ['OPS'], codes: ['role:edit'] })).toBe(false);
  });

  it('hides a guarded element while the user is unknown', () => {
    expect(hasPermission(null, { codes: ['user:view'] })).toBe(false);
  });
});

describe('<Permission>', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('uses the admin buttons on admin pages', async () => {
    localStorage.setItem('AdminToken', 't');
    vi.spyOn(api, 'get').mockResolvedValue(ok(operator(['home'], ['user:view'])));
    renderKit(
      <>
        <Permission codes={['user:view']}>
          <span>可见</span>
        </Permission>
        <Permission codes={['user:export']} fallback={<span>无权限</span>}>
          <span>导出</span>
        </Permission>
      </>,
    );
    expect(await screen.findByText('可见')).toBeTruthy();
    expect(screen.getByText('无权限')).toBeTruthy();
    expect(screen.queryByText('导出')).toBeNull();
  });

  it("uses the participant's permissionCodeList on participant pages", async () => {
    localStorage.setItem('AccessToken', 't');
    const get = vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo()));
    renderKit(
      <Permission codes={['anything']}>
        <span>参赛者可见</span>
      </Permission>,
      { path: '/my-sign' },
    );
    expect(await screen.findByText('参赛者可见')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/user/account');
  });
});
