import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/auth (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * One table for the three realms (USER participants, ADMIN operators, EXPERT reviewers):
 * identity, sessions and audit work the same way for all, and uniqueness is per realm.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    username: text('username').notNull(),
    phone: text('phone'),
    email: text('email'),
    name: text('name'),
    /** Public code: expert code such as E0001, or an admin's staff code. */
    code: text('code'),
    passwordHash: text('password_hash').notNull(),
    roleCode: text('role_code', { enum: ['SUPER_ADMIN', 'SYSTEM', 'USER', 'EXPERT'] }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    agreedAt: timestamp('agreed_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** The password was set by someone else (reset, generated, imported): changed at next login before anything else (docs/security.md). */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** The language notices reach the account in: 'zh-CN' or 'en' (docs/decisions.md, "English"). */
    locale: text('locale', { enum: ['zh-CN', 'en'] }).notNull().default('zh-CN'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_realm_username_uq').on(t.realm, t.username),
    uniqueIndex('accounts_realm_phone_uq').on(t.realm, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('accounts_realm_email_uq').on(t.realm, t.email).where(sql`${t.email} is not null`),
    uniqueIndex('accounts_code_uq').on(t.code).where(sql`${t.code} is not null`),
    index('accounts_created_at_idx').on(t.createdAt),
    // "Contains" searches of the admin lists (ILIKE '%…%') use trigram indexes (pg_trgm).
    index('accounts_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
    index('accounts_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
  ],
);

/**
 * Sign-in sessions. The token itself is never stored: only its SHA-256, so a database leak
 * yields no usable tokens. A revoked row is kept (with the reason) so the next call with that
 * token can be told why: REPLACED answers 409, anything else 401.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    realm: text('realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason', { enum: ['LOGOUT', 'REPLACED', 'PASSWORD_CHANGED', 'DISABLED'] }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_account_idx').on(t.accountId, t.realm),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Every sign-in attempt in every realm (behaviour auditing reads this). */
export const loginRecords = pgTable(
  'login_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** What was typed: username or phone (never a password or code). */
    identifier: text('identifier').notNull(),
    method: text('method', { enum: ['PASSWORD', 'SMS'] }).notNull(),
    result: text('result', {
      enum: ['SUCCESS', 'BAD_CREDENTIALS', 'LOCKED', 'DISABLED', 'CAPTCHA_REQUIRED', 'CAPTCHA_FAILED', 'BAD_SMS_CODE', 'UNKNOWN_ACCOUNT'],
    }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_records_account_idx').on(t.accountId, t.createdAt),
    index('login_records_realm_idx').on(t.realm, t.createdAt),
    index('login_records_identifier_trgm_idx').using('gin', sql`${t.identifier} gin_trgm_ops`),
  ],
);
