/**
 * Texts of the live final (现场答辩, docs/live-final.md): planning, the chair's console, the judges'
 * phones and the big screen. Shared so the server and the web say the same thing; joined to the
 * catalogue of `isUserMessage`. Every refusal also carries a stable `data.reason` key
 * (`LIVE_REFUSALS` below) so the web never matches on text.
 */
export const LIVE_MSG = {
  // Planning (决赛管理 > 现场答辩)
  sessionNotFound: '答辩场次不存在',
  sessionNameRequired: '请输入场次名称',
  sessionNameTooLong: '场次名称不能超过 50 个字符',
  venueRequired: '请输入答辩地点',
  venueTooLong: '答辩地点不能超过 100 个字符',
  dateInvalid: '请选择答辩日期',
  startTimeInvalid: '开始时间格式应为 HH:mm',
  presentationMinutesInvalid: '陈述时间应为 1 到 60 分钟的整数',
  qaMinutesInvalid: '答辩提问时间应为 0 到 60 分钟的整数',
  judgesRequired: '请至少选择 1 名评委',
  judgesTooMany: '一个场次最多 50 名评委',
  judgeNotFinal: '所选评委不是决赛评审专家或已禁用',
  judgesLocked: '场次已开始，不能再调整评委',
  projectsTooMany: '一个场次最多 200 个项目',
  projectNotFinal: '所选项目不在决赛中',
  projectInOtherSession: '所选项目已安排在其他答辩场次',
  projectDuplicate: '项目不能重复',
  projectStarted: '已开始答辩的项目不能移出场次或调整到未开始项目之后',
  groupNotFound: '决赛评审分组不存在',
  sessionNotPlanned: '场次已开始，不能删除',
  sessionEnded: '场次已结束',
  sessionSaved: '答辩场次已保存',
  sessionDeleted: '答辩场次已删除',
  orderSaved: '答辩顺序已保存',
  // Chair (主持)
  stale: '其他主持人已操作，页面已更新，请确认后重试',
  sessionNotLive: '场次尚未开始答辩',
  anotherActive: '当前还有项目正在答辩或评分，请先完成该项目',
  noCurrent: '当前没有上台项目',
  notCurrent: '只能操作当前上台的项目',
  noNext: '没有待答辩的项目',
  revealFirst: '请先公布当前项目的成绩',
  alreadyPaused: '计时已暂停',
  notPaused: '计时未暂停',
  noJudges: '该项目没有可评分的评委（均回避或未分配），不能开始',
  closeReasonRequired: '尚有评委未提交评分，关闭评分请填写原因',
  reasonTooLong: '原因不能超过 200 个字符',
  returnReasonRequired: '请填写退回原因',
  judgeNotExpected: '该评委不评此项目',
  judgeNotSubmitted: '该评委尚未提交评分',
  actionInvalid: '操作不正确',
  projectNotInSession: '项目不在本场次中',
  // Judges (评委手机)
  notJudge: '您不是本场次的评委',
  notPresenting: '该项目当前不在评分中',
  conflictExcluded: '您与该项目存在利益冲突，已自动回避',
  keyInvalid: '提交编号不正确，请刷新后重试',
  scoreSubmitted: '评分已提交',
  // Big screen (大屏)
  displayNotFound: '大屏链接无效或已撤销',
  displayNameTooLong: '链接名称不能超过 30 个字符',
  displayCreated: '大屏链接已创建',
  displayRevoked: '大屏链接已撤销',
} as const;

/**
 * Stable reason keys in `data.reason` of the refusals above (the workflow core's own are
 * `STALE` and `NOT_ALLOWED`).
 */
export const LIVE_REFUSALS = [
  'STALE',
  'NOT_ALLOWED',
  'NOT_LIVE',
  'ENDED',
  'ANOTHER_ACTIVE',
  'NO_CURRENT',
  'NOT_CURRENT',
  'NO_NEXT',
  'REVEAL_FIRST',
  'PAUSED',
  'NOT_PAUSED',
  'NO_JUDGES',
  'JUDGE_MISSING',
  'JUDGE_NOT_EXPECTED',
  'NOT_SUBMITTED',
  'NOT_JUDGE',
  'NOT_SCORING',
  'CONFLICT',
  'JUDGES_LOCKED',
  'PROJECT_STARTED',
  'IN_OTHER_SESSION',
  'NOT_FINAL',
  'NOT_PLANNED',
] as const;
export type LiveRefusal = (typeof LIVE_REFUSALS)[number];
