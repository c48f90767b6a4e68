/**
 * Texts of 文档管理 and of the site blocks' editor (docs/rules/content.md). Joined to the catalogue of
 * `isUserMessage` (../messages.ts), so the server shows them as written and the console can
 * translate them by text.
 */
export const DOCUMENT_MSG = {
  docTitleRequired: '请输入文档标题',
  docTitleTooLong: '文档标题不能超过 100 个字符',
  docTitleEnTooLong: '英文标题不能超过 100 个字符',
  docFileRequired: '请上传文档文件',
  docFileInvalid: '文档文件不存在或不是文档管理上传的文件',
  docCategoryRequired: '请选择文档类别',
  docAudienceRequired: '请选择可见范围',
  docAudienceInvalid: '可见范围不正确',
  docCodeTaken: '该编码已被其他文档使用',
  docSortInvalid: '排序须为 0 至 9999 的整数',
  docCreated: '文档已新增',
  docSaved: '文档已保存',
  docEnabled: '文档已启用',
  docDisabled: '文档已禁用',
  docDeleted: '文档已删除',
  siteTitleTooLong: '标题不能超过 100 个字符',
  siteTitleEnTooLong: '英文标题不能超过 100 个字符',
  siteBodyTooLong: '内容不能超过 100000 个字符',
  siteBodyEnTooLong: '英文内容不能超过 100000 个字符',
  siteFieldInvalid: '站点内容格式不正确',
  siteSaved: '站点内容已保存',
} as const;
