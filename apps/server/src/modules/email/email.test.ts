import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, noticeOutbox } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { closedPort, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { loadTestConfig } from '../../config/test-config.js';
import type { SmsProvider } from '../sms/sms.provider.js';
import { createNoticeOutbox, enqueueEmailNotice } from '../notices/notice-outbox.js';
import { EMAIL_OUTBOX_FILE, EmailSendError, createEmailProvider, createLogEmailProvider, createSmtpEmailProvider, type EmailProvider } from './email.provider.js';

let t: TestApp;
let sink: SmtpSink;
const providers: EmailProvider[] = [];
beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  sink = await startSmtpSink({ refuse: ['nobody@example.com'] });
});
afterAll(async () => {
  providers.forEach((p) => p.close?.());
  await sink?.close();
  await t?.close();
});

const db = () => t.database.db;
const quiet = { info() {}, warn() {} };
const noSms: SmsProvider = {
  name: 'none',
  async send() {
    throw new Error('no SMS in these tests');
  },
};
const smtpTo = (port: number, extra: Partial<{ user: string; password: string }> = {}) => {
  const p = createSmtpEmailProvider({ host: '127.0.0.1', port, secure: false, user: extra.user, password: extra.password }, '智慧医保大赛 <noreply@contest.test>', { timeoutMs: 2_000 });
  providers.push(p);
  return p;
};

async function queueMail(subject: string, text: string) {
  const user = await signIn(t, { realm: 'USER' });
  const [account] = await db().select({ email: accounts.email }).from(accounts).where(eq(accounts.id, user.accountId));
  await db().transaction((tx) => enqueueEmailNotice(tx, { accountId: user.accountId, subject, text, templateKey: 'TEAM_APPROVED' }));
  const [row] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.accountId, user.accountId));
  return { row: row!, address: account!.email! };
}

