import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { CONTEST_NAME_DEFAULT, TEMPLATE_CODES, type DocAudience, type DocCategory } from '@contest/shared';
import type { Storage } from '../lib/storage/storage.js';
import { deliverMessage } from '../modules/messages/deliver.js';
import { createSiteContentRepository } from '../modules/site-content/site-content.repository.js';
import { textPdf, type TextBlock } from '../modules/documents/text-pdf.js';
import type { Db } from '../db/client.js';
import { accounts, attachments, documents, messages, prelimDocs, teams } from '../db/schema.js';
import { countPdfCharacters } from '../modules/contest/pdf-chars.js';

/**
 * Content every portal needs from the first start (site blocks, the templates the sign-up page
 * links to) and, with `--demo`, a data document for approved teams and a few in-site messages.
 * Idempotent: blocks and documents are added only when missing (admins edit them afterwards),
 * demo messages only once. Files go through the storage driver like any upload.
 */
export async function seedContent(db: Db, storage: Storage, opts: { demo: boolean }): Promise<void> {
  const blocks = createSiteContentRepository(db);
  await db.transaction(async (tx) => {
    for (const block of SITE_BLOCKS) await blocks.insertIfMissing(tx, block);
  });

  await ensureDocument(db, storage, {
    code: TEMPLATE_CODES.commitmentLetter,
    title: '参赛承诺书（模板）',
    fileName: '参赛承诺书.pdf',
    category: 'TEMPLATE',
    audience: 'PUBLIC',
    sort: 10,
    pdf: () => textPdf(COMMITMENT_LETTER, { title: '参赛承诺书' }),
  });
  await ensureDocument(db, storage, {
    code: TEMPLATE_CODES.applicationForm,
    title: '项目申报书（模板）',
    fileName: '项目申报书模板.pdf',
    category: 'TEMPLATE',
    audience: 'PUBLIC',
    sort: 20,
    pdf: () => textPdf(APPLICATION_FORM, { title: '项目申报书模板' }),
  });
  if (!opts.demo) return;

  await ensureDocument(db, storage, {
    code: 'DEMO_DATA_GUIDE',
    title: '大赛数据集说明文档',
    fileName: '大赛数据集说明.pdf',
    category: 'DATA',
    audience: 'APPROVED',
    sort: 10,
    pdf: () => textPdf(DATA_GUIDE, { title: '大赛数据集说明' }),
  });
  await seedDemoMessages(db);
  await seedDemoSignUpFiles(db, storage);
  await seedDemoApplications(db, storage);
}

/**
 * The sign-up's 单位证明 and signed 参赛承诺书 of every demo team past its draft: a real team cannot
 * submit without them (docs/rules/team.md), so a submitted demo team without them showed an
 * audit page with nothing to check. Only where missing; a draft keeps none.
 */
async function seedDemoSignUpFiles(db: Db, storage: Storage): Promise<void> {
  const rows = await db
    .select({ id: teams.id, ownerId: teams.ownerId, orgName: teams.orgName, teamName: teams.teamName, certificateFileId: teams.certificateFileId, commitmentFileId: teams.commitmentFileId })
    .from(teams)
    .innerJoin(accounts, eq(accounts.id, teams.ownerId))
    .where(and(sql`${teams.status} <> 'DRAFT'`, sql`(${teams.certificateFileId} is null or ${teams.commitmentFileId} is null)`, sql`${accounts.username} like 'demo%'`));
  for (const team of rows) {
    for (const [column, fileName, blocks] of [
      ['certificateFileId', '单位证明.pdf', [{ text: '单位证明', size: 20, align: 'center' }, { text: `兹证明${team.teamName}为${team.orgName}组建的参赛团队，同意其参加${CONTEST_NAME_DEFAULT}。`, indent: 2, spaceBefore: 24 }, { text: `${team.orgName}（盖章）`, align: 'right', spaceBefore: 36 }]],
      ['commitmentFileId', '参赛承诺书.pdf', [...COMMITMENT_LETTER, { text: `参赛团队：${team.teamName}`, spaceBefore: 12 }]],
    ] as const) {
      if (team[column]) continue;
      const content = textPdf([...(blocks as readonly TextBlock[])], { title: fileName.replace('.pdf', '') });
      const id = await storeDemoFile(db, storage, { ownerId: team.ownerId, origin: 'TEAM', fileName, content });
      const [set] = await db
        .update(teams)
        .set({ [column]: id })
        .where(and(eq(teams.id, team.id), isNull(teams[column])))
        .returning({ id: teams.id });
      if (!set) await db.delete(attachments).where(eq(attachments.id, id));
    }
  }
}

