// File rules shared by the uploader, the preview dialog and the server (issue 4).
export * from './upload-rules.js';
export * from './preview-types.js';
export * from './speed-test.js';
