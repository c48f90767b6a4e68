/**
 * Seeding volume fast: set-based INSERT ... SELECT generate_series, no row crosses the wire, and
 * one password hash for every seeded account (argon2 takes ~30 ms a hash).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import { accounts } from '../../apps/server/src/db/schema.js';
import { hashPassword } from '../../apps/server/src/lib/password.js';
import { createSessionService } from '../../apps/server/src/modules/auth/session.service.js';

export const BENCH_PASSWORD = 'Bench@2025';

let benchHash: Promise<string> | undefined;
/** The argon2 hash of BENCH_PASSWORD, computed once per process. */
export const benchPasswordHash = () => (benchHash ??= hashPassword(BENCH_PASSWORD));

export interface ParticipantSeed {
  /** Accounts numbered 1..count (`g` in the SQL below). */
  count: number;
  /** username: prefix || g. */
  prefix: string;
  /** name: namePrefix || g. */
  namePrefix: string;
  /** With it, phone: phonePrefix || g padded to 11 digits, and email: prefix || g || '@example.com'; without, neither. */
  phonePrefix?: string;
  /** Default: the hash of BENCH_PASSWORD. */
  passwordHash?: string;
  /** SQL over `g`; default true. */
  enabled?: SQL;
  /** SQL over `g`; default now(). */
  createdAt?: SQL;
  /** The participant agreement accepted (agreed_at now()); default not. */
  agreed?: boolean;
}

/** Participant accounts (realm USER) in one statement. */
export async function seedParticipants(db: Db, s: ParticipantSeed): Promise<void> {
  const hash = s.passwordHash ?? (await benchPasswordHash());
  const phone = s.phonePrefix ? sql`${s.phonePrefix} || lpad(g::text, ${11 - s.phonePrefix.length}, '0')` : sql`null`;
  const email = s.phonePrefix ? sql`${s.prefix} || g || '@example.com'` : sql`null`;
  await db.execute(sql`
    insert into accounts (realm, username, phone, email, name, role_code, password_hash, enabled, agreed_at, created_at, updated_at)
    select 'USER', ${s.prefix} || g, ${phone}, ${email}, ${s.namePrefix} || g, 'USER', ${hash},
           ${s.enabled ?? sql`true`}, ${s.agreed ? sql`now()` : sql`null`}, ${s.createdAt ?? sql`now()`}, now()
    from generate_series(1, ${s.count}) g`);
}

/** A super admin `benchadmin` (password BENCH_PASSWORD) and a session of it, without the login call. */
export async function benchAdmin(db: Db): Promise<{ id: string; username: string; token: string }> {
  const [admin] = await db
    .insert(accounts)
    .values({ realm: 'ADMIN', username: 'benchadmin', name: 'bench', roleCode: 'SUPER_ADMIN', passwordHash: await benchPasswordHash() })
    .returning({ id: accounts.id });
  const { token } = await createSessionService(db).create({ realm: 'ADMIN', accountId: admin!.id });
  return { id: admin!.id, username: 'benchadmin', token };
}
