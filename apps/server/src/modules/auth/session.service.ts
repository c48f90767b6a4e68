import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { AUTH_MSG, PASSWORD_CHANGE_REQUIRED, type Realm } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, sessions } from '../../db/schema/auth.js';
import { forbidden, sessionReplaced, unauthorized } from '../../lib/errors.js';

/** Participants slide for 7 days; staff sessions end after 2 hours without a call. */
export const SESSION_TTL_MS: Record<Realm, number> = {
  USER: 7 * 24 * 3600_000,
  ADMIN: 2 * 3600_000,
  EXPERT: 2 * 3600_000,
};
// Refreshing last use on every call would write on every request; once a minute is enough.
const TOUCH_INTERVAL_MS = 60_000;

export type RevokeReason = 'LOGOUT' | 'REPLACED' | 'PASSWORD_CHANGED' | 'DISABLED';

export interface AuthContext {
  sessionId: string;
  accountId: string;
  realm: Realm;
  username: string;
  roleCode: 'SUPER_ADMIN' | 'SYSTEM' | 'USER' | 'EXPERT';
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSessionService(db: Db, now: () => Date = () => new Date()) {
  // Every call of every signed-in page runs these two: prepared once, they skip drizzle's query
  // building per request and, on PostgreSQL, are parsed and planned once per pooled connection.
  // Only the columns the check reads.
  const lookup = db
    .select({
      id: sessions.id,
      realm: sessions.realm,
      accountId: sessions.accountId,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      revokeReason: sessions.revokeReason,
      username: accounts.username,
      roleCode: accounts.roleCode,
      enabled: accounts.enabled,
      mustChangePassword: accounts.mustChangePassword,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('session_lookup');
  const touch = db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder('at')}`, expiresAt: sql`${sql.placeholder('expiresAt')}` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('session_touch');

  return {
    /** Staff realms keep one live session: signing in ends the older one (its next call gets 409). */
    async create(input: { realm: Realm; accountId: string; ip?: string; userAgent?: string }, tx: Db = db) {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      if (input.realm !== 'USER') {
        await tx
          .update(sessions)
          .set({ revokedAt: at, revokeReason: 'REPLACED' })
          .where(and(eq(sessions.accountId, input.accountId), eq(sessions.realm, input.realm), isNull(sessions.revokedAt)));
      }
      const [row] = await tx
        .insert(sessions)
        .values({
          tokenHash: hashToken(token),
          realm: input.realm,
          accountId: input.accountId,
          createdAt: at,
          lastUsedAt: at,
          expiresAt: new Date(at.getTime() + SESSION_TTL_MS[input.realm]),
          ip: input.ip?.slice(0, 64),
          userAgent: input.userAgent?.slice(0, 512),
        })
        .returning({ id: sessions.id });
      return { token, sessionId: row!.id };
    },

    /**
     * Resolves a bearer token for one of `realms`, or throws 401 (or 409 when replaced). While
     * the account's password was set by someone else, 403 PASSWORD_CHANGE_REQUIRED, unless the
     * call is one of `pendingPasswordChange` (change it, log out, who am I: docs/security.md).
     */
    async authenticate(token: string | undefined, realms: readonly Realm[], opts: { pendingPasswordChange?: boolean } = {}): Promise<AuthContext> {
      if (!token || token.length > 200) throw unauthorized();
      const [session] = await lookup.execute({ tokenHash: hashToken(token) });
      if (!session || !realms.includes(session.realm)) throw unauthorized();
      if (session.revokedAt) {
        if (session.revokeReason === 'REPLACED') throw sessionReplaced();
        throw unauthorized();
      }
      const at = now();
      if (session.expiresAt <= at) throw unauthorized();
      if (!session.enabled) {
        await this.revoke(session.id, 'DISABLED');
        throw unauthorized();
      }
      if (at.getTime() - session.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        await touch.execute({ id: session.id, at: at.toISOString(), expiresAt: new Date(at.getTime() + SESSION_TTL_MS[session.realm]).toISOString() });
      }
      if (session.mustChangePassword && !opts.pendingPasswordChange) throw forbidden(AUTH_MSG.passwordChangeRequired, { reason: PASSWORD_CHANGE_REQUIRED });
      return { sessionId: session.id, accountId: session.accountId, realm: session.realm, username: session.username, roleCode: session.roleCode };
    },

    async revoke(sessionId: string, reason: RevokeReason, tx: Db = db) {
      await tx
        .update(sessions)
        .set({ revokedAt: now(), revokeReason: reason })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** Ends every live session of the account except `keepSessionId` (password change/reset, disable). */
    async revokeAll(accountId: string, reason: RevokeReason, keepSessionId?: string, tx: Db = db) {
      const conditions = [eq(sessions.accountId, accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now())];
      if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
      await tx.update(sessions).set({ revokedAt: now(), revokeReason: reason }).where(and(...conditions));
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
