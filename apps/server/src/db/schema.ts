import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
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
    /** The password was set by someone else (reset, generated, imported): changed at next login before anything else (docs/security.md). */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
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
    // "Contains" searches of the admin lists (ILIKE '%…%') use trigram indexes (pg_trgm).
    index('accounts_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
    index('accounts_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
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
  /** English name; English pages fall back to `name` when empty. */
  nameEn: text('name_en'),
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
    /** English name; English pages fall back to `name` when empty. */
    nameEn: text('name_en'),
    sort: integer('sort').notNull().default(0),
    /** Disabled items disappear from selects but keep old records readable. */
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('dict_items_type_code_uq').on(t.typeCode, t.code)],
);

/**
 * jsonb read as the driver parsed it. Both drivers (pg, PGlite) already turn jsonb into values;
 * drizzle's own jsonb JSON.parses a string value a second time, so a setting saved as the string
 * "2025" came back as the number 2025 (and every other string cost a thrown exception).
 */
const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
});

/** Contest settings (name, phase windows, caps) as key/value JSON, edited by admins. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonValue('value').notNull(),
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
    /** English version (optional): English pages show it, falling back to the Chinese. */
    titleEn: text('title_en'),
    summaryEn: text('summary_en'),
    bodyEn: text('body_en'),
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

const statusEnum = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'] as const;

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: statusEnum }).notNull().default('DRAFT'),
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
    /** Organisation certificate (PDF/JPG/PNG), signed commitment letter (PDF), optional recommendation letter. */
    certificateFileId: uuid('certificate_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    commitmentFileId: uuid('commitment_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    recommendationFileId: uuid('recommendation_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    /** Reason of the latest REVISING / REJECTED outcome (the full trail is in status_history). */
    auditReason: text('audit_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    /** Raised by every write: a decision names the version it saw (optimistic concurrency). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('teams_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED')`),
    uniqueIndex('teams_owner_uq').on(t.ownerId),
    index('teams_submitted_idx').on(t.status, t.submittedAt),
    // The console lists' orders (newest submitted first; by organisation), id as the tiebreak.
    index('teams_list_order_idx').on(t.submittedAt.desc().nullsLast(), t.id),
    index('teams_draft_order_idx').on(t.updatedAt.desc().nullsLast(), t.id),
    index('teams_org_name_order_idx').on(t.orgName, t.id),
    index('teams_status_idx').on(t.status),
    index('teams_track_idx').on(t.track),
    index('teams_org_name_trgm_idx').using('gin', sql`${t.orgName} gin_trgm_ops`),
  ],
);

/** Preliminary materials (docs/rules/prelim.md): one row per approved team once first saved; no row = NOT_FILLED. */
export const prelimDocs = pgTable(
  'prelim_docs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: statusEnum }).notNull().default('DRAFT'),
    projectName: text('project_name').notNull().default(''),
    track: text('track'),
    summary: text('summary').notNull().default(''),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    applicationFileId: uuid('application_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    /** Counted characters of the application PDF, computed by the server from the stored file. */
    applicationChars: integer('application_chars'),
    presentationFileId: uuid('presentation_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    videoFileId: uuid('video_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    otherFileIds: jsonb('other_file_ids').$type<string[]>().notNull().default([]),
    auditReason: text('audit_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('prelim_docs_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED')`),
    uniqueIndex('prelim_docs_team_uq').on(t.teamId),
    index('prelim_docs_submitted_idx').on(t.status, t.submittedAt),
    index('prelim_docs_list_order_idx').on(t.submittedAt.desc().nullsLast(), t.id),
    index('prelim_docs_draft_order_idx').on(t.updatedAt.desc().nullsLast(), t.id),
    index('prelim_docs_project_trgm_idx').using('gin', sql`${t.projectName} gin_trgm_ops`),
    uniqueIndex('prelim_docs_owner_uq').on(t.ownerId),
    index('prelim_docs_status_idx').on(t.status),
  ],
);

/**
 * Every status change of a workflow subject (sign-up, materials, final-round entry, and later
 * score sheets, appeals): who, when, from, to, why. The subject type is open: each workflow of
 * packages/shared/src/workflow names its own.
 */
export const statusHistory = pgTable(
  'status_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorRealm: text('actor_realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    actorName: text('actor_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('status_history_subject_idx').on(t.subjectType, t.subjectId, t.createdAt)],
);

/** In-site messages (docs/rules/content.md): one row per message, one recipient row per account. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    /** Plain text or allow-listed HTML, sanitised when stored. */
    body: text('body').notNull().default(''),
    /** SYSTEM for automatic notices (audit outcomes), ADMIN for messages sent from the console. */
    kind: text('kind', { enum: ['SYSTEM', 'ADMIN'] }).notNull().default('SYSTEM'),
    /** How recipients were chosen: everyone, a status segment, or a list of accounts. */
    audience: text('audience', { enum: ['ALL', 'SEGMENT', 'ACCOUNTS'] }).notNull().default('ACCOUNTS'),
    segment: jsonb('segment').$type<Record<string, unknown> | null>(),
    senderId: uuid('sender_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The bulk send (站内信管理) this message belongs to; null for event notices. */
    batchId: uuid('batch_id'),
    /** Recalled by an admin (sent by mistake): recipients no longer see it. */
    recalledAt: timestamp('recalled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('messages_created_idx').on(t.createdAt), index('messages_batch_idx').on(t.batchId)],
);

export const messageRecipients = pgTable(
  'message_recipients',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.accountId] }),
    index('message_recipients_inbox_idx').on(t.accountId, t.readAt, t.createdAt),
  ],
);

/** Participant feedback (docs/rules/content.md): admins reply and close; the participant sees the reply. */
export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    content: text('content').notNull(),
    contact: text('contact'),
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    status: text('status', { enum: ['OPEN', 'REPLIED', 'CLOSED'] }).notNull().default('OPEN'),
    reply: text('reply'),
    repliedBy: uuid('replied_by').references(() => accounts.id, { onDelete: 'set null' }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('feedback_owner_idx').on(t.ownerId, t.createdAt), index('feedback_status_idx').on(t.status, t.createdAt)],
);

