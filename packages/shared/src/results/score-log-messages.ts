/**
 * Texts of the 评分存证 calls (docs/rules/results.md), kept apart from zod (score-log.ts) so the message
 * catalogue of `isUserMessage` stays light.
 */
export const SCORE_LOG_MSG = {
  kindInvalid: '记录类型不正确',
  roundInvalid: '评审轮次不正确',
  seqInvalid: '序号应为正整数',
  subjectIdTooLong: '对象编号不能超过 100 个字符',
  formatInvalid: '导出格式只能是 xlsx 或 jsonl',
} as const;
