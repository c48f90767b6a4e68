// File rules shared by the uploader, the preview dialog and the server (docs/files.md, docs/uploader.md).
export * from './upload-rules.js';
export * from './preview-types.js';
export * from './speed-test.js';
export * from './direct-upload.js';