/** Downloadable documents (docs/rules/content.md): templates, guides, data documents, by audience. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Well-known templates are found by code (e.g. COMMITMENT_LETTER) through /template/public. */
    code: text('code'),
    title: text('title').notNull(),
    titleEn: text('title_en'),
    attachmentId: uuid('attachment_id')
      .notNull()
      .references(() => attachments.id, { onDelete: 'restrict' }),
    category: text('category', { enum: ['TEMPLATE', 'GUIDE', 'DATA'] }).notNull(),
    audience: text('audience', { enum: ['PUBLIC', 'PARTICIPANT', 'APPROVED'] }).notNull().default('PUBLIC'),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_code_uq').on(t.code).where(sql`${t.code} is not null`),
    index('documents_category_idx').on(t.category, t.sort),
  ],
);

/** Editable site blocks (sign-up guide, home introduction): key -> sanitised HTML. */
export const siteContent = pgTable('site_content', {
  key: text('key').primaryKey(),
  title: text('title').notNull().default(''),
  body: text('body').notNull().default(''),
  titleEn: text('title_en'),
  bodyEn: text('body_en'),
  updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

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
    index('login_records_identifier_trgm_idx').using('gin', sql`${t.identifier} gin_trgm_ops`),
  ],
);

/**
 * Stored files (docs/files.md). `uniqueNo` is the public handle that appears in
 * filePath links; `id` never leaves the server except through it. Content is immutable: a
 * new upload is a new row.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uniqueNo: text('unique_no').notNull(),
    ownerId: uuid('owner_id').references(() => accounts.id, { onDelete: 'set null' }),
    origin: text('origin', { enum: ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER'] }).notNull(),
    originalName: text('original_name').notNull(),
    extension: text('extension').notNull(),
    /** The content type found by reading the file's first bytes, not the client's claim. */
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Readable by anyone (news images, public documents). */
    isPublic: boolean('is_public').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attachments_unique_no_uq').on(t.uniqueNo),
    index('attachments_owner_idx').on(t.ownerId, t.createdAt),
    index('attachments_sha256_idx').on(t.sha256),
  ],
);

/**
 * One row per admin or expert write anywhere in the portal, written in the same transaction as
 * the change. Append-only: no API updates or deletes these.
 */
