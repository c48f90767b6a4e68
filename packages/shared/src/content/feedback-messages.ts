/**
 * Texts of feedback administration (docs/rules/content.md, "Feedback"), joined to the catalogue of `isUserMessage`.
 * Refusals carry `data.reason`: `CLOSED` (the feedback was closed) or `STALE` (someone replied
 * after the admin opened it). A file of its own (no zod) so the catalogue stays light.
 */
export const FEEDBACK_MSG = {
  feedbackClosed: '该反馈已关闭，不能再回复',
  feedbackAlreadyClosed: '该反馈已关闭',
  feedbackReplyStale: '该反馈已有新的回复，请刷新后查看',
  lastRepliedAtInvalid: '回复时间格式不正确',
  feedbackClosedOk: '已关闭',
} as const;
