// Team sign-up and preliminary materials: field rules, statuses, phase windows (docs/rules/team.md, docs/rules/prelim.md).
export * from './messages.js';
export * from './status.js';
export * from './credit-code.js';
export * from './phases.js';
export * from './pdf-count.js';
export * from './form-fields.js';
export * from './team.js';
export * from './prelim.js';
export * from './audit.js';
export * from './admin.js';