export const operationRecords = pgTable(
  'operation_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Kept as written so the record still reads well after the account is renamed or removed. */
    username: text('username').notNull(),
    /** Permission-style code of what was done, e.g. `account:disable`, `role:edit`. */
    action: text('action').notNull(),
    /** Kind of thing acted on (`account`, `role`, `dict_item`, ...) and its id. */
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** Human-readable summary of the change (no passwords, no tokens). */
    summary: text('summary').notNull().default(''),
    result: text('result', { enum: ['SUCCESS', 'FAILURE'] }).notNull().default('SUCCESS'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('operation_records_realm_idx').on(t.realm, t.createdAt),
    index('operation_records_account_idx').on(t.accountId, t.createdAt),
    index('operation_records_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
  ],
);

/** A project's place in the final round (FINAL workflow): added by promotion or by hand, removed with a reason. */
export const finalEntries = pgTable(
  'final_entries',
  {
    prelimId: uuid('prelim_id')
      .primaryKey()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['IN', 'OUT'] }).notNull(),
    reason: text('reason'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('final_entries_status_ck', sql`${t.status} in ('IN', 'OUT')`), index('final_entries_status_idx').on(t.status, t.updatedAt)],
);

/** Reminders sent to a team about its draft: at most one per subject per Beijing day (unique). */
export const reminders = pgTable(
  'reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** Beijing calendar day of the reminder. */
    day: date('day', { mode: 'string' }).notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    sms: boolean('sms').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('reminders_subject_day_uq').on(t.subjectType, t.subjectId, t.day)],
);

/**
 * Notices for channels outside the database (SMS now, email later), written in the same
 * transaction as the change they report and sent after commit by the outbox dispatcher, which
 * claims rows with SKIP LOCKED: a notice exists exactly when its change does, and is sent once.
 */
export const noticeOutbox = pgTable(
  'notice_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['SMS', 'EMAIL'] }).notNull(),
    recipient: text('recipient').notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    templateKey: text('template_key').notNull(),
    params: jsonb('params').$type<string[]>().notNull().default([]),
    text: text('text').notNull(),
    /** Email subject (EMAIL only). */
    subject: text('subject'),
    /** The bulk send this delivery belongs to (短信管理, email): one row per recipient and channel. */
    batchId: uuid('batch_id'),
    /** What the provider answered (message id, or its refusal), kept per phone/address. */
    providerAnswer: text('provider_answer'),
    status: text('status', { enum: ['QUEUED', 'SENDING', 'SENT', 'FAILED'] }).notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('notice_outbox_status_ck', sql`${t.status} in ('QUEUED', 'SENDING', 'SENT', 'FAILED')`),
    index('notice_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // A bulk send delivers once per recipient and channel, however often its job is restarted.
    uniqueIndex('notice_outbox_batch_recipient_uq').on(t.batchId, t.accountId, t.channel).where(sql`${t.batchId} is not null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Expert review (docs/rules/review.md). A "project" is a preliminary-materials row
// (prelim_docs.id) in both rounds; the final round's projects are those with a final entry IN.

const roundCheck = (col: unknown) => sql`${col} in ('PRELIMINARY', 'FINAL')`;

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

/** A round's rubric: criteria in order. The scoring rule lives in settings (`review.rules`). */
export interface RubricCriterion {
  key: string;
  name: string;
  description: string;
  max: number;
}

export const rubrics = pgTable(
  'rubrics',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).primaryKey(),
    criteria: jsonb('criteria').$type<RubricCriterion[]>().notNull(),
    version: integer('version').notNull().default(1),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [check('rubrics_round_ck', roundCheck(t.round))],
);

export const reviewGroups = pgTable(
  'review_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('review_groups_round_ck', roundCheck(t.round)), uniqueIndex('review_groups_round_name_uq').on(t.round, t.name)],
);

/** An expert sits in at most one group per round (unique on round + expert). */
export const reviewGroupExperts = pgTable(
  'review_group_experts',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => reviewGroups.id, { onDelete: 'cascade' }),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.expertId] }),
    uniqueIndex('review_group_experts_round_expert_uq').on(t.round, t.expertId),
    check('review_group_experts_round_ck', roundCheck(t.round)),
  ],
);

/** A project's place in a round: one group per round (unique on round + project), with why. */
export const reviewAssignments = pgTable(
  'review_assignments',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => reviewGroups.id, { onDelete: 'restrict' }),
    /** AUTO (with the algorithm's reason) or MANUAL (with the admin's). */
    source: text('source', { enum: ['AUTO', 'MANUAL'] }).notNull(),
    reason: text('reason').notNull().default(''),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.round, t.prelimId] }),
    index('review_assignments_group_idx').on(t.groupId),
    check('review_assignments_round_ck', roundCheck(t.round)),
  ],
);

/** Re-review (复评): an expert added to one project beyond its group, with the admin's reason. */
export const reviewExtraExperts = pgTable(
  'review_extra_experts',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.round, t.prelimId, t.expertId] }), index('review_extra_experts_expert_idx').on(t.expertId, t.round)],
);

/**
 * One expert's score of one project in one round (SHEET workflow: DRAFT, SUBMITTED, RETURNED).
 * `scores` maps criterion keys to points (0.5 steps); `total` is their sum, kept for ranking.
 * A returned sheet keeps its content until the expert saves again; every submitted version is
 * copied to score_sheet_revisions first, so no score is ever overwritten.
 */
export const scoreSheets = pgTable(
  'score_sheets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['DRAFT', 'SUBMITTED', 'RETURNED'] }).notNull(),
    scores: jsonb('scores').$type<Record<string, number>>().notNull().default({}),
    total: integer('total_half_points'),
    comment: text('comment').notNull().default(''),
    returnReason: text('return_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('score_sheets_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'RETURNED')`),
    check('score_sheets_round_ck', roundCheck(t.round)),
    uniqueIndex('score_sheets_round_project_expert_uq').on(t.round, t.prelimId, t.expertId),
    index('score_sheets_expert_idx').on(t.expertId, t.round, t.status),
    index('score_sheets_round_status_idx').on(t.round, t.status),
  ],
);

