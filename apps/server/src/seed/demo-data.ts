import type { TeamPerson } from '../db/schema.js';

/** Sample content for `--demo`, so a new user can click through every screen. */
export const DEMO_PASSWORD = 'Demo@2025';

export const DEMO_NEWS = [
  {
    category: 'CONTEST_DYNAMIC' as const,
    title: '2025全国智慧医保大赛正式启动',
    summary: '大赛面向医疗机构、医保经办机构、高校及科研院所和企业征集智慧医保创新项目。',
    body: '<p>2025全国智慧医保大赛正式启动报名。大赛围绕智能监管、支付方式改革、便民服务、数据治理等方向征集创新项目。</p><p>请各参赛团队在报名时间内完成注册与报名。</p>',
    source: '大赛组委会',
    pinned: true,
  },
  {
    category: 'CONTEST_DYNAMIC' as const,
    title: '关于初赛材料提交的通知',
    summary: '初赛材料包括项目申报书、展示材料、演示视频等，请按模板要求准备。',
    body: '<p>通过资格审核的团队请在初赛材料提交时间内上传项目申报书（PDF）、展示材料及演示视频。</p>',
    source: '大赛组委会',
    pinned: false,
  },
  {
    category: 'CONTEST_DYNAMIC' as const,
    title: '大赛专家评审委员会组建完成',
    summary: '来自医保、医疗、信息技术领域的专家将参与初赛与决赛评审。',
    body: '<p>专家评审委员会已组建完成，评审将坚持公平、公正、回避原则。</p>',
    source: '大赛组委会',
    pinned: false,
  },
  {
    category: 'MEDICAL_INSURANCE' as const,
    title: '医保信息化标准化建设持续推进',
    summary: '全国统一的医保信息平台为智慧医保创新应用提供了坚实基础。',
    body: '<p>全国统一的医保信息平台全面建成，医保信息业务编码标准落地应用。</p>',
    source: '医保资讯',
    pinned: true,
  },
  {
    category: 'MEDICAL_INSURANCE' as const,
    title: '医保基金智能监管迈上新台阶',
    summary: '大数据与人工智能技术在医保基金监管中发挥越来越重要的作用。',
    body: '<p>智能监管子系统覆盖全国统筹地区，事前提醒、事中审核、事后监管全流程闭环。</p>',
    source: '医保资讯',
    pinned: false,
  },
  {
    category: 'MEDICAL_INSURANCE' as const,
    title: '医保电子凭证应用场景不断丰富',
    summary: '医保电子凭证已覆盖挂号、结算、购药等多个场景。',
    body: '<p>医保电子凭证激活用户持续增长，移动支付让群众就医更加便捷。</p>',
    source: '医保资讯',
    pinned: false,
  },
];

interface DemoTeam {
  username: string;
  phone: string;
  email: string;
  leader: TeamPerson;
  team: null | {
    status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REVISING' | 'REJECTED';
    orgName: string;
    orgType: string;
    region: string;
    track: string;
    teamName: string;
    members: TeamPerson[];
  };
}

export const DEMO_TEAMS: DemoTeam[] = [
  {
    username: 'demo1',
    phone: '13800000001',
    email: 'demo1@example.com',
    leader: { name: '张明', phone: '13800000001', email: 'demo1@example.com', title: 'ASSOCIATE_SENIOR' },
    team: {
      status: 'APPROVED',
      orgName: '示例大学医学院附属医院',
      orgType: 'MEDICAL_INSTITUTION',
      region: 'P01',
      track: 'SMART_SUPERVISION',
      teamName: '智审先锋队',
      members: [{ name: '李华', organization: '示例大学医学院附属医院', title: 'INTERMEDIATE', role: 'DEVELOPER' }],
    },
  },
  {
    username: 'demo2',
    phone: '13800000002',
    email: 'demo2@example.com',
    leader: { name: '王芳', phone: '13800000002', email: 'demo2@example.com', title: 'SENIOR' },
    team: {
      status: 'SUBMITTED',
      orgName: '示例市医疗保障事务中心',
      orgType: 'INSURANCE_AGENCY',
      region: 'P11',
      track: 'PUBLIC_SERVICE',
      teamName: '便民服务创新组',
      members: [{ name: '赵强', organization: '示例市医疗保障事务中心', title: 'JUNIOR', role: 'BUSINESS' }],
    },
  },
  {
    username: 'demo3',
    phone: '13800000003',
    email: 'demo3@example.com',
    leader: { name: '陈静', phone: '13800000003', email: 'demo3@example.com', title: 'INTERMEDIATE' },
    team: {
      status: 'REVISING',
      orgName: '示例科技有限公司',
      orgType: 'ENTERPRISE',
      region: 'P19',
      track: 'DATA_GOVERNANCE',
      teamName: '数据治理实验室',
      members: [{ name: '刘洋', organization: '示例科技有限公司', title: 'INTERMEDIATE', role: 'DATA' }],
    },
  },
  {
    username: 'demo4',
    phone: '13800000004',
    email: 'demo4@example.com',
    leader: { name: '孙磊', phone: '13800000004', email: 'demo4@example.com', title: 'JUNIOR' },
    team: {
      status: 'DRAFT',
      orgName: '示例大学公共卫生学院',
      orgType: 'UNIVERSITY',
      region: 'P23',
      track: 'PAYMENT_REFORM',
      teamName: '支付改革研究组',
      members: [],
    },
  },
  {
    username: 'demo5',
    phone: '13800000005',
    email: 'demo5@example.com',
    leader: { name: '周婷', phone: '13800000005', email: 'demo5@example.com' },
    team: null,
  },
];

