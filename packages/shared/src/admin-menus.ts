/**
 * The admin menu tree and permission buttons (docs/rules/admin.md, "Menus and buttons"). They are data: seeded
 * into the database at install, bundled by roles, and sent to the console by
 * GET /admin/user/account. The web router maps each admin route to one of these codes.
 */
import { ADMIN_MENU_PATHS as P } from './admin-menu-paths.js';

export interface MenuSeed {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  icon?: string;
  children?: readonly MenuSeed[];
}

export const ADMIN_MENUS = [
  { code: 'home', name: '首页', nameEn: 'Home', path: P.home, icon: 'HomeOutlined' },
  { code: 'userTeam', name: '注册用户管理', nameEn: 'Registered users', path: P.userTeam, icon: 'TeamOutlined' },
  {
    code: 'competition', name: '报名管理', nameEn: 'Sign-up', path: P.competition, icon: 'SolutionOutlined',
    children: [
      { code: 'qualificationDraft', name: '报名草稿', nameEn: 'Sign-up drafts', path: P.qualificationDraft },
      { code: 'qualification', name: '资格管理', nameEn: 'Qualification', path: P.qualification },
    ],
  },
  {
    code: 'preliminary', name: '初赛管理', nameEn: 'Preliminary', path: P.preliminary, icon: 'FileTextOutlined',
    children: [
      { code: 'preliminaryBox', name: '初赛草稿', nameEn: 'Preliminary drafts', path: P.preliminaryBox },
      { code: 'preliminarySearch', name: '初赛项目管理', nameEn: 'Preliminary projects', path: P.preliminarySearch },
    ],
  },
  {
    code: 'grade', name: '初赛评审', nameEn: 'Preliminary review', path: P.grade, icon: 'AuditOutlined',
    children: [
      { code: 'databaseExpert', name: '专家库', nameEn: 'Expert accounts', path: P.databaseExpert },
      { code: 'reviewGroup', name: '初赛评审分组', nameEn: 'Preliminary groups', path: P.reviewGroup },
      { code: 'gradeManageGrade', name: '初赛成绩查询', nameEn: 'Preliminary scores', path: P.gradeManageGrade },
      { code: 'scoringMonitoringExpert', name: '初赛评分监控', nameEn: 'Preliminary monitoring', path: P.scoringMonitoringExpert },
    ],
  },
  {
    code: 'final', name: '决赛管理', nameEn: 'Final', path: P.final, icon: 'TrophyOutlined',
    children: [
      { code: 'preliminaryAdminSearch', name: '决赛项目管理', nameEn: 'Final projects', path: P.preliminaryAdminSearch },
      { code: 'reviewAdminGroup', name: '决赛评审分组', nameEn: 'Final groups', path: P.reviewAdminGroup },
      { code: 'gradeManageAdminGrade', name: '决赛成绩查询', nameEn: 'Final scores', path: P.gradeManageAdminGrade },
      { code: 'scoringMonitoringAdminExpert', name: '决赛评分监控', nameEn: 'Final monitoring', path: P.scoringMonitoringAdminExpert },
      // docs/live-final.md: sessions, the chair's console, display links.
      { code: 'liveFinal', name: '现场答辩', nameEn: 'Live final', path: P.liveFinal },
    ],
  },
  {
    // docs/rules/results.md: publication of a round's result, appeals, the tamper-evident log.
    code: 'results', name: '结果公示', nameEn: 'Results', path: P.results, icon: 'NotificationOutlined',
    children: [
      { code: 'resultPublish', name: '结果发布', nameEn: 'Publication', path: P.resultPublish },
      { code: 'appealManage', name: '申诉处理', nameEn: 'Appeals', path: P.appealManage },
      { code: 'scoreLog', name: '评分存证', nameEn: 'Score log', path: P.scoreLog },
      // docs/certificates.md: certificate and letter templates, issuing and downloads.
      { code: 'certificateTemplate', name: '证书模板', nameEn: 'Certificate templates', path: P.certificateTemplate },
      { code: 'certificateManage', name: '证书管理', nameEn: 'Certificates', path: P.certificateManage },
    ],
  },
  {
    code: 'siteContentManage', name: '内容管理', nameEn: 'Site content', path: P.siteContentManage, icon: 'ReadOutlined',
    children: [
      { code: 'siteContentManagement', name: '新闻资讯', nameEn: 'News', path: P.siteContentManagement },
      { code: 'docManage', name: '文档管理', nameEn: 'Documents', path: P.docManage },
    ],
  },
  {
    code: 'information', name: '消息管理', nameEn: 'Messages', path: P.information, icon: 'MessageOutlined',
    children: [
      { code: 'NoteManage', name: '短信管理', nameEn: 'SMS', path: P.NoteManage },
      { code: 'InMailManage', name: '站内信管理', nameEn: 'In-site messages', path: P.InMailManage },
      { code: 'UserFeedback', name: '用户反馈', nameEn: 'Feedback', path: P.UserFeedback },
    ],
  },
  {
    code: 'behaviorAuditing', name: '行为审计', nameEn: 'Auditing', path: P.behaviorAuditing, icon: 'SafetyCertificateOutlined',
    children: [
      { code: 'UserManage', name: '用户账号审计', nameEn: 'Participant audit', path: P.UserManage },
      { code: 'AdminManage', name: '运营账号审计', nameEn: 'Operator audit', path: P.AdminManage },
      { code: 'ExpertManage', name: '专家账号审计', nameEn: 'Expert audit', path: P.ExpertManage },
    ],
  },
  {
    code: 'system', name: '系统管理', nameEn: 'System', path: P.system, icon: 'SettingOutlined',
    children: [
      { code: 'systemManage', name: '系统账号', nameEn: 'System accounts', path: P.systemManage },
      { code: 'roleManage', name: '角色管理', nameEn: 'Roles', path: P.roleManage },
      { code: 'dataField', name: '数据字典', nameEn: 'Data dictionary', path: P.dataField },
      { code: 'systemSettings', name: '大赛设置', nameEn: 'Contest settings', path: P.systemSettings },
      // docs/retention.md: retention periods and runs, participants' personal data requests.
      { code: 'dataRetention', name: '数据保留', nameEn: 'Data retention', path: P.dataRetention },
      { code: 'dataRequests', name: '个人数据申请', nameEn: 'Data requests', path: P.dataRequests },
    ],
  },
  {
    code: 'account', name: '账号管理', nameEn: 'My account', path: P.account, icon: 'UserOutlined',
    children: [{ code: 'accountManage', name: '我的账号', nameEn: 'My account', path: P.accountManage }],
  },
] as const satisfies readonly MenuSeed[];