/**
 * The demo projects' 申报书 (application PDF): without one, an expert scoring a demo project had
 * nothing to read. Only for demo projects that have none; the text names the project, never the
 * team or its organisation (blind review, docs/rules/review.md).
 */
async function seedDemoApplications(db: Db, storage: Storage): Promise<void> {
  const docs = await db
    .select({ id: prelimDocs.id, ownerId: prelimDocs.ownerId, projectName: prelimDocs.projectName, summary: prelimDocs.summary })
    .from(prelimDocs)
    .innerJoin(accounts, eq(accounts.id, prelimDocs.ownerId))
    .where(and(isNull(prelimDocs.applicationFileId), inArray(prelimDocs.status, ['SUBMITTED', 'APPROVED']), sql`${accounts.username} like 'demo%'`));
  for (const doc of docs) {
    const content = textPdf(
      [
        { text: '项目申报书', size: 20, align: 'center' },
        { text: doc.projectName, size: 14, align: 'center', spaceBefore: 12 },
        { text: '一、项目概述', size: 13, spaceBefore: 18 },
        { text: doc.summary, indent: 2 },
        ...DEMO_APPLICATION_SECTIONS,
      ],
      { title: `${doc.projectName} 申报书` },
    );
    const id = await storeDemoFile(db, storage, { ownerId: doc.ownerId, origin: 'PRELIM', fileName: '项目申报书.pdf', content });
    const chars = await countPdfCharacters(Readable.from([content]), content.length);
    // Only if still without one: a second start (or the owner's own upload meanwhile) keeps what is there.
    const [set] = await db
      .update(prelimDocs)
      .set({ applicationFileId: id, applicationChars: chars })
      .where(and(eq(prelimDocs.id, doc.id), isNull(prelimDocs.applicationFileId)))
      .returning({ id: prelimDocs.id });
    if (!set) await db.delete(attachments).where(eq(attachments.id, id));
  }
}

const DEMO_APPLICATION_SECTIONS: TextBlock[] = [
  { text: '二、需求分析', size: 13, spaceBefore: 18 },
  { text: '围绕医保基金监管、支付方式改革与公共服务中的实际问题，梳理业务流程与数据现状，明确项目要解决的关键问题与目标用户。', indent: 2 },
  { text: '三、技术方案', size: 13, spaceBefore: 18 },
  { text: '采用数据治理、规则引擎与机器学习相结合的方法，构建可解释的分析模型，并通过接口与现有医保信息平台对接。', indent: 2 },
  { text: '四、实施计划与预期成效', size: 13, spaceBefore: 18 },
  { text: '分需求调研、原型验证、试点应用三个阶段推进，预期提升审核效率、降低不合理支出，并形成可推广的应用模式。', indent: 2 },
];

/** A demo file stored like an upload (storage first, then its row), answering the attachment id. */
async function storeDemoFile(db: Db, storage: Storage, file: { ownerId: string; origin: 'PRELIM' | 'TEAM'; fileName: string; content: Buffer }): Promise<string> {
  const sha256 = createHash('sha256').update(file.content).digest('hex');
  const id = randomUUID();
  const at = new Date();
  const storageKey = `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
  await storage.put(storageKey, Readable.from([file.content]), { size: file.content.length, sha256, contentType: 'application/pdf' });
  try {
    await db.insert(attachments).values({
      id,
      uniqueNo: randomBytes(16).toString('base64url'),
      ownerId: file.ownerId,
      origin: file.origin,
      originalName: file.fileName,
      extension: 'pdf',
      mimeType: 'application/pdf',
      size: file.content.length,
      sha256,
      storageKey,
      isPublic: false,
    });
  } catch (err) {
    await storage.delete(storageKey).catch(() => {});
    throw err;
  }
  return id;
}

interface SeedDocument {
  code: string;
  title: string;
  fileName: string;
  category: DocCategory;
  audience: DocAudience;
  sort: number;
  pdf: () => Buffer;
}

async function ensureDocument(db: Db, storage: Storage, doc: SeedDocument): Promise<void> {
  const [existing] = await db.select({ id: documents.id }).from(documents).where(eq(documents.code, doc.code));
  if (existing) return;
  const content = doc.pdf();
  const sha256 = createHash('sha256').update(content).digest('hex');
  const id = randomUUID();
  const at = new Date();
  const storageKey = `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
  await storage.put(storageKey, Readable.from([content]), { size: content.length, sha256, contentType: 'application/pdf' });
  try {
    await db.transaction(async (tx) => {
      await tx.insert(attachments).values({
        id,
        uniqueNo: randomBytes(16).toString('base64url'),
        ownerId: null,
        origin: 'DOC',
        originalName: doc.fileName,
        extension: 'pdf',
        mimeType: 'application/pdf',
        size: content.length,
        sha256,
        storageKey,
        // Only documents for everyone are public files; the others are read through their audience.
        isPublic: doc.audience === 'PUBLIC',
      });
      await tx.insert(documents).values({ code: doc.code, title: doc.title, attachmentId: id, category: doc.category, audience: doc.audience, sort: doc.sort });
    });
  } catch (err) {
    await storage.delete(storageKey).catch(() => {});
    throw err;
  }
}

