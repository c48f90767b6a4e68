import { randomBytes } from 'node:crypto';
import { ADMIN_BUTTONS, ADMIN_MENUS, flattenMenus, type Realm } from '@contest/shared';
import { accountRoles, accounts, buttons, menus, roleButtons, roleMenus, roles } from '../src/db/schema.js';
import { hashPassword } from '../src/lib/password.js';
import { createSessionService } from '../src/modules/auth/session.service.js';
import type { TestApp } from './helpers.js';

export interface SignedIn {
  token: string;
  accountId: string;
  username: string;
  headers: { authorization: string };
}

export const TEST_PASSWORD = 'Test@2025';
let passwordHash: string | undefined;

/** Menus and buttons as the seed installs them (idempotent): permission checks read them. */
export async function ensureMenusAndButtons(t: TestApp): Promise<void> {
  const db = t.database.db;
  await db
    .insert(menus)
    .values(flattenMenus(ADMIN_MENUS).map((m) => ({ code: m.code, parentCode: m.parentCode, name: m.name, nameEn: m.nameEn, path: m.path, icon: m.icon ?? null, sort: m.sort })))
    .onConflictDoNothing();
  await db.insert(buttons).values([...ADMIN_BUTTONS]).onConflictDoNothing();
}

/**
 * Creates an account and a live session without the login calls (no captcha, no rate limits),
 * for tests of other modules. A SYSTEM admin gets one fresh role holding exactly `buttons`
 * (and their menus). The password is TEST_PASSWORD.
 */
export async function signIn(
  t: TestApp,
  who: { realm: Realm; roleCode?: 'SUPER_ADMIN' | 'SYSTEM' | 'USER' | 'EXPERT'; buttons?: string[]; menus?: string[]; username?: string; name?: string },
): Promise<SignedIn> {
  const db = t.database.db;
  passwordHash ??= await hashPassword(TEST_PASSWORD);
  const suffix = randomBytes(5).toString('hex');
  const roleCode = who.roleCode ?? (who.realm === 'USER' ? 'USER' : who.realm === 'EXPERT' ? 'EXPERT' : 'SYSTEM');
  const username = who.username ?? `${who.realm.toLowerCase()}_${suffix}`;
  const phone = who.realm === 'USER' ? `139${String(parseInt(suffix, 16) % 1e8).padStart(8, '0')}` : null;
  const [account] = await db
    .insert(accounts)
    .values({
      realm: who.realm,
      username,
      phone,
      email: who.realm === 'USER' ? `${username}@example.com` : null,
      name: who.name ?? username,
      code: who.realm === 'EXPERT' ? `E${suffix}` : who.realm === 'ADMIN' ? `A${suffix}` : null,
      roleCode,
      passwordHash,
      agreedAt: new Date(),
    })
    .returning({ id: accounts.id });
  if (who.realm === 'ADMIN' && roleCode === 'SYSTEM') {
    await ensureMenusAndButtons(t);
    const [role] = await db.insert(roles).values({ code: `R_${suffix}`, name: `Role ${suffix}` }).returning({ id: roles.id });
    await db.insert(accountRoles).values({ accountId: account!.id, roleId: role!.id });
    const codes = who.buttons ?? [];
    if (codes.length) await db.insert(roleButtons).values(codes.map((buttonCode) => ({ roleId: role!.id, buttonCode })));
    const menuCodes = [...new Set([...ADMIN_BUTTONS.filter((b) => codes.includes(b.code)).map((b) => b.menuCode), ...(who.menus ?? [])])];
    if (menuCodes.length) await db.insert(roleMenus).values(menuCodes.map((menuCode) => ({ roleId: role!.id, menuCode })));
  } else if (roleCode === 'SUPER_ADMIN') {
    await ensureMenusAndButtons(t);
  }
  const { token } = await createSessionService(db).create({ realm: who.realm, accountId: account!.id });
  return { token, accountId: account!.id, username, headers: { authorization: `Bearer ${token}` } };
}
