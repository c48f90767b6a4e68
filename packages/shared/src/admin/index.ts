// Admin console call schemas and answer types shared by the server and the web app (docs/rules/admin.md).
// The list of calls, with permissions, is docs/api-admin.md.
export * from './messages.js';
export * from './common.js';
export * from './list-query.js';
export * from './accounts.js';
export * from './roles.js';
export * from './dictionary.js';
export * from './users.js';
export * from './audit.js';
export * from './dashboard.js';
export * from './settings.js';
export * from './pii.js';
export * from './reach.js';