const WELCOME_TITLE = `欢迎参加${CONTEST_NAME_DEFAULT}`;

async function seedDemoMessages(db: Db): Promise<void> {
  const [sent] = await db.select({ id: messages.id }).from(messages).where(and(eq(messages.title, WELCOME_TITLE), eq(messages.kind, 'ADMIN')));
  if (sent) return;
  const demo = await db
    .select({ id: accounts.id, username: accounts.username })
    .from(accounts)
    .where(and(eq(accounts.realm, 'USER'), inArray(accounts.username, ['demo1', 'demo2', 'demo3', 'demo4', 'demo5'])));
  if (!demo.length) return;
  await db.transaction(async (tx) => {
    await deliverMessage(tx, {
      title: WELCOME_TITLE,
      body: '<p>感谢您注册参赛。请在报名时间内完成“参赛报名”，并下载《参赛承诺书》模板，签字盖章后上传。</p><p>报名指南请见首页“报名指南”栏目。</p>',
      kind: 'ADMIN',
      audience: 'ACCOUNTS',
      accountIds: demo.map((a) => a.id),
    });
    const approved = demo.filter((a) => a.username === 'demo1').map((a) => a.id);
    if (approved.length) {
      await deliverMessage(tx, {
        title: '数据文档已开放',
        body: '<p>您的团队已通过资格审核，可在左侧菜单“数据文档”中查看并下载大赛数据集说明。</p>',
        kind: 'ADMIN',
        audience: 'ACCOUNTS',
        accountIds: approved,
      });
    }
  });
}

const SITE_BLOCKS: { key: string; title: string; body: string }[] = [
  {
    key: 'home-intro',
    title: '大赛简介',
    body:
      `<p>${CONTEST_NAME_DEFAULT}以“数智赋能医保，创新服务民生”为主题，面向医疗机构、医保经办机构、高校及科研院所、企业等单位征集智慧医保创新项目，` +
      '推动大数据、人工智能等新技术在医保领域的落地应用。</p>',
  },
  {
    key: 'home-tracks',
    title: '赛道设置',
    // One line per track of the TRACK dictionary (names as the sign-up form offers them).
    body:
      '<ul><li>智能监管与基金安全：医保基金使用的事前提醒、事中审核与事后监管</li><li>支付方式改革：DRG/DIP 支付的分析与评价</li>' +
      '<li>医保便民服务：医保电子凭证、移动支付等场景创新</li><li>医保数据治理与应用：医保数据标准化、质量提升与安全共享</li>' +
      '<li>医药价格与招采：医药价格监测、集中带量采购的数据应用</li><li>其他创新应用：上述方向之外的智慧医保创新</li></ul>',
  },
  {
    key: 'home-schedule',
    title: '赛程安排',
    // The dates themselves come from the phase settings (the cards above this note); a second
    // copy of them here would drift the first time an operator moves a window.
    body: '<p>以上时间均为北京时间，各阶段截止时刻以系统时间为准，逾期将无法提交。如有调整，以大赛组委会通知为准。</p>',
  },
  {
    key: 'home-organisers',
    title: '组织机构',
    body: '<p><strong>主办单位：</strong>大赛组委会</p><p><strong>承办单位：</strong>大赛执行委员会</p><p><strong>支持单位：</strong>各省级医疗保障部门</p>',
  },
  {
    key: 'home-contact',
    title: '联系我们',
    body: '<p>大赛组委会办公室</p><p>咨询邮箱：<a href="mailto:contest@example.com">contest@example.com</a></p><p>工作时间：工作日 9:00-17:30</p>',
  },
  {
    key: 'sign-guide',
    title: '报名指南',
    body:
      '<h3>一、注册账号</h3><p>点击页面右上角“登录/注册”，填写用户名、密码、邮箱和手机号，完成短信验证后注册。</p>' +
      '<h3>二、填写报名信息</h3><p>登录后进入“参赛报名”，填写参赛单位、团队名称、参赛赛道、团队负责人及成员信息。每个账号只能报名一个团队。</p>' +
      '<h3>三、上传证明材料</h3><p>上传单位证明材料（PDF/JPG/PNG），下载<a href="/api/template/public?code=COMMITMENT_LETTER">《参赛承诺书》模板</a>，签字盖章后以 PDF 格式上传。</p>' +
      '<h3>四、提交审核</h3><p>确认信息无误后提交报名。提交后可在“参赛报名”查看审核状态；如被退回修改，请按审核意见修改后重新提交。</p>' +
      '<h3>五、初赛材料</h3><p>资格审核通过后，在“初赛材料提交”中上传项目申报书（PDF）、展示材料和演示视频。</p>' +
      '<p>如有疑问，请通过“意见反馈”联系大赛组委会。</p>',
  },
];