/** Codes of the admin menu tree, derived from the data above (guards accept only these). */
type CodesOf<T> = T extends readonly (infer M)[] ? (M extends { code: infer C; children?: infer K } ? (C & string) | CodesOf<K> : never) : never;
export type MenuCode = CodesOf<typeof ADMIN_MENUS>;


export interface ButtonSeed {
  code: string;
  name: string;
  menuCode: string;
}

export const ADMIN_BUTTONS = [
  { code: 'user:view', name: '查看注册用户', menuCode: 'userTeam' },
  { code: 'user:disable', name: '禁用/启用注册用户', menuCode: 'userTeam' },
  { code: 'user:reset-password', name: '重置注册用户密码', menuCode: 'userTeam' },
  { code: 'user:export', name: '导出注册用户', menuCode: 'userTeam' },
  { code: 'qualification-draft:remind', name: '提醒提交报名', menuCode: 'qualificationDraft' },
  { code: 'qualification:view', name: '查看报名', menuCode: 'qualification' },
  { code: 'qualification:audit', name: '报名审核', menuCode: 'qualification' },
  { code: 'qualification:export', name: '导出报名', menuCode: 'qualification' },
  { code: 'preliminary-draft:remind', name: '提醒提交初赛材料', menuCode: 'preliminaryBox' },
  { code: 'preliminary:view', name: '查看初赛材料', menuCode: 'preliminarySearch' },
  { code: 'preliminary:audit', name: '初赛材料审核', menuCode: 'preliminarySearch' },
  { code: 'preliminary:export', name: '导出初赛材料', menuCode: 'preliminarySearch' },
  { code: 'expert:edit', name: '新增/编辑专家', menuCode: 'databaseExpert' },
  { code: 'expert:import', name: '导入专家', menuCode: 'databaseExpert' },
  { code: 'expert:disable', name: '禁用/启用专家', menuCode: 'databaseExpert' },
  { code: 'expert:reset-password', name: '重置专家密码', menuCode: 'databaseExpert' },
  { code: 'expert:export', name: '导出专家', menuCode: 'databaseExpert' },
  { code: 'group:edit', name: '编辑评审分组', menuCode: 'reviewGroup' },
  { code: 'score:return', name: '退回评分', menuCode: 'gradeManageGrade' },
  { code: 'score:export', name: '导出成绩', menuCode: 'gradeManageGrade' },
  { code: 'score:cut-confidence', name: '计算晋级线置信度', menuCode: 'gradeManageGrade' },
  { code: 'monitor:remind', name: '提醒专家', menuCode: 'scoringMonitoringExpert' },
  { code: 'final:promote', name: '晋级决赛', menuCode: 'preliminaryAdminSearch' },
  { code: 'final:export', name: '导出决赛项目', menuCode: 'preliminaryAdminSearch' },
  { code: 'final-group:edit', name: '编辑决赛分组', menuCode: 'reviewAdminGroup' },
  { code: 'final-score:return', name: '退回决赛评分', menuCode: 'gradeManageAdminGrade' },
  { code: 'final-score:export', name: '导出决赛成绩', menuCode: 'gradeManageAdminGrade' },
  { code: 'final-score:cut-confidence', name: '计算决赛名次线置信度', menuCode: 'gradeManageAdminGrade' },
  { code: 'final-monitor:remind', name: '提醒决赛专家', menuCode: 'scoringMonitoringAdminExpert' },
  { code: 'live:plan', name: '编排答辩场次', menuCode: 'liveFinal' },
  { code: 'live:chair', name: '主持现场答辩', menuCode: 'liveFinal' },
  { code: 'live:display', name: '管理大屏链接', menuCode: 'liveFinal' },
  { code: 'result:publish', name: '发布结果', menuCode: 'resultPublish' },
  { code: 'appeal:decide', name: '处理申诉', menuCode: 'appealManage' },
  { code: 'score-log:export', name: '导出评分存证', menuCode: 'scoreLog' },
  { code: 'certificate:manage', name: '编辑证书模板', menuCode: 'certificateTemplate' },
  { code: 'certificate:issue', name: '颁发证书', menuCode: 'certificateManage' },
  { code: 'certificate:download', name: '下载证书', menuCode: 'certificateManage' },
  { code: 'news:edit', name: '编辑新闻', menuCode: 'siteContentManagement' },
  { code: 'news:publish', name: '发布/下线新闻', menuCode: 'siteContentManagement' },
  { code: 'news:delete', name: '删除新闻', menuCode: 'siteContentManagement' },
  { code: 'doc:edit', name: '编辑文档', menuCode: 'docManage' },
  { code: 'doc:delete', name: '删除文档', menuCode: 'docManage' },
  { code: 'sms:send', name: '发送短信', menuCode: 'NoteManage' },
  { code: 'sms:template', name: '编辑短信模板', menuCode: 'NoteManage' },
  { code: 'message:send', name: '发送站内信', menuCode: 'InMailManage' },
  { code: 'feedback:reply', name: '回复反馈', menuCode: 'UserFeedback' },
  { code: 'account:edit', name: '新增/编辑系统账号', menuCode: 'systemManage' },
  { code: 'account:disable', name: '禁用/启用系统账号', menuCode: 'systemManage' },
  { code: 'account:reset-password', name: '重置系统账号密码', menuCode: 'systemManage' },
  { code: 'role:edit', name: '新增/编辑角色', menuCode: 'roleManage' },
  { code: 'role:delete', name: '删除角色', menuCode: 'roleManage' },
  { code: 'dict:edit', name: '编辑数据字典', menuCode: 'dataField' },
  { code: 'settings:edit', name: '编辑大赛设置', menuCode: 'systemSettings' },
  { code: 'retention:run', name: '预演/执行数据保留', menuCode: 'dataRetention' },
  { code: 'data-request:decide', name: '处理个人数据申请', menuCode: 'dataRequests' },
  { code: 'file:read', name: '查看参赛附件', menuCode: 'qualification' },
  // Personal information in full (docs/rules/admin.md, "Personal information"): reveal one record's phones, e-mails and
  // credit codes (each reveal recorded) and export them unmasked. Not tied to a page: it hangs on
  // 首页, which every operator has, so granting it opens no other page (a button brings its menu).
  { code: 'pii:view', name: '查看完整个人信息', menuCode: 'home' },
] as const satisfies readonly (ButtonSeed & { menuCode: MenuCode })[];

