import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { updatedAt } from './columns.js';

// Owned by modules/experts (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export const expertProfiles = pgTable('expert_profiles', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  organization: text('organization'),
  title: text('title'),
  tracks: jsonb('tracks').$type<string[]>().notNull().default([]),
});

/** An expert's organisations for conflicts of interest (declared by the expert or by admins). */
export interface DeclaredOrg {
  name: string;
  creditCode?: string | null;
}

/** Organisation and declared conflicts of an expert, beside `expert_profiles` (one row per expert). */
export const expertConflicts = pgTable('expert_conflicts', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  /** Unified social credit code of the expert's own organisation, when known. */
  orgCreditCode: text('org_credit_code'),
  declaredOrgs: jsonb('declared_orgs').$type<DeclaredOrg[]>().notNull().default([]),
  updatedAt: updatedAt(),
});
