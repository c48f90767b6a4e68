/**
 * Texts of results publication (公示) and appeals (docs/rules/results.md): refusals, success
 * toasts and the names of outcomes. Shared so the server and the web say the same thing; joined
 * to the catalogue of `isUserMessage` (shown as written).
 */
export const RESULTS_MSG = {
  roundInvalid: '评审轮次不正确',
  // Publication
  notPublished: '本轮结果尚未发布',
  alreadyPublished: '本轮结果已发布；如需更正，请在复评完成后发布新版本',
  noPromotion: '尚未确认晋级决赛名单，不能发布初赛结果',
  finalNoProjects: '决赛还没有参赛项目，不能发布决赛结果',
  finalIncomplete: '决赛还有项目未完成评分，不能发布决赛结果',
  awardsRequired: '请设置奖项',
  awardsModeInvalid: '奖项设置方式不正确',
  awardLevelsRequired: '请至少设置 1 个奖项等级',
  awardLevelsTooMany: '奖项等级最多 10 个',
  awardNameRequired: '请输入奖项名称',
  awardNameTooLong: '奖项名称不能超过 20 个字符',
  awardNameDuplicate: '奖项名称不能重复',
  awardCountInvalid: '获奖名额应为 1 到 1000 的整数',
  awardCountMissing: '除最后一个奖项外，每个奖项都要设置名额',
  awardMinScoreInvalid: '分数线应为 0 到 100 之间的数，最多两位小数',
  awardMinScoreOrder: '分数线应从高到低排列，且不能重复',
  awardsNotForPrelim: '初赛结果按晋级名单发布，不设奖项',
  promotionNInvalid: '晋级名额应为 1 到 1000 的整数',
  promotionModeInvalid: '晋级方式不正确',
  published: '结果已发布，公示期开始',
  // New versions
  versionReasonRequired: '请填写发布新版本的原因',
  versionReasonTooLong: '原因不能超过 500 个字符',
  rereviewUnfinished: '复评尚未完成，不能发布新版本',
  versionPublished: '新版本已发布',
  versionNotFound: '结果版本不存在',
  compareSame: '请选择两个不同的版本进行对比',
  versionInvalid: '版本号应为正整数',
  outcomeInvalid: '公示结果类型不正确',
  flagInvalid: '筛选条件只能是 true 或 false',
  finalHasScores: '以下项目已有决赛评分，不能因更正初赛结果移出决赛；请调整晋级规则',
  // Participant appeals
  appealReasonRequired: '请填写申诉理由',
  appealReasonTooLong: '申诉理由不能超过 1000 个字符',
  appealAttachmentsTooMany: '申诉附件最多 3 个',
  appealAttachmentInvalid: '附件无效，请重新上传',
  appealNotPublished: '本轮结果尚未公示，不能提交申诉',
  appealNotInRound: '您的项目不在本轮公示结果中，不能提交申诉',
  appealClosed: '申诉期已结束，不能提交申诉',
  appealAlready: '本轮您已提交过申诉，每轮只能申诉一次',
  appealSubmitted: '申诉已提交，请等待处理',
  // Admin on appeals
  appealNotFound: '申诉不存在',
  appealStatusInvalid: '申诉状态不正确',
  appealDecided: '该申诉已处理',
  appealReplyRequired: '请填写答复意见',
  appealReplyTooLong: '答复意见不能超过 1000 个字符',
  appealVersionRequired: '缺少申诉的版本号，请刷新后重试',
  appealModeInvalid: '请选择复评方式',
  appealExpertsRequired: '请选择复评专家',
  appealRejected: '申诉已驳回，已通知参赛团队',
  appealAccepted: '申诉已受理，项目已进入复评',
  appealReviewClosed: '本轮评审时间已结束，专家无法复评；请先在大赛设置中调整评审时间',
  // Score receipts (docs/security.md)
  receiptNotFound: '未找到本队的存证回执',
  receiptNoAnchor: '本轮公示未附存证链头，无法生成回执',
} as const;

/** What a project's line of a published result says (the team's page, the notice, the compare). */
export const RESULT_OUTCOME_NAMES = {
  PROMOTED: '晋级决赛',
  NOT_PROMOTED: '未晋级决赛',
  AWARDED: '获奖',
  NONE: '未获奖',
} as const;

export const APPEAL_STATUS_NAMES = {
  SUBMITTED: '待处理',
  REJECTED: '已驳回',
  ACCEPTED: '复评中',
  RESOLVED: '已完结',
} as const;

export const RESULT_VERSION_STATUS_NAMES = { PUBLISHED: '当前版本', SUPERSEDED: '已被更正' } as const;

export const APPEAL_REREVIEW_MODE_NAMES = { RETURN_SCORES: '退回全部评分重新评审', ADD_EXPERTS: '增加复评专家' } as const;
