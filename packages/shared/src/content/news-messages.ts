/**
 * Texts of news administration (新闻资讯, docs/rules/content.md), joined to the catalogue of `isUserMessage`.
 * Refusals carry `data.field` (the form field) or `data.reason`: `STALE` (someone saved the
 * article after the admin opened it) or `NOT_PUBLISHED` (offline of an article not published).
 * A file of its own (no zod) so the catalogue stays light.
 */
export const NEWS_MSG = {
  newsMissing: '资讯不存在',
  newsCategoryRequired: '请选择资讯类别',
  newsTitleRequired: '请输入标题',
  newsTitleTooLong: '标题不能超过 100 个字符',
  newsTitleEnTooLong: '英文标题不能超过 100 个字符',
  newsSummaryTooLong: '摘要不能超过 300 个字符',
  newsSummaryEnTooLong: '英文摘要不能超过 300 个字符',
  newsBodyTooLong: '正文内容过长',
  newsBodyRequired: '请先填写正文再发布',
  newsSourceTooLong: '来源不能超过 50 个字符',
  newsPublishAtInvalid: '发布时间格式不正确',
  newsCoverInvalid: '封面图片不存在或不可使用',
  newsPinnedInvalid: '置顶参数不正确',
  newsStatusInvalid: '资讯状态不正确',
  newsVersionRequired: '缺少版本信息，请刷新后重试',
  newsStale: '该资讯已被他人修改，请刷新后重试',
  newsNotPublished: '只有已发布的资讯可以下线',
  newsCreated: '新增成功',
  newsSaved: '保存成功',
  newsPublished: '发布成功',
  newsScheduled: '已设置定时发布',
  newsOfflined: '已下线',
  newsPinned: '已置顶',
  newsUnpinned: '已取消置顶',
  newsDeleted: '删除成功',
} as const;
