import { ACCOUNT_REFUSAL, ADMIN_BUTTONS, EXPERT_ACCOUNT_HOLDS, PARTICIPANT_ACCOUNT_HOLDS, ROLE_REFUSAL } from '@contest/shared';
import type { InjectOptions } from 'fastify';
import { roleButtons, roleMenus, roles } from '../src/db/schema.js';
import type { TestApp } from './helpers.js';
import { fakeFile, multipart } from './files-helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * The reach dimension of the access matrix (docs/security.md "Accounts and reach"): every call
 * that creates or changes an account or a role, made by a caller holding the call's button. The
 * caller lacks what the "out" request's target holds or would hold (pii:view for system accounts
 * and roles; what an expert or a participant reads for theirs) and is refused 403 with a reach
 * reason, nothing written; a wider caller holding that too gets through with the same request, and
 * the "in" request, within the narrow caller's reach, goes through. A console
 * write on accounts or roles without a row here fails access-matrix.test.ts.
 */

export interface ReachCall {
  params?: Record<string, string>;
  body?: unknown;
  multipart?: { payload: Buffer; headers: Record<string, string> };
}

export interface ReachRow {
  /** The buttons (and menus) of the caller: the call's button and what "in" needs, never what "out" needs. */
  caller: { buttons: string[]; menus?: string[] };
  /** The caller, plus what makes "out" reachable: "out" must then pass (the refusal was reach, not the button). */
  wider: { buttons: string[]; menus?: string[] };
  out: () => Promise<ReachCall>;
  /** Within the caller's reach, so it goes through; none where the caller can reach no such account at all (experts, participants). */
  in?: () => Promise<ReachCall>;
}

/** Refusal reasons of the reach rule: accounts, and roles (whose own reasons predate it). */
export const REACH_REASONS: readonly string[] = [ACCOUNT_REFUSAL.reach, ROLE_REFUSAL.grantExceedsOwn, ROLE_REFUSAL.roleExceedsOwn];

/** Console writes that create or change an account or a role: each needs a reach row. */
export const isAccountOrRoleWrite = (key: string) =>
  /^(POST|PUT|DELETE) \/api\/admin\/(system\/account|role|expert|user\/:id\/reset-password)(\/|$)/.test(key) && !/expert\/export/.test(key);

