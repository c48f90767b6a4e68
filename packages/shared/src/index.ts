export * from './constants.js';
export * from './enums.js';
export * from './api.js';
export * from './messages.js';
export * from './file-size.js';
export * from './locale.js';
export * from './admin-menus.js';
export * from './dictionary.js';