/** Every submitted version of a sheet, written when it is returned (re-review keeps the history). */
export const scoreSheetRevisions = pgTable(
  'score_sheet_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sheetId: uuid('sheet_id')
      .notNull()
      .references(() => scoreSheets.id, { onDelete: 'cascade' }),
    scores: jsonb('scores').$type<Record<string, number>>().notNull(),
    total: integer('total_half_points').notNull(),
    comment: text('comment').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    returnedAt: timestamp('returned_at', { withTimezone: true }).notNull().defaultNow(),
    returnedBy: uuid('returned_by').references(() => accounts.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
  },
  (t) => [index('score_sheet_revisions_sheet_idx').on(t.sheetId, t.returnedAt)],
);

/**
 * A promotion to the final round, kept as it was decided: the rule, N, the whole ranking at that
 * moment and who went, so later score changes never silently change who advanced.
 */
export const promotions = pgTable('promotions', {
  id: uuid('id').primaryKey().defaultRandom(),
  mode: text('mode', { enum: ['TOP_OVERALL', 'TOP_PER_TRACK', 'PICKED'] }).notNull(),
  n: integer('n'),
  rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
  ranking: jsonb('ranking').$type<unknown[]>().notNull(),
  promotedIds: jsonb('promoted_ids').$type<string[]>().notNull(),
  actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
  actorName: text('actor_name').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------
// Messaging (docs/rules/content.md): one template model for the three channels, bulk
// sends, and durable jobs.

export type Channel = 'INSITE' | 'SMS' | 'EMAIL';

/**
 * A message template: an event notice (`code` = the event, e.g. TEAM_APPROVED, one per event) or
 * a template for bulk sends (code null). The body names variables ({teamName}, {reason}, ...)
 * checked against the variables its event offers.
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code'),
    name: text('name').notNull(),
    channels: jsonb('channels').$type<Channel[]>().notNull().default(['INSITE']),
    /** In-site title and email subject. */
    subject: text('subject').notNull().default(''),
    body: text('body').notNull().default(''),
    /** SMS text (short) and the gateway's template id. */
    smsText: text('sms_text').notNull().default(''),
    smsTemplateId: text('sms_template_id'),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(1),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('message_templates_code_uq').on(t.code).where(sql`${t.code} is not null`)],
);

