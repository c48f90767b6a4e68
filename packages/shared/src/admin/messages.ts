/**
 * Texts of the admin console's calls (docs/api-admin.md): validation messages shown under form fields
 * and business-rule refusals shown in the console's error toast. Shared so the server and the
 * web forms say the same thing.
 */
export const ADMIN_MSG = {
  // Paging and filters
  pageInvalid: '页码应为正整数',
  sizeInvalid: '每页条数应为 1-100 之间的整数',
  dateInvalid: '日期格式应为 YYYY-MM-DD',
  dateTimeInvalid: '时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss',
  monthInvalid: '月份格式应为 YYYY-MM',
  dateRangeInvalid: '开始时间不能晚于结束时间',
  enabledInvalid: '状态只能是 true 或 false',
  keywordTooLong: '搜索内容不能超过 50 个字符',
  teamStatusInvalid: '报名状态不正确',
  realmInvalid: '账号类型不正确',
  resultInvalid: '结果筛选不正确',
  idInvalid: '编号格式不正确',

  // Accounts (system accounts, registered users, my account)
  nameRequired: '请输入姓名',
  nameTooLong: '姓名不能超过 50 个字符',
  rolesRequired: '请至少选择一个角色',
  rolesTooMany: '角色数量过多',
  accountNotFound: '账号不存在',
  usernameTaken: '该用户名已存在',
  phoneTaken: '该手机号已被其他账号使用',
  emailTaken: '该邮箱已被其他账号使用',
  roleNotFoundInList: '所选角色不存在',
  cannotDisableSelf: '不能禁用自己的账号',
  cannotChangeOwnRoles: '不能修改自己的角色',
  cannotResetSelf: '不能重置自己的密码，请在“我的账号”中修改密码',
  lastSuperAdmin: '至少需要保留一个启用的超级管理员',
  superAdminOnly: '只有超级管理员可以授予、移除或管理超级管理员',
  accountOutOfReach: '该账号拥有或将拥有您没有的权限，不能进行此操作',
  userNotFound: '注册用户不存在',
  exportTooLarge: '导出数据超过 50000 条，请缩小筛选范围',

  // Personal information (docs/rules/admin.md, "Personal information"): the reveal call and masked values sent back
  piiKindInvalid: '个人信息类型不正确',
  piiRecordNotFound: '记录不存在',
  piiMaskedValue: '请填写完整的信息，不能提交脱敏后的内容',

  // Roles
  roleCodeRequired: '请输入角色编码',
  roleCodeFormat: '角色编码只能包含大写字母、数字和下划线，以字母开头，2-32 位',
  roleNameRequired: '请输入角色名称',
  roleNameTooLong: '角色名称不能超过 30 个字符',
  roleDescriptionTooLong: '角色描述不能超过 200 个字符',
  roleCodeTaken: '该角色编码已存在',
  roleNameTaken: '该角色名称已存在',
  roleNotFound: '角色不存在',
  roleBuiltin: '内置角色不能修改或删除',
  roleInUse: '该角色已分配给账号，请先取消分配再删除',
  unknownMenuCodes: '存在无效的菜单编码',
  unknownButtonCodes: '存在无效的按钮编码',
  codesTooMany: '权限编码数量过多',
  roleHeldBySelf: '不能修改或删除自己所属的角色，请联系其他管理员',
  roleGrantExceedsOwn: '不能授予自己没有的菜单或按钮权限',
  roleExceedsOwn: '该角色含有您没有的权限，不能修改或删除',

  // Data dictionary
  dictTypeCodeRequired: '请输入字典类型编码',
  dictTypeCodeFormat: '字典类型编码只能包含大写字母、数字和下划线，以字母开头，2-40 位',
  dictTypeNameRequired: '请输入字典类型名称',
  dictItemCodeRequired: '请输入字典项编码',
  dictItemCodeFormat: '字典项编码只能包含字母、数字、下划线和短横线，1-40 位',
  dictItemNameRequired: '请输入字典项名称',
  dictNameTooLong: '名称不能超过 50 个字符',
  sortInvalid: '排序应为 0-9999 之间的整数',
  dictTypeTaken: '该字典类型编码已存在',
  dictItemTaken: '该字典类型下已存在相同编码的字典项',
  dictTypeNotFound: '字典类型不存在',
  dictItemNotFound: '字典项不存在',
  dictTypeNotEmpty: '字典类型下仍有字典项，不能删除',
  dictTypeBuiltin: '系统内置的字典类型不能删除',
  dictTypesTooMany: '一次最多查询 20 个字典类型',
  dictModuleInvalid: '模块不正确',

  // Success toasts
  saved: '保存成功',
  created: '新增成功',
  deleted: '删除成功',
  enabled: '已启用',
  disabled: '已禁用',
  passwordReset: '密码已重置，请妥善保存新密码（仅显示一次）',
} as const;

const ADMIN_MESSAGES: ReadonlySet<string> = new Set(Object.values(ADMIN_MSG));

/** True for the texts above: the server shows them as they are (see plugins/error-handler.ts). */
export function isAdminMessage(message: string): boolean {
  return ADMIN_MESSAGES.has(message);
}
