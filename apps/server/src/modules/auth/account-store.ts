import { eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema/auth.js';
import type { AccountsRow } from './auth.read-model.js';

/**
 * The account writes of the modules that manage a realm's accounts (system accounts, experts,
 * registered users): accounts are owned here (docs/architecture.md, "Database"), so they create and
 * change them through these calls, in their own transaction. None returns the password hash.
 */
export type NewAccount = typeof accounts.$inferInsert;
export type AccountPatch = Partial<Omit<NewAccount, 'id' | 'realm' | 'createdAt'>>;

const { passwordHash, ...visible } = getTableColumns(accounts);

export async function insertAccount(tx: Db, values: NewAccount): Promise<AccountsRow> {
  const [row] = await tx.insert(accounts).values(values).returning(visible);
  return row!;
}

/** Several accounts in one statement (the caller keeps a statement's parameters in bounds), rows in input order. */
export async function insertAccounts(tx: Db, values: NewAccount[]): Promise<AccountsRow[]> {
  if (!values.length) return [];
  return tx.insert(accounts).values(values).returning(visible);
}

/** The changed account, or undefined when there is no account with that id. */
export async function updateAccount(tx: Db, id: string, patch: AccountPatch): Promise<AccountsRow | undefined> {
  const [row] = await tx.update(accounts).set(patch).where(eq(accounts.id, id)).returning(visible);
  return row;
}
