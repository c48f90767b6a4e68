/**
 * Texts of the dictionary's English names (docs/rules/admin.md, "Data dictionary"), joined to the catalogue of `isUserMessage`.
 * A file of its own (no zod) so the catalogue does not pull schemas into the web app's first load.
 */
export const DICT_MSG = {
  dictNameEnTooLong: '英文名称不能超过 100 个字符',
} as const;