export const DEMO_EXPERTS = [
  // An expert's 职称 is free text (as typed in the form or the import sheet), not a dictionary code.
  { code: 'E0001', name: '郑教授', phone: '13900000001', organization: '示例医科大学', title: '教授', tracks: ['SMART_SUPERVISION', 'DATA_GOVERNANCE'] },
  { code: 'E0002', name: '吴主任', phone: '13900000002', organization: '示例省医疗保障局', title: '正高级', tracks: ['PAYMENT_REFORM', 'PUBLIC_SERVICE'] },
  { code: 'E0003', name: '冯研究员', phone: '13900000003', organization: '示例信息技术研究院', title: '研究员', tracks: ['DATA_GOVERNANCE', 'OTHER_INNOVATION'] },
];

/**
 * Teams whose sign-up and preliminary materials are approved, so a demo install can be tried
 * through expert review (groups, scoring, ranking, promotion). demo10's organisation is expert
 * E0001's own (示例医科大学): a conflict of interest the console shows.
 */
export const DEMO_REVIEW_TEAMS = [
  { username: 'demo6', orgName: '示例省人民医院', track: 'SMART_SUPERVISION', teamName: '基金监管智眼', projectName: '基于知识图谱的医保基金智能监管平台' },
  { username: 'demo7', orgName: '示例市第一人民医院', track: 'SMART_SUPERVISION', teamName: '智能审核小组', projectName: '住院费用智能审核与异常检测系统' },
  { username: 'demo8', orgName: '示例数据科技股份有限公司', track: 'DATA_GOVERNANCE', teamName: '数据标准化团队', projectName: '医保数据质量治理与标准化工具' },
  { username: 'demo9', orgName: '示例市医疗保障局信息中心', track: 'PUBLIC_SERVICE', teamName: '掌上医保', projectName: '医保服务一网通办移动端' },
  { username: 'demo10', orgName: '示例医科大学', track: 'PAYMENT_REFORM', teamName: 'DRG 研究组', projectName: 'DRG/DIP 支付方式改革效果评估模型' },
  { username: 'demo11', orgName: '示例县医共体总医院', track: 'PAYMENT_REFORM', teamName: '县域医共体支付组', projectName: '县域医共体打包付费监测平台' },
  { username: 'demo12', orgName: '示例健康科技有限公司', track: 'PRICING_PROCUREMENT', teamName: '集采价格监测组', projectName: '药品集采价格监测与预警系统' },
  { username: 'demo13', orgName: '示例大学公共管理学院', track: 'OTHER_INNOVATION', teamName: '医保政策仿真组', projectName: '医保政策仿真与决策支持系统' },
] as const;

/**
 * A team approved at sign-up whose preliminary materials are saved but not submitted (初赛材料草稿),
 * so the console's materials drafts and their detail page have a record. A new account, so the
 * teams above keep the states the journeys expect of them (docs/decisions.md, "Demo data").
 */
export const DEMO_DRAFT_PROJECT = {
  username: 'demo14',
  phone: '13800000114',
  orgName: '示例市医疗保障研究会',
  track: 'PRICING_PROCUREMENT',
  teamName: '价格治理研究组',
  projectName: '医疗服务价格动态调整辅助决策系统',
} as const;