/** Permission (button) codes, derived from the data above: route guards accept only these. */
export type ButtonCode = (typeof ADMIN_BUTTONS)[number]['code'];
export type PermissionCode = ButtonCode;


/** Depth-first list of every menu node, parents before children. */
export function flattenMenus(menus: readonly MenuSeed[], parentCode: string | null = null) {
  const out: Array<MenuSeed & { parentCode: string | null; sort: number }> = [];
  menus.forEach((menu, index) => {
    out.push({ ...menu, parentCode, sort: index });
    if (menu.children) out.push(...flattenMenus(menu.children, menu.code));
  });
  return out;
}

/** The expert console's menu; the final-review entry is dropped until the agreement is accepted. */
export const EXPERT_MENUS: MenuSeed[] = [
  { code: 'expertIndex', name: '首页', nameEn: 'Home', path: '/expert/index', icon: 'HomeOutlined' },
  { code: 'reviewManage', name: '初赛评审', nameEn: 'Preliminary review', path: '/expert/review-manage', icon: 'AuditOutlined' },
  { code: 'reviewAdminManage', name: '决赛评审', nameEn: 'Final review', path: '/expert/review-admin-manage', icon: 'TrophyOutlined' },
];
export const EXPERT_FINAL_MENU_CODE = 'reviewAdminManage';
