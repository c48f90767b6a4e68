/**
 * Every table, for the few places that need them all: the database client, drizzle-kit (migrations),
 * the seed, the operator's commands and tests. Each table lives in the file of its owning module
 * (schema/<module>.ts); a module imports only its own file (docs/architecture.md, "Database").
 */
export * from './schema/auth.js';
export * from './schema/admin.js';
export * from './schema/dictionary.js';
export * from './schema/settings.js';
export * from './schema/news.js';
export * from './schema/team.js';
export * from './schema/prelim.js';
export * from './schema/workflow.js';
export * from './schema/messages.js';
export * from './schema/feedback.js';
export * from './schema/documents.js';
export * from './schema/site-content.js';
export * from './schema/experts.js';
export * from './schema/files.js';
export * from './schema/audit.js';
export * from './schema/final-entries.js';
export * from './schema/notices.js';
export * from './schema/review.js';
export * from './schema/templates.js';
export * from './schema/broadcast.js';
export * from './schema/lib.js';
export * from './schema/score-log.js';
export * from './schema/results.js';
export * from './schema/live-final.js';
export * from './schema/certificates.js';
export * from './schema/retention.js';
