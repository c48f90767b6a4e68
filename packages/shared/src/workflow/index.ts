export * from './workflow.js';
export * from './contest-workflows.js';
