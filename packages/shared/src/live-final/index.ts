export * from './messages.js';
export * from './workflow.js';
export * from './api.js';
