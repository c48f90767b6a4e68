import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

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
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_realm_username_uq').on(t.realm, t.username),
    uniqueIndex('accounts_realm_phone_uq').on(t.realm, t.phone).where(sql`${t.phone} is not null`),
    uniqueIndex('accounts_realm_email_uq').on(t.realm, t.email).where(sql`${t.email} is not null`),
    uniqueIndex('accounts_code_uq').on(t.code).where(sql`${t.code} is not null`),
    index('accounts_created_at_idx').on(t.createdAt),
  ],
);

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  /** Built-in roles (SUPER_ADMIN) cannot be edited or deleted. */
  builtin: boolean('builtin').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const accountRoles = pgTable(
  'account_roles',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.roleId] }), index('account_roles_role_idx').on(t.roleId)],
);

export const menus = pgTable('menus', {
  code: text('code').primaryKey(),
  parentCode: text('parent_code'),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull(),
  path: text('path').notNull(),
  icon: text('icon'),
  sort: integer('sort').notNull().default(0),
});

export const buttons = pgTable('buttons', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  menuCode: text('menu_code')
    .notNull()
    .references(() => menus.code, { onDelete: 'cascade' }),
});

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuCode: text('menu_code')
      .notNull()
      .references(() => menus.code, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuCode] })],
);

export const roleButtons = pgTable(
  'role_buttons',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    buttonCode: text('button_code')
      .notNull()
      .references(() => buttons.code, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.buttonCode] })],
);

export const dictTypes = pgTable('dict_types', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const dictItems = pgTable(
  'dict_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    typeCode: text('type_code')
      .notNull()
      .references(() => dictTypes.code, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    /** Disabled items disappear from selects but keep old records readable. */
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('dict_items_type_code_uq').on(t.typeCode, t.code)],
);

/** Contest settings (name, phase windows, caps) as key/value JSON, edited by admins. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const news = pgTable(
  'news',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    category: text('category', { enum: ['MEDICAL_INSURANCE', 'CONTEST_DYNAMIC'] }).notNull(),
    title: text('title').notNull(),
    coverPath: text('cover_path'),
    summary: text('summary').notNull().default(''),
    /** Rich text, already sanitised by the allow-list when stored. */
    body: text('body').notNull().default(''),
    source: text('source'),
    status: text('status', { enum: ['DRAFT', 'PUBLISHED', 'OFFLINE'] }).notNull().default('DRAFT'),
    pinned: boolean('pinned').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    authorId: uuid('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('news_listing_idx').on(t.category, t.status, t.pinned, t.publishAt)],
);

export interface TeamPerson {
  name: string;
  phone?: string;
  email?: string;
  title?: string;
  organization?: string;
  role?: string;
}

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'] })
      .notNull()
      .default('DRAFT'),
    orgName: text('org_name').notNull().default(''),
    orgType: text('org_type'),
    creditCode: text('credit_code'),
    region: text('region'),
    city: text('city'),
    track: text('track'),
    teamName: text('team_name').notNull().default(''),
    leader: jsonb('leader').$type<TeamPerson>(),
    members: jsonb('members').$type<TeamPerson[]>().notNull().default([]),
    advisor: jsonb('advisor').$type<TeamPerson | null>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('teams_owner_uq').on(t.ownerId),
    index('teams_status_idx').on(t.status),
    index('teams_track_idx').on(t.track),
  ],
);

export const expertProfiles = pgTable('expert_profiles', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  organization: text('organization'),
  title: text('title'),
  tracks: jsonb('tracks').$type<string[]>().notNull().default([]),
});

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
  ],
);
