export * from './messages.js';
export * from './rubric.js';
export * from './access.js';
export * from './organisation.js';
export * from './blind.js';
export * from './assign.js';
export * from './aggregate.js';
export * from './api.js';