export function reachRows(t: TestApp, superAdmin: () => SignedIn): Record<string, ReachRow> {
  const db = t.database.db;
  let n = 0;
  const tag = () => `${Date.now().toString(36).slice(-5)}${n++}`;

  async function role(buttons: string[]): Promise<string> {
    const [r] = await db.insert(roles).values({ code: `R_REACH_${tag().toUpperCase()}`, name: `可及${tag()}` }).returning({ id: roles.id });
    await db.insert(roleButtons).values(buttons.map((buttonCode) => ({ roleId: r!.id, buttonCode })));
    const menus = [...new Set(ADMIN_BUTTONS.filter((b) => buttons.includes(b.code)).map((b) => b.menuCode))];
    await db.insert(roleMenus).values(menus.map((menuCode) => ({ roleId: r!.id, menuCode })));
    return r!.id;
  }
  const small = () => role(['user:view']);
  const big = () => role(['user:view', 'pii:view']);

  async function account(roleId: string): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/system/account', headers: superAdmin().headers, payload: { username: `reach${tag()}`, name: '目标', roleIds: [roleId] } });
    if (res.statusCode !== 200) throw new Error(`reach fixture account: ${res.body}`);
    return res.json().data.account.id as string;
  }
  async function expert(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/expert',
      headers: superAdmin().headers,
      payload: { name: '专家', phone: `136${String(Date.now() + n++).slice(-8)}`, organization: '示例单位', tracks: ['OTHER_INNOVATION'], declaredOrgs: [] },
    });
    if (res.statusCode !== 200) throw new Error(`reach fixture expert: ${res.body}`);
    return res.json().data.id as string;
  }
  const expertBody = () => ({ name: '专家', phone: `135${String(Date.now() + n++).slice(-8)}`, organization: '示例单位', tracks: ['OTHER_INNOVATION'], declaredOrgs: [] });
  const roleBody = (buttonCodes: string[]) => ({ code: `R_NEW_${tag().toUpperCase()}`, name: `新角色${tag()}`, buttonCodes });

  const withPii = (buttons: string[]) => ({ buttons: [...buttons, 'pii:view'] });
  const expertHolds = { buttons: [...EXPERT_ACCOUNT_HOLDS.buttonCodes], menus: [...EXPERT_ACCOUNT_HOLDS.menuCodes] };
  const withExpertHolds = (buttons: string[]) => ({ buttons: [...buttons, ...expertHolds.buttons], menus: expertHolds.menus });
  const emptyImport = () => multipart({}, { name: '专家.txt', content: fakeFile.pdf(100) });

  return {
    'POST /api/admin/system/account': {
      caller: { buttons: ['account:edit', 'user:view'] },
      wider: withPii(['account:edit', 'user:view']),
      out: async () => ({ body: { username: `reach${tag()}`, name: '新', roleIds: [await big()] } }),
      in: async () => ({ body: { username: `reach${tag()}`, name: '新', roleIds: [await small()] } }),
    },
    'PUT /api/admin/system/account/:id': {
      caller: { buttons: ['account:edit', 'user:view'] },
      wider: withPii(['account:edit', 'user:view']),
      // Would hold: a small account given the bigger role.
      out: async () => ({ params: { id: await account(await small()) }, body: { name: '改', roleIds: [await big()] } }),
      in: async () => {
        const r = await small();
        return { params: { id: await account(r) }, body: { name: '改', roleIds: [r] } };
      },
    },
    'PUT /api/admin/system/account/:id#holds': {
      caller: { buttons: ['account:edit', 'user:view'] },
      wider: withPii(['account:edit', 'user:view']),
      out: async () => ({ params: { id: await account(await big()) }, body: { name: '改', roleIds: [await small()] } }),
      in: async () => ({ params: { id: await account(await small()) }, body: { name: '改', roleIds: [await small()] } }),
    },
    'PUT /api/admin/system/account/:id/roles': {
      caller: { buttons: ['account:edit', 'user:view'] },
      wider: withPii(['account:edit', 'user:view']),
      out: async () => ({ params: { id: await account(await small()) }, body: { roleIds: [await big()] } }),
      in: async () => ({ params: { id: await account(await small()) }, body: { roleIds: [await small()] } }),
    },
    'PUT /api/admin/system/account/:id/roles#holds': {
      caller: { buttons: ['account:edit', 'user:view'] },
      wider: withPii(['account:edit', 'user:view']),
      out: async () => ({ params: { id: await account(await big()) }, body: { roleIds: [await small()] } }),
      in: async () => ({ params: { id: await account(await small()) }, body: { roleIds: [await small()] } }),
    },
    'PUT /api/admin/system/account/:id/status': {
      caller: { buttons: ['account:disable', 'user:view'] },
      wider: withPii(['account:disable', 'user:view']),
      out: async () => ({ params: { id: await account(await big()) }, body: { enabled: false } }),
      in: async () => ({ params: { id: await account(await small()) }, body: { enabled: false } }),
    },
    'POST /api/admin/system/account/:id/reset-password': {
      caller: { buttons: ['account:reset-password', 'user:view'] },
      wider: withPii(['account:reset-password', 'user:view']),
      out: async () => ({ params: { id: await account(await big()) } }),
      in: async () => ({ params: { id: await account(await small()) } }),
    },
    'POST /api/admin/role': {
      caller: { buttons: ['role:edit', 'user:view'] },
      wider: withPii(['role:edit', 'user:view']),
      out: async () => ({ body: roleBody(['user:view', 'pii:view']) }),
      in: async () => ({ body: roleBody(['user:view']) }),
    },
    'PUT /api/admin/role/:id': {
      caller: { buttons: ['role:edit', 'user:view'] },
      wider: withPii(['role:edit', 'user:view']),
      out: async () => ({ params: { id: await big() }, body: { name: `改${tag()}`, buttonCodes: ['user:view'] } }),
      in: async () => ({ params: { id: await small() }, body: { name: `改${tag()}`, buttonCodes: ['user:view'] } }),
    },
    'PUT /api/admin/role/:id#grants': {
      caller: { buttons: ['role:edit', 'user:view'] },
      wider: withPii(['role:edit', 'user:view']),
      out: async () => ({ params: { id: await small() }, body: { name: `改${tag()}`, buttonCodes: ['user:view', 'pii:view'] } }),
      in: async () => ({ params: { id: await small() }, body: { name: `改${tag()}`, buttonCodes: ['user:view'] } }),
    },
    'DELETE /api/admin/role/:id': {
      caller: { buttons: ['role:delete', 'user:view'] },
      wider: withPii(['role:delete', 'user:view']),
      out: async () => ({ params: { id: await big() } }),
      in: async () => ({ params: { id: await small() } }),
    },
    // Expert accounts hold what an expert reads (EXPERT_ACCOUNT_HOLDS): "out" is the 专家库 button alone.
    'POST /api/admin/expert': {
      caller: { buttons: ['expert:edit'] },
      wider: withExpertHolds(['expert:edit']),
      out: async () => ({ body: expertBody() }),
    },
    'PUT /api/admin/expert/:id': {
      caller: { buttons: ['expert:edit'] },
      wider: withExpertHolds(['expert:edit']),
      out: async () => ({ params: { id: await expert() }, body: expertBody() }),
    },
    'PUT /api/admin/expert/:id/enabled': {
      caller: { buttons: ['expert:disable'] },
      wider: withExpertHolds(['expert:disable']),
      out: async () => ({ params: { id: await expert() }, body: { enabled: false } }),
    },
    'POST /api/admin/expert/:id/reset-password': {
      caller: { buttons: ['expert:reset-password'] },
      wider: withExpertHolds(['expert:reset-password']),
      out: async () => ({ params: { id: await expert() } }),
    },
    // Refused before the sheet is read; let through, a sheet that is no .xlsx is 400.
    'POST /api/admin/expert/import': {
      caller: { buttons: ['expert:import'] },
      wider: withExpertHolds(['expert:import']),
      out: async () => ({ multipart: emptyImport() }),
    },
    // A participant's own team in full (PARTICIPANT_ACCOUNT_HOLDS).
    'POST /api/admin/user/:id/reset-password': {
      caller: { buttons: ['user:reset-password'] },
      wider: { buttons: ['user:reset-password', ...PARTICIPANT_ACCOUNT_HOLDS.buttonCodes] },
      out: async () => ({ params: { id: (await signIn(t, { realm: 'USER' })).accountId } }),
    },
  };
}

let address = 0;

/** The request of a reach row's call, as the access matrix sends it (each from its own address: per-IP limits). */
export function reachRequest(key: string, call: ReachCall, headers: Record<string, string>): InjectOptions {
  address += 1;
  const [method, path] = key.replace(/#.*$/, '').split(' ') as [InjectOptions['method'], string];
  const url = path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
  return {
    method,
    url,
    headers: { ...headers, ...(call.multipart?.headers ?? {}) },
    payload: (call.multipart?.payload ?? call.body) as InjectOptions['payload'],
    remoteAddress: `10.15.${Math.floor(address / 250)}.${address % 250}`,
  };
}
