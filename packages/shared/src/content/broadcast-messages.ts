/**
 * Texts of bulk sends (短信管理, 站内信管理, email; docs/rules/content.md), joined to the catalogue of
 * `isUserMessage`. A file of its own (no zod) so the catalogue stays light. Refusals carry a
 * stable `data.reason` where the console acts on them (`RECALLED`, `NOT_INSITE`, `NO_RECIPIENTS`).
 */
export const BROADCAST_MSG = {
  segmentRequired: '请选择发送对象',
  segmentKindInvalid: '发送对象类型不正确',
  segmentValuesRequired: '请选择发送对象的范围',
  segmentStatusInvalid: '报名或材料状态不正确',
  segmentTrackInvalid: '参赛方向不正确',
  segmentAccountInvalid: '指定的用户不正确',
  segmentAccountsTooMany: '指定用户最多 1000 个',
  segmentResultInvalid: '评审结果不正确',
  titleRequired: '请输入标题',
  titleTooLong: '标题不能超过 100 个字符',
  bodyRequired: '请输入内容',
  bodyTooLong: '内容不能超过 5000 个字符',
  smsTextRequired: '请输入短信内容',
  smsTextTooLong: '短信内容不能超过 500 个字符',
  templateInvalid: '模板不存在或不能用于群发',
  templateChannelMismatch: '该模板不支持此发送方式',
  variableUnknown: '内容中有不支持的变量',
  noRecipients: '没有符合条件的接收人',
  channelInvalid: '发送方式不正确',
  statusInvalid: '状态不正确',
  batchNotFound: '发送记录不存在',
  notInsite: '只有站内信可以撤回',
  alreadyRecalled: '该消息已撤回',
  sent: '已提交发送，正在后台发送',
  recalled: '已撤回',
  /** Recorded on a phone's record (not sent) when the phone reached the daily cap of the SMS module. */
  dailyCapReached: '该手机号今日短信已达上限，未发送',
} as const;