const COMMITMENT_LETTER: TextBlock[] = [
  { text: '参赛承诺书', size: 20, align: 'center' },
  { text: `致${CONTEST_NAME_DEFAULT}组委会：`, spaceBefore: 24 },
  { text: `本单位（团队）自愿报名参加${CONTEST_NAME_DEFAULT}，并郑重承诺如下：`, indent: 2, spaceBefore: 8 },
  { text: '一、所提交的报名信息及参赛材料真实、准确、完整，不存在虚假内容。', indent: 2 },
  { text: '二、参赛项目为本单位（团队）原创，不侵犯任何第三方的知识产权及其他合法权益；如有争议，由本单位（团队）承担全部责任。', indent: 2 },
  { text: '三、严格遵守国家法律法规及数据安全、个人信息保护的相关规定，对大赛提供的数据仅用于本次参赛，不泄露、不转让、不用于其他用途。', indent: 2 },
  { text: '四、遵守大赛规则和评审纪律，服从组委会的安排，不以任何方式干扰评审工作。', indent: 2 },
  { text: '五、如违反上述承诺，自愿接受取消参赛资格、收回所获荣誉等处理。', indent: 2 },
  { text: '参赛单位（盖章）：', spaceBefore: 48 },
  { text: '团队负责人（签字）：', spaceBefore: 12 },
  { text: '年    月    日', align: 'right', spaceBefore: 24 },
];

const APPLICATION_FORM: TextBlock[] = [
  { text: '项目申报书', size: 20, align: 'center' },
  { text: CONTEST_NAME_DEFAULT, align: 'center', spaceBefore: 8 },
  { text: '一、项目名称', size: 14, spaceBefore: 24 },
  { text: '（不超过 30 个字）', indent: 2 },
  { text: '二、项目背景与需求', size: 14, spaceBefore: 12 },
  { text: '说明项目所针对的医保业务场景、存在的问题和需求。', indent: 2 },
  { text: '三、技术方案', size: 14, spaceBefore: 12 },
  { text: '说明总体架构、关键技术、数据来源与处理方法、安全与隐私保护措施。', indent: 2 },
  { text: '四、创新点', size: 14, spaceBefore: 12 },
  { text: '说明项目在技术、模式或应用上的创新之处。', indent: 2 },
  { text: '五、应用成效与推广价值', size: 14, spaceBefore: 12 },
  { text: '说明已取得的应用效果（可量化指标）及推广前景。', indent: 2 },
  { text: '六、团队介绍', size: 14, spaceBefore: 12 },
  { text: '说明团队成员构成、分工及相关经验。', indent: 2 },
];

const DATA_GUIDE: TextBlock[] = [
  { text: '大赛数据集说明', size: 20, align: 'center' },
  { text: '本文档仅向通过资格审核的参赛团队开放，请勿外传。', align: 'center', spaceBefore: 8 },
  { text: '一、数据范围', size: 14, spaceBefore: 24 },
  { text: '数据集为脱敏后的模拟医保结算数据，包括参保人基本信息、就诊记录、费用明细和结算信息四类表。', indent: 2 },
  { text: '二、使用要求', size: 14, spaceBefore: 12 },
  { text: '数据仅可用于本次大赛的项目研发与演示，比赛结束后请删除全部数据副本。', indent: 2 },
  { text: '三、获取方式', size: 14, spaceBefore: 12 },
  { text: '数据集下载地址与访问口令将通过站内信单独发送给各参赛团队负责人。', indent: 2 },
];
