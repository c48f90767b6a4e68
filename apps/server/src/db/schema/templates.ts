import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/templates (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

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
    /**
     * English texts for accounts whose language is English (docs/decisions.md, "English"). NULL:
     * never set, the event's English default applies; '': removed, the Chinese is sent.
     */
    subjectEn: text('subject_en'),
    bodyEn: text('body_en'),
    smsTextEn: text('sms_text_en'),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(1),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('message_templates_code_uq').on(t.code).where(sql`${t.code} is not null`)],
);
