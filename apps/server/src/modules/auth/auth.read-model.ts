import { accounts, loginRecords, sessions } from '../../db/schema/auth.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/auth lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
/** Accounts without their password hash; `accountsViewAs` names a second copy for a query that joins accounts twice. */
export const accountsViewAs = <Alias extends string>(alias: Alias) => readModel(accounts, alias, ['passwordHash']);
export const accountsView = accountsViewAs('accounts_view');
export const loginRecordsView = readModel(loginRecords, 'login_records_view');
export const sessionsView = readModel(sessions, 'sessions_view');
/** An account as the other modules see it: no password hash. */
export type AccountsRow = Omit<typeof accounts.$inferSelect, 'passwordHash'>;
export type LoginRecordsRow = typeof loginRecords.$inferSelect;
export type SessionsRow = typeof sessions.$inferSelect;
