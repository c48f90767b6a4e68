/** Data dictionary seeded at install (product.md section 7); admins edit it later. */
export interface DictTypeSeed {
  code: string;
  name: string;
  items: Array<{ code: string; name: string }>;
}

const PROVINCES = [
  '北京市', '天津市', '河北省', '山西省', '内蒙古自治区', '辽宁省', '吉林省', '黑龙江省',
  '上海市', '江苏省', '浙江省', '安徽省', '福建省', '江西省', '山东省', '河南省', '湖北省',
  '湖南省', '广东省', '广西壮族自治区', '海南省', '重庆市', '四川省', '贵州省', '云南省',
  '西藏自治区', '陕西省', '甘肃省', '青海省', '宁夏回族自治区', '新疆维吾尔自治区',
  '新疆生产建设兵团', '香港特别行政区', '澳门特别行政区', '台湾省',
];

export const DICTIONARY_SEED: DictTypeSeed[] = [
  {
    code: 'ORG_TYPE',
    name: '单位类型',
    items: [
      { code: 'MEDICAL_INSTITUTION', name: '医疗机构' },
      { code: 'INSURANCE_AGENCY', name: '医保经办机构' },
      { code: 'UNIVERSITY', name: '高校及科研院所' },
      { code: 'ENTERPRISE', name: '企业' },
      { code: 'OTHER', name: '其他' },
    ],
  },
  {
    code: 'TRACK',
    name: '参赛方向',
    items: [
      { code: 'SMART_SUPERVISION', name: '智能监管与基金安全' },
      { code: 'PAYMENT_REFORM', name: '支付方式改革' },
      { code: 'PUBLIC_SERVICE', name: '医保便民服务' },
      { code: 'DATA_GOVERNANCE', name: '医保数据治理与应用' },
      { code: 'PRICING_PROCUREMENT', name: '医药价格与招采' },
      { code: 'OTHER_INNOVATION', name: '其他创新应用' },
    ],
  },
  { code: 'REGION', name: '所在地区', items: PROVINCES.map((name, i) => ({ code: `P${String(i + 1).padStart(2, '0')}`, name })) },
  {
    code: 'MEMBER_ROLE',
    name: '团队角色',
    items: [
      { code: 'LEADER', name: '负责人' },
      { code: 'DEVELOPER', name: '研发' },
      { code: 'PRODUCT', name: '产品' },
      { code: 'BUSINESS', name: '业务' },
      { code: 'DATA', name: '数据分析' },
      { code: 'OTHER', name: '其他' },
    ],
  },
  {
    code: 'PROFESSIONAL_TITLE',
    name: '职称',
    items: [
      { code: 'SENIOR', name: '正高级' },
      { code: 'ASSOCIATE_SENIOR', name: '副高级' },
      { code: 'INTERMEDIATE', name: '中级' },
      { code: 'JUNIOR', name: '初级' },
      { code: 'NONE', name: '无' },
    ],
  },
  {
    code: 'FEEDBACK_TYPE',
    name: '反馈类型',
    items: [
      { code: 'CONSULT', name: '咨询' },
      { code: 'BUG', name: '系统问题' },
      { code: 'SUGGESTION', name: '意见建议' },
      { code: 'OTHER', name: '其他' },
    ],
  },
  {
    code: 'DOC_CATEGORY',
    name: '文档类别',
    items: [
      { code: 'TEMPLATE', name: '模板' },
      { code: 'GUIDE', name: '指南' },
      { code: 'DATA', name: '数据文档' },
    ],
  },
  {
    // Preset reasons of the console's audit dialog (退回修改 / 不通过); the text stays editable.
    code: 'AUDIT_REASON',
    name: '审核意见',
    items: [
      { code: 'INCOMPLETE', name: '材料不完整' },
      { code: 'UNCLEAR_PROOF', name: '证明材料不清晰' },
      { code: 'COMMITMENT_UNSIGNED', name: '承诺书未签字盖章' },
      { code: 'INFO_ERROR', name: '信息填写有误' },
      { code: 'NOT_ELIGIBLE', name: '不符合参赛条件' },
    ],
  },
];
