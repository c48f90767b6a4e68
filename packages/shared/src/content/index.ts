// News, site content, documents, in-site messages and feedback (docs/rules/content.md).
// The list of calls is docs/api-content.md.
export * from './messages.js';
export * from './news.js';
export * from './site.js';
export * from './documents.js';
export * from './document-messages.js';
export * from './inbox.js';
export * from './feedback.js';
export * from './broadcast.js';
export * from './templates.js';
export * from './template-english.js';
