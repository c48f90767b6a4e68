/**
 * Data dictionary seeded at install (docs/rules/admin.md, "Data dictionary"); admins edit it later. Every type and
 * item carries its English name: English pages show it, falling back to `name`.
 */
export interface DictTypeSeed {
  code: string;
  name: string;
  nameEn: string;
  items: Array<{ code: string; name: string; nameEn: string }>;
}

/** [Chinese, English]; the codes are P01.. in this order, so the order never changes. */
const PROVINCES: ReadonlyArray<readonly [string, string]> = [
  ['北京市', 'Beijing'], ['天津市', 'Tianjin'], ['河北省', 'Hebei'], ['山西省', 'Shanxi'],
  ['内蒙古自治区', 'Inner Mongolia'], ['辽宁省', 'Liaoning'], ['吉林省', 'Jilin'], ['黑龙江省', 'Heilongjiang'],
  ['上海市', 'Shanghai'], ['江苏省', 'Jiangsu'], ['浙江省', 'Zhejiang'], ['安徽省', 'Anhui'],
  ['福建省', 'Fujian'], ['江西省', 'Jiangxi'], ['山东省', 'Shandong'], ['河南省', 'Henan'],
  ['湖北省', 'Hubei'], ['湖南省', 'Hunan'], ['广东省', 'Guangdong'], ['广西壮族自治区', 'Guangxi'],
  ['海南省', 'Hainan'], ['重庆市', 'Chongqing'], ['四川省', 'Sichuan'], ['贵州省', 'Guizhou'],
  ['云南省', 'Yunnan'], ['西藏自治区', 'Xizang'], ['陕西省', 'Shaanxi'], ['甘肃省', 'Gansu'],
  ['青海省', 'Qinghai'], ['宁夏回族自治区', 'Ningxia'], ['新疆维吾尔自治区', 'Xinjiang'],
  ['新疆生产建设兵团', 'Xinjiang Production and Construction Corps'], ['香港特别行政区', 'Hong Kong SAR'],
  ['澳门特别行政区', 'Macao SAR'], ['台湾省', 'Taiwan'],
];

export const DICTIONARY_SEED: DictTypeSeed[] = [
  {
    code: 'ORG_TYPE',
    name: '单位类型',
    nameEn: 'Organization type',
    items: [
      { code: 'MEDICAL_INSTITUTION', name: '医疗机构', nameEn: 'Medical institution' },
      { code: 'INSURANCE_AGENCY', name: '医保经办机构', nameEn: 'Medical insurance agency' },
      { code: 'UNIVERSITY', name: '高校及科研院所', nameEn: 'University or research institute' },
      { code: 'ENTERPRISE', name: '企业', nameEn: 'Enterprise' },
      { code: 'OTHER', name: '其他', nameEn: 'Other' },
    ],
  },
  {
    code: 'TRACK',
    name: '参赛方向',
    nameEn: 'Track',
    items: [
      { code: 'SMART_SUPERVISION', name: '智能监管与基金安全', nameEn: 'Smart supervision and fund security' },
      { code: 'PAYMENT_REFORM', name: '支付方式改革', nameEn: 'Payment method reform' },
      { code: 'PUBLIC_SERVICE', name: '医保便民服务', nameEn: 'Convenient insurance services' },
      { code: 'DATA_GOVERNANCE', name: '医保数据治理与应用', nameEn: 'Insurance data governance and use' },
      { code: 'PRICING_PROCUREMENT', name: '医药价格与招采', nameEn: 'Drug pricing and procurement' },
      { code: 'OTHER_INNOVATION', name: '其他创新应用', nameEn: 'Other innovative applications' },
    ],
  },
  {
    code: 'REGION',
    name: '所在地区',
    nameEn: 'Region',
    items: PROVINCES.map(([name, nameEn], i) => ({ code: `P${String(i + 1).padStart(2, '0')}`, name, nameEn })),
  },
  {
    code: 'MEMBER_ROLE',
    name: '团队角色',
    nameEn: 'Team role',
    items: [
      { code: 'LEADER', name: '负责人', nameEn: 'Team leader' },
      { code: 'DEVELOPER', name: '研发', nameEn: 'Development' },
      { code: 'PRODUCT', name: '产品', nameEn: 'Product' },
      { code: 'BUSINESS', name: '业务', nameEn: 'Business' },
      { code: 'DATA', name: '数据分析', nameEn: 'Data analysis' },
      { code: 'OTHER', name: '其他', nameEn: 'Other' },
    ],
  },
  {
    code: 'PROFESSIONAL_TITLE',
    name: '职称',
    nameEn: 'Professional title',
    items: [
      { code: 'SENIOR', name: '正高级', nameEn: 'Senior' },
      { code: 'ASSOCIATE_SENIOR', name: '副高级', nameEn: 'Associate senior' },
      { code: 'INTERMEDIATE', name: '中级', nameEn: 'Intermediate' },
      { code: 'JUNIOR', name: '初级', nameEn: 'Junior' },
      { code: 'NONE', name: '无', nameEn: 'None' },
    ],
  },
  {
    code: 'FEEDBACK_TYPE',
    name: '反馈类型',
    nameEn: 'Feedback type',
    items: [
      { code: 'CONSULT', name: '咨询', nameEn: 'Inquiry' },
      { code: 'BUG', name: '系统问题', nameEn: 'System problem' },
      { code: 'SUGGESTION', name: '意见建议', nameEn: 'Suggestion' },
      { code: 'OTHER', name: '其他', nameEn: 'Other' },
    ],
  },
  {
    code: 'DOC_CATEGORY',
    name: '文档类别',
    nameEn: 'Document category',
    items: [
      { code: 'TEMPLATE', name: '模板', nameEn: 'Template' },
      { code: 'GUIDE', name: '指南', nameEn: 'Guide' },
      { code: 'DATA', name: '数据文档', nameEn: 'Data document' },
    ],
  },
  {
    // Preset reasons of the console's audit dialog (退回修改 / 不通过); the text stays editable.
    code: 'AUDIT_REASON',
    name: '审核意见',
    nameEn: 'Review comment',
    items: [
      { code: 'INCOMPLETE', name: '材料不完整', nameEn: 'Incomplete materials' },
      { code: 'UNCLEAR_PROOF', name: '证明材料不清晰', nameEn: 'Proof documents unclear' },
      { code: 'COMMITMENT_UNSIGNED', name: '承诺书未签字盖章', nameEn: 'Commitment letter not signed or sealed' },
      { code: 'INFO_ERROR', name: '信息填写有误', nameEn: 'Incorrect information' },
      { code: 'NOT_ELIGIBLE', name: '不符合参赛条件', nameEn: 'Not eligible' },
    ],
  },
];
