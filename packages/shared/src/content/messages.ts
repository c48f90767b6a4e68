/**
 * Texts of the content calls (docs/api-content.md): news, site blocks, documents, in-site messages and
 * feedback. Validation texts join the catalogue of `isUserMessage`, so they are shown as written.
 */
export const CONTENT_MSG = {
  newsCategoryInvalid: '资讯类别不正确',
  newsNotFound: '资讯不存在或已下线',
  siteKeyInvalid: '内容标识不正确',
  siteContentNotFound: '页面内容不存在',
  docCategoryInvalid: '文档类别不正确',
  docCodeRequired: '请指定模板编码',
  docCodeInvalid: '模板编码不正确',
  templateNotFound: '模板文件不存在',
  documentNotFound: '文档不存在',
  messageOrderInvalid: '排序方式不正确',
  messageNotFound: '消息不存在',
  allRead: '已全部标记为已读',
  feedbackTypeRequired: '请选择反馈类型',
  feedbackTypeInvalid: '反馈类型不正确',
  feedbackContentRequired: '请输入反馈内容',
  feedbackContentTooLong: '反馈内容不能超过 1000 个字符',
  feedbackContactTooLong: '联系方式不能超过 100 个字符',
  feedbackAttachmentsTooMany: '附件最多 3 个',
  feedbackAttachmentInvalid: '附件不存在或不可使用',
  feedbackStatusInvalid: '反馈状态不正确',
  feedbackNotFound: '反馈不存在',
  feedbackSent: '反馈已提交',
  replyRequired: '请输入回复内容',
  replyTooLong: '回复内容不能超过 2000 个字符',
  replied: '回复成功',
} as const;
