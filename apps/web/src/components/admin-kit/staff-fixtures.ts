/** Accounts as GET /admin/user/account answers them, for the admin area's tests. */
import { ADMIN_BUTTONS, ADMIN_MENUS, EXPERT_MENUS, type MenuSeed } from '@contest/shared';
import type { StaffInfo, StaffMenu } from '../../lib/session';

export function menuTree(menus: readonly MenuSeed[]): StaffMenu[] {
  return menus.map((m) => ({
    code: m.code,
    name: m.name,
    nameEn: m.nameEn,
    path: m.path,
    icon: m.icon ?? null,
    children: m.children ? menuTree(m.children) : [],
  }));
}

/** The built-in super admin: every menu and button. */
export function superAdmin(overrides: Partial<StaffInfo> = {}): StaffInfo {
  return {
    account: 'admin',
    roles: [{ id: 'r1', code: 'SUPER_ADMIN' }],
    roleCode: 'SUPER_ADMIN',
    roleName: '超级管理员',
    menus: menuTree(ADMIN_MENUS),
    buttons: ADMIN_BUTTONS.map((b) => b.code),
    agree: false,
    name: '超级管理员',
    code: null,
    ...overrides,
  };
}

/** An operator granted only the given top-level menu codes (with their children). */
export function operator(codes: string[], buttons: string[] = []): StaffInfo {
  return superAdmin({
    account: 'ops1',
    name: '运营一号',
    roleCode: 'SYSTEM',
    roles: [{ id: 'r2', code: 'OPS' }],
    roleName: '运营人员',
    menus: menuTree(ADMIN_MENUS.filter((m) => codes.includes(m.code))),
    buttons,
  });
}

export function expert(overrides: Partial<StaffInfo> = {}): StaffInfo {
  return {
    account: '13800000001',
    roles: [{ id: 'EXPERT', code: 'EXPERT' }],
    roleCode: 'EXPERT',
    roleName: '评审专家',
    menus: menuTree(EXPERT_MENUS),
    buttons: [],
    agree: true,
    name: '张专家',
    code: 'E0001',
    ...overrides,
  };
}

/** Lists the expert console reads on every page (its menu entries added in the browser, the home's cards): empty. */
const EXPERT_CONSOLE_LISTS = ['/expert/live/sessions', '/expert/certificates/mine'];

/** An `api.get` answer for expert-console tests: the account for its calls, empty lists for the console's own lists and notices. */
export function expertConsoleAnswer(info: StaffInfo, ok: <T>(data: T) => unknown) {
  return async (url: string): Promise<never> => {
    if (EXPERT_CONSOLE_LISTS.includes(url)) return ok([]) as never;
    if (url === '/messages') return ok({ list: [], total: 0, page: 1, size: 5 }) as never;
    return ok(info) as never;
  };
}