/** A bulk send (短信管理, 站内信管理, email): what, to whom (segment), how far it got. */
export const messageBatches = pgTable(
  'message_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['INSITE', 'SMS', 'EMAIL'] }).notNull(),
    templateId: uuid('template_id').references(() => messageTemplates.id, { onDelete: 'set null' }),
    title: text('title').notNull().default(''),
    body: text('body').notNull().default(''),
    /** The recipients' description: { kind: 'ALL' | 'TEAM_STATUS' | 'PRELIM_STATUS' | 'TRACK' | 'ACCOUNTS', values: [...] }. */
    segment: jsonb('segment').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull().default(0),
    status: text('status', { enum: ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED'] }).notNull().default('QUEUED'),
    jobId: uuid('job_id'),
    senderId: uuid('sender_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('message_batches_status_ck', sql`${t.status} in ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED')`),
    index('message_batches_channel_idx').on(t.channel, t.createdAt),
  ],
);

/**
 * Durable background jobs (docs/decisions.md, "Jobs, templates and email"): claimed with FOR UPDATE SKIP LOCKED, so one instance
 * runs each; a running job whose heartbeat stopped (process killed) is claimed again and resumes
 * from its own records (per-recipient idempotency lives in the work, e.g. notice_outbox's unique
 * batch + recipient + channel).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] }).notNull().default('QUEUED'),
    /** Units done of total (recipients, rows...), for progress bars. */
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** At most one live job per key (e.g. the daily upload sweep). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('jobs_status_ck', sql`${t.status} in ('QUEUED', 'RUNNING', 'DONE', 'FAILED')`),
    index('jobs_due_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_uq').on(t.dedupeKey).where(sql`${t.dedupeKey} is not null and ${t.status} in ('QUEUED', 'RUNNING')`),
  ],
);

/**
 * Short-lived shared state (captcha nonces, SMS resend windows and daily caps) when no Redis is
 * configured (lib/kv-store.ts, createDbKvStore): kept here rather than in memory so a restart
 * does not reset the limits. Expired rows are ignored on read and removed by the kv.sweep job.
 */
export const kvStore = pgTable(
  'kv_store',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('kv_store_expires_idx').on(t.expiresAt)],
);

// ---------------------------------------------------------------------------------------------
// Tamper-evident score log (docs/rules/results.md, "Score log"): every score submission, return, re-review,
// promotion and publication appended in order; each entry carries the hash of the one before it,
// so an edit or deletion anywhere breaks the chain from that entry on.

export const scoreLog = pgTable(
  'score_log',
  {
    /** Position in the chain: 1, 2, 3... with no gaps (appends are serialised). */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** Canonical form version: 1 hashed actorName; 2 (written since 0012) hashes v, not the name. */
    v: smallint('v').notNull().default(1),
    /** What happened: SCORE_SUBMITTED, SCORE_RETURNED, REREVIEW, PROMOTION, PUBLICATION, APPEAL_DECIDED... */
    kind: text('kind').notNull(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    /** The facts recorded (scores, reason, ids...), as hashed: canonical JSON. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Hex SHA-256 of the previous entry ('' … 64 zeros for the first). */
    prevHash: text('prev_hash').notNull(),
    /** Hex SHA-256 over prevHash and this entry's canonical fields. */
    hash: text('hash').notNull(),
  },
  (t) => [index('score_log_subject_idx').on(t.subjectType, t.subjectId), index('score_log_kind_idx').on(t.kind, t.round)],
);

/**
 * Published heads of the score log (docs/security.md): the chain head (seq and hash) and the RFC 9162
 * Merkle root over entries 1..seq, printed in the 公示 notice of a result version. Verification
 * recomputes both; a later rewrite, even of the whole chain, no longer matches.
 */
export const scoreLogAnchors = pgTable(
  'score_log_anchors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    resultVersionId: uuid('result_version_id').notNull(),
    version: integer('version').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    headHash: text('head_hash').notNull(),
    merkleRoot: text('merkle_root').notNull(),
    newsId: uuid('news_id'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('score_log_anchors_version_uq').on(t.resultVersionId), index('score_log_anchors_seq_idx').on(t.seq)],
);

// ---------------------------------------------------------------------------------------------
// Results publication (公示) and appeals (docs/rules/results.md). A round's result is published
// as version 1 and corrected by later versions after re-review; every version is kept with the
// rule it was built with and each project's line as published.

/** The rule a version was built with (ResultRuleSnapshot of @contest/shared). */
export type ResultRuleJson = Record<string, unknown>;

export const resultVersions = pgTable(
  'result_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    /** 1, 2, 3... per round. */
    version: integer('version').notNull(),
    /** Exactly one PUBLISHED (current) version per published round; earlier ones SUPERSEDED. */
    status: text('status', { enum: ['PUBLISHED', 'SUPERSEDED'] }).notNull(),
    rule: jsonb('rule').$type<ResultRuleJson>().notNull(),
    /** Why a later version was published (null for version 1). */
    reason: text('reason'),
    /** The public notice in 大赛动态. */
    newsId: uuid('news_id').references(() => news.id, { onDelete: 'set null' }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    /** End of the 公示 period and of the appeal window this version started. */
    periodEndsAt: timestamp('period_ends_at', { withTimezone: true }).notNull(),
    appealEndsAt: timestamp('appeal_ends_at', { withTimezone: true }).notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    check('result_versions_round_ck', roundCheck(t.round)),
    check('result_versions_status_ck', sql`${t.status} in ('PUBLISHED', 'SUPERSEDED')`),
    uniqueIndex('result_versions_round_version_uq').on(t.round, t.version),
    // Two publications racing: one current version per round whatever the application checks.
    uniqueIndex('result_versions_round_current_uq').on(t.round).where(sql`${t.status} = 'PUBLISHED'`),
  ],
);

/** One project's line of a version, names as they were when published. */
export const resultEntries = pgTable(
  'result_entries',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => resultVersions.id, { onDelete: 'cascade' }),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    projectName: text('project_name').notNull(),
    teamName: text('team_name').notNull(),
    orgName: text('org_name').notNull(),
    track: text('track'),
    rank: integer('rank'),
    trackRank: integer('track_rank'),
    /** The rule score rounded to 2 decimals (what the console shows and ranks by). */
    score: doublePrecision('score'),
    /** PROMOTED / NOT_PROMOTED (preliminary), AWARDED / NONE (final). */
    outcome: text('outcome', { enum: ['PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE'] }).notNull(),
    awardCode: text('award_code'),
    awardName: text('award_name'),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.prelimId] }),
    check('result_entries_outcome_ck', sql`${t.outcome} in ('PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE')`),
    index('result_entries_prelim_idx').on(t.prelimId),
    index('result_entries_team_idx').on(t.teamId),
  ],
);

export interface AppealRereviewJson {
  mode: 'RETURN_SCORES' | 'ADD_EXPERTS';
  expertIds: string[];
}

/**
 * A team's appeal against a round's published result: one per team and round (unique), filed
 * during the appeal window, answered by admins (reject, or accept and re-review); RESOLVED when
 * a new version of the result is published after its re-review.
 */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    /** The version appealed against (its number is kept too, for lists). */
    resultVersionId: uuid('result_version_id')
      .notNull()
      .references(() => resultVersions.id, { onDelete: 'restrict' }),
    resultVersion: integer('result_version').notNull(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    /** The participant account that filed it. */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    status: text('status', { enum: ['SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED'] }).notNull().default('SUBMITTED'),
    reply: text('reply'),
    rereview: jsonb('rereview').$type<AppealRereviewJson | null>(),
    decidedBy: uuid('decided_by').references(() => accounts.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The organisers answer by then (the end of the version's 公示 period). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    resolvedVersion: integer('resolved_version'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Raised by every write: a decision names the version it saw (STALE otherwise). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('appeals_round_ck', roundCheck(t.round)),
    check('appeals_status_ck', sql`${t.status} in ('SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED')`),
    // One appeal per team and round, also when two are sent at once.
    uniqueIndex('appeals_round_team_uq').on(t.round, t.teamId),
    index('appeals_status_due_idx').on(t.status, t.dueAt),
    index('appeals_round_created_idx').on(t.round, t.createdAt),
    index('appeals_prelim_idx').on(t.prelimId),
  ],
);