describe('email over SMTP (a local sink)', () => {
  it('delivers a mail with its subject, text and sender, and answers with the message id', async () => {
    const before = sink.mails.length;
    const provider = smtpTo(sink.port);
    const receipt = await provider.send({ to: 'lead@example.com', subject: '报名审核通过', text: '您的团队「医保 & <创新>」报名审核已通过。\n第二行' });
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail).toMatchObject({ to: ['lead@example.com'], from: 'noreply@contest.test', subject: '报名审核通过', text: '您的团队「医保 & <创新>」报名审核已通过。\n第二行' });
    expect(mail!.headers.from).toContain('noreply@contest.test');
    expect(receipt.answer).toMatch(/^<.+> 250 .*Message queued by the sink/);
  });

  it('signs in when SMTP_USER is set, and reports a refused login with the server answer', async () => {
    const authSink = await startSmtpSink({ credentials: { user: 'mailer', password: 'right-pw' } });
    try {
      await smtpTo(authSink.port, { user: 'mailer', password: 'right-pw' }).send({ to: 'a@example.com', subject: 'S', text: 'T' });
      expect((await authSink.waitFor(1))[0]).toMatchObject({ user: 'mailer', subject: 'S', text: 'T' });
      const err = await smtpTo(authSink.port, { user: 'mailer', password: 'wrong-pw' })
        .send({ to: 'a@example.com', subject: 'S', text: 'T' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmailSendError);
      expect((err as EmailSendError).answer).toMatch(/535/);
      expect(String((err as Error).message)).not.toContain('wrong-pw');
      expect(authSink.mails).toHaveLength(1);
    } finally {
      await authSink.close();
    }
  });

  it('reports a refused recipient with the server answer', async () => {
    const err = await smtpTo(sink.port)
      .send({ to: 'nobody@example.com', subject: 'S', text: 'T' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailSendError);
    expect((err as EmailSendError).answer).toMatch(/550 .*nobody@example.com unavailable/);
  });
});

describe('email through the notice outbox', () => {
  it('sends a queued email notice once, with subject and body, and keeps the server answer', async () => {
    const before = sink.mails.length;
    const { row, address } = await queueMail('初赛材料已提交', '您的项目「医保智审」的初赛材料已提交，请等待形式审查。');
    expect(row).toMatchObject({ channel: 'EMAIL', recipient: address, status: 'QUEUED', subject: '初赛材料已提交' });
    const outbox = createNoticeOutbox({ db: db(), sms: noSms, email: smtpTo(sink.port), log: quiet });
    // Two drains at once stand for two instances: still one mail.
    await Promise.all([outbox.drain(), outbox.drain(), createNoticeOutbox({ db: db(), sms: noSms, email: smtpTo(sink.port) }).drain()]);
    const mails = (await sink.waitFor(before + 1)).slice(before).filter((m) => m.to.includes(address));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: '初赛材料已提交', text: '您的项目「医保智审」的初赛材料已提交，请等待形式审查。' });
    const [sent] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, row.id));
    expect(sent).toMatchObject({ status: 'SENT', attempts: 1, lastError: null });
    expect(sent!.providerAnswer).toMatch(/250 .*Message queued by the sink/);
  });

  it('SMTP down: retried with backoff, then FAILED with the reason', async () => {
    const { row } = await queueMail('标题', '正文');
    let clock = Date.now();
    const outbox = createNoticeOutbox({ db: db(), sms: noSms, email: smtpTo(await closedPort()), log: quiet, now: () => new Date(clock) });
    await outbox.drain();
    let [state] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, row.id));
    expect(state).toMatchObject({ status: 'QUEUED', attempts: 1 });
    expect(state!.lastError).toMatch(/ECONNREFUSED/);
    expect(state!.providerAnswer).toMatch(/ECONNREFUSED/);
    expect(state!.nextAttemptAt.getTime()).toBe(clock + 30_000);
    for (let i = 0; i < 6; i++) {
      clock += 3_600_000;
      await outbox.drain();
    }
    [state] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, row.id));
    expect(state).toMatchObject({ status: 'FAILED', attempts: 5, sentAt: null });
    expect(state!.lastError).toMatch(/ECONNREFUSED/);
  });

  it('a dispatcher without an email provider leaves EMAIL rows queued', async () => {
    const { row } = await queueMail('标题', '正文');
    await createNoticeOutbox({ db: db(), sms: noSms }).drain();
    const [state] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, row.id));
    expect(state).toMatchObject({ status: 'QUEUED', attempts: 0 });
  });

  it('queues nothing for an account without an address', async () => {
    const admin = await signIn(t, { realm: 'ADMIN' });
    const queued = await db().transaction((tx) => enqueueEmailNotice(tx, { accountId: admin.accountId, subject: 's', text: 't' }));
    expect(queued).toBe(false);
    expect(await db().select().from(noticeOutbox).where(eq(noticeOutbox.accountId, admin.accountId))).toHaveLength(0);
  });
});

describe('the log provider (no SMTP_HOST)', () => {
  it('is chosen without SMTP_HOST and writes one JSON line per mail under DATA_DIR', async () => {
    const config = loadTestConfig();
    const logged: object[] = [];
    const provider = createEmailProvider(config.email, { dataDir: config.dataDir, log: { info: (o) => logged.push(o) } });
    expect(provider.name).toBe('log');
    await Promise.all([provider.send({ to: 'a@example.com', subject: '一', text: '正文一' }), provider.send({ to: 'b@example.com', subject: '二', text: '正文二\n换行' })]);
    const lines = (await readFile(join(config.dataDir, EMAIL_OUTBOX_FILE), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.to, l.subject, l.text, l.from]).sort()).toEqual([
      ['a@example.com', '一', '正文一', 'noreply@localhost'],
      ['b@example.com', '二', '正文二\n换行', 'noreply@localhost'],
    ]);
    expect(logged).toHaveLength(2);
  });

  it('is replaced by SMTP when SMTP_HOST is set', () => {
    const config = loadTestConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_FROM: 'noreply@contest.test' });
    const provider = createEmailProvider(config.email, { dataDir: config.dataDir, log: quiet });
    providers.push(provider);
    expect(provider.name).toBe('smtp');
    expect(createLogEmailProvider({ dataDir: config.dataDir, from: 'x@y.z', log: quiet }).name).toBe('log');
  });
});
