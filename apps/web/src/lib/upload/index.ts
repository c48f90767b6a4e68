export * from './upload-types';
export * from './file-checks';
export * from './resume-registry';
export * from './upload-id';
export * from './upload-queue';
export * from './upload-api';
