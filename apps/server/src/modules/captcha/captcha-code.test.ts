import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG, SMS, VALIDATION_MSG, type Realm } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { accounts } from '../../db/schema.js';
import { hashPassword } from '../../lib/password.js';
import { createMemoryKvStore } from '../../lib/kv-store.js';
import { SMS_MSG } from '../sms/sms.service.js';
import type { EmailMessage } from '../email/email.provider.js';
import type { SmsMessage } from '../sms/sms.provider.js';
import { createCaptchaCodeService, type CaptchaCodeContact, type CaptchaCodeLogin } from './captcha-code.service.js';
import { captchaKeys, createCaptchaService } from './captcha.service.js';

/**
 * The slider's non-visual alternative (docs/security.md, "Captcha code alternative"): a one-time
 * code to the account's phone or e-mail passes the captcha nonce for that one login.
 */

describe('captcha code service (limits, on a fake clock)', () => {
  function setup() {
    let clock = Date.UTC(2026, 0, 10, 2);
    const now = () => clock;
    const kv = createMemoryKvStore(now);
    const captcha = createCaptchaService({ kv, now, random: () => 0.5 });
    const texts: SmsMessage[] = [];
    const mails: EmailMessage[] = [];
    const contacts = new Map<string, CaptchaCodeContact>([
      ['USER:alice01', { phone: '13911110001', email: 'alice@example.com' }],
      ['ADMIN:mailonly', { phone: null, email: 'staff@example.com' }],
    ]);
    let next = 100000;
    const service = createCaptchaCodeService({
      kv,
      captcha,
      now,
      random: () => String(++next),
      findContact: async ({ realm, account }) => contacts.get(`${realm}:${account}`),
      sms: { name: 'fake', send: async (m) => void texts.push(m) },
      email: { name: 'fake', send: async (m) => (mails.push(m), { answer: 'ok' }) },
      limits: { dailyPerPhone: 3, dailyPerIp: 50 },
      log: { info: () => {}, warn: () => {} },
    });
    const open = async () => (await captcha.issue()).nonceStr;
    return { kv, captcha, service, texts, mails, open, advance: (ms: number) => (clock += ms), lastCode: () => texts.at(-1)!.params[0]! };
  }
  const alice: CaptchaCodeLogin = { realm: 'USER', account: 'alice01' };
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'passed',
      (e: { status?: number; message: string }) => `${e.status} ${e.message}`,
    );

  it('a right code passes the open nonce once, for this login only', async () => {
    const s = setup();
    expect(await s.service.send(alice, '10.0.0.1')).toEqual({ resendAfterSeconds: 60 });
    expect(s.texts).toHaveLength(1);
    expect(s.texts[0]!.phone).toBe('13911110001');
    expect(s.lastCode()).toMatch(/^\d{6}$/);
    const nonce = await s.open();
    await s.service.check({ ...alice, nonceStr: nonce, code: s.lastCode() });
    // The slider can no longer be tried on it; another login cannot spend it.
    expect(await s.kv.get(captchaKeys.answer(nonce))).toBeNull();
    expect(await s.captcha.consumePassed(nonce, 'USER:name:alice01')).toBe(true);
    expect(await s.captcha.consumePassed(nonce, 'USER:name:alice01')).toBe(false);
  });

  it('a nonce passed by code is spent by a login for another account, another kind or another realm without passing', async () => {
    for (const subject of ['USER:name:bob', 'USER:phone:alice01', 'ADMIN:name:alice01', 'EXPERT:name:alice01', undefined]) {
      const s = setup();
      await s.service.send(alice, '10.0.0.1');
      const nonce = await s.open();
      await s.service.check({ ...alice, nonceStr: nonce, code: s.lastCode() });
      expect(await s.captcha.consumePassed(nonce, subject), String(subject)).toBe(false);
      // Spent by the refused try: the right login cannot use it afterwards either.
      expect(await s.captcha.consumePassed(nonce, 'USER:name:alice01')).toBe(false);
    }
  });

  it('a used code and an expired code answer 验证码已失效', async () => {
    const s = setup();
    await s.service.send(alice, '10.0.0.1');
    const code = s.lastCode();
    await s.service.check({ ...alice, nonceStr: await s.open(), code });
    expect(await refusal(s.service.check({ ...alice, nonceStr: await s.open(), code }))).toBe(`400 ${SMS_MSG.expired}`);

    s.advance(SMS.resendWaitMs);
    await s.service.send(alice, '10.0.0.1');
    const late = s.lastCode();
    s.advance(SMS.validMs);
    expect(await refusal(s.service.check({ ...alice, nonceStr: await s.open(), code: late }))).toBe(`400 ${SMS_MSG.expired}`);
  });

  it('five wrong tries end the code: the right one then answers 验证码已失效', async () => {
    const s = setup();
    await s.service.send(alice, '10.0.0.1');
    const code = s.lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    const nonce = await s.open();
    for (let i = 0; i < SMS.maxWrongTries; i++) {
      expect(await refusal(s.service.check({ ...alice, nonceStr: nonce, code: wrong }))).toBe(`400 ${SMS_MSG.wrongCode}`);
    }
    expect(await refusal(s.service.check({ ...alice, nonceStr: nonce, code }))).toBe(`400 ${SMS_MSG.expired}`);
    // The nonce itself is still open (wrong codes do not spend it) but never passed.
    expect(await s.captcha.consumePassed(nonce, 'USER:name:alice01')).toBe(false);
  });

  it('asking again within 60 s answers 验证码发送过于频繁 and sends nothing', async () => {
    const s = setup();
    await s.service.send(alice, '10.0.0.1');
    s.advance(SMS.resendWaitMs - 1_000);
    expect(await refusal(s.service.send(alice, '10.0.0.2'))).toBe(`400 ${SMS_MSG.tooFrequent}`);
    expect(s.texts).toHaveLength(1);
    s.advance(1_000);
    await s.service.send(alice, '10.0.0.2');
    expect(s.texts).toHaveLength(2);
  });

  it('an unknown login name answers exactly like a known one, limits included, and nothing is sent', async () => {
    const known = setup();
    const unknown = setup();
    const run = async (s: ReturnType<typeof setup>, login: CaptchaCodeLogin) => {
      const answers: string[] = [];
      for (let i = 0; i < 5; i++) {
        answers.push(await s.service.send(login, '10.0.0.9').then((r) => JSON.stringify(r), (e: Error & { status?: number }) => `${e.status} ${e.message}`));
        s.advance(i === 1 ? 1_000 : SMS.resendWaitMs);
      }
      answers.push(await refusal(s.service.check({ ...login, nonceStr: await s.open(), code: '000000' })));
      return answers;
    };
    const a = await run(known, alice);
    const b = await run(unknown, { realm: 'USER', account: 'nobody01' });
    expect(b).toEqual(a);
    // The daily cap (3 here) shows the same way for both.
    expect(a).toContain(`429 ${SMS_MSG.dailyLimit}`);
    expect(unknown.texts).toEqual([]);
    expect(unknown.mails).toEqual([]);
  });

  it('a staff account without a phone gets the code by e-mail', async () => {
    const s = setup();
    const staff: CaptchaCodeLogin = { realm: 'ADMIN', account: 'mailonly' };
    await s.service.send(staff, '10.0.0.1');
    expect(s.texts).toEqual([]);
    expect(s.mails).toHaveLength(1);
    expect(s.mails[0]!.to).toBe('staff@example.com');
    const code = /验证码为(\d{6})/.exec(s.mails[0]!.text)![1]!;
    const nonce = await s.open();
    await s.service.check({ ...staff, nonceStr: nonce, code });
    expect(await s.captcha.consumePassed(nonce, 'ADMIN:name:mailonly')).toBe(true);
  });

  it('a right code on a challenge that is no longer open is refused and stays usable', async () => {
    const s = setup();
    await s.service.send(alice, '10.0.0.1');
    expect(await refusal(s.service.check({ ...alice, nonceStr: 'not-issued', code: s.lastCode() }))).toBe(`400 ${AUTH_MSG.captchaFailed}`);
    const nonce = await s.open();
    await s.service.check({ ...alice, nonceStr: nonce, code: s.lastCode() });
    expect(await s.captcha.consumePassed(nonce, 'USER:name:alice01')).toBe(true);
  });
});

describe('POST /api/captcha/code/send and /check, then the login (real wiring)', () => {
  let t: TestApp;
  let ipSeq = 0;
  const ip = () => `10.47.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
  const PASSWORD = 'Code@2025';

  beforeAll(async () => {
    t = await createTestApp();
    const passwordHash = await hashPassword(PASSWORD);
    await t.database.db.insert(accounts).values([
      { realm: 'USER', username: 'codeuser1', phone: '13622220001', email: 'codeuser1@example.com', name: 'codeuser1', roleCode: 'USER', passwordHash },
      { realm: 'USER', username: 'codeuser2', phone: '13622220002', email: 'codeuser2@example.com', name: 'codeuser2', roleCode: 'USER', passwordHash },
      // Same name in the admin realm, reachable by e-mail only.
      { realm: 'ADMIN', username: 'codeuser1', email: 'admin1@example.com', name: 'admin1', code: 'A9001', roleCode: 'SUPER_ADMIN', passwordHash },
      { realm: 'EXPERT', username: 'e9001', code: 'E9001', phone: '13622220009', name: 'expert', roleCode: 'EXPERT', passwordHash },
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: ip() });
  const challenge = async () => (await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: ip() })).json().data.nonceStr as string;
  const outbox = (file: string) => (existsSync(join(t.config.dataDir, file)) ? readFileSync(join(t.config.dataDir, file), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  const lastSmsCode = (phone: string) => (outbox('sms-outbox.jsonl') as Array<{ phone: string; params: string[] }>).filter((m) => m.phone === phone).at(-1)?.params[0];
  const lastMailCode = (to: string) => {
    const mail = (outbox('email-outbox.jsonl') as Array<{ to: string; text: string }>).filter((m) => m.to === to).at(-1);
    return mail ? /验证码为(\d{6})/.exec(mail.text)?.[1] : undefined;
  };
  const passByCode = async (realm: Realm, account: string, code: string, extra: Record<string, unknown> = {}) => {
    const imageKey = await challenge();
    const res = await post('/api/captcha/code/check', { imageKey, realm, account, code, ...extra });
    return { imageKey, res };
  };

  it('happy path: the code from the SMS outbox passes the nonce, the login spends it once', async () => {
    const sent = await post('/api/captcha/code/send', { realm: 'USER', account: 'codeuser1' });
    expect(sent.json()).toEqual({ status: 200, code: 'OK', message: '验证码已发送', data: { resendAfterSeconds: 60 } });
    const code = lastSmsCode('13622220001')!;
    expect(code).toMatch(/^\d{6}$/);
    const { imageKey, res } = await passByCode('USER', 'codeuser1', code);
    expect(res.json()).toMatchObject({ status: 200, data: { pass: true } });

    const login = await post('/api/login', { username: 'codeuser1', password: PASSWORD, imageKey, slidingDistance: 0 });
    expect(login.json()).toMatchObject({ status: 200, message: AUTH_MSG.loginSuccess });
    expect(login.json().data.accessToken).toBeTruthy();
    // Single use: the same nonce again is a failed captcha.
    const again = await post('/api/login', { username: 'codeuser1', password: PASSWORD, imageKey, slidingDistance: 0 });
    expect(again.json()).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed, data: { captchaRequired: true } });
  });

  it('a wrong code answers 400 验证码错误; a malformed one the code-format message', async () => {
    const wrong = lastSmsCode('13622220002') === '000000' ? '111111' : '000000';
    await post('/api/captcha/code/send', { realm: 'USER', account: 'codeuser2' });
    const { res } = await passByCode('USER', 'codeuser2', wrong);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message: SMS_MSG.wrongCode });
    const { res: bad } = await passByCode('USER', 'codeuser2', '12ab');
    expect(bad.json()).toMatchObject({ status: 400, message: VALIDATION_MSG.codeFormat });
  });

  it('an unknown login name gets the very same answer as a known one, and nothing is sent', async () => {
    const before = outbox('sms-outbox.jsonl').length + outbox('email-outbox.jsonl').length;
    const unknown = await post('/api/captcha/code/send', { realm: 'USER', account: 'nosuchuser' });
    const known = await post('/api/captcha/code/send', { realm: 'EXPERT', account: 'e9001' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(outbox('sms-outbox.jsonl').length + outbox('email-outbox.jsonl').length).toBe(before + 1);
    // Its next request within 60 s is refused the same way too.
    const unknownAgain = await post('/api/captcha/code/send', { realm: 'USER', account: 'nosuchuser' });
    const knownAgain = await post('/api/captcha/code/send', { realm: 'EXPERT', account: 'e9001' });
    expect(unknownAgain.json()).toEqual(knownAgain.json());
    expect(knownAgain.json()).toMatchObject({ status: 400, message: SMS_MSG.tooFrequent });
    const { res } = await passByCode('USER', 'nosuchuser', '123456');
    expect(res.json()).toMatchObject({ status: 400, message: SMS_MSG.wrongCode });
  });

  it('realms are bound: a staff code opens the staff login only, not the participant login of the same name', async () => {
    await post('/api/captcha/code/send', { realm: 'ADMIN', account: 'codeuser1' });
    const code = lastMailCode('admin1@example.com')!;
    expect(code).toMatch(/^\d{6}$/);
    const first = await passByCode('ADMIN', 'codeuser1', code);
    expect(first.res.json()).toMatchObject({ status: 200, data: { pass: true } });
    const participant = await post('/api/login', { username: 'codeuser1', password: PASSWORD, imageKey: first.imageKey, slidingDistance: 0 });
    expect(participant.json()).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed });

    // A fresh code for the admin realm signs in at /admin/login.
    await t.app.deps.kv.del(`sms:resend:ADMIN:name:codeuser1`);
    await post('/api/captcha/code/send', { realm: 'ADMIN', account: 'codeuser1' });
    const second = await passByCode('ADMIN', 'codeuser1', lastMailCode('admin1@example.com')!);
    const admin = await post('/api/admin/login', { username: 'codeuser1', password: PASSWORD, imageKey: second.imageKey, slidingDistance: 0 });
    expect(admin.json()).toMatchObject({ status: 200, message: AUTH_MSG.loginSuccess });
  });

  it('an expert signs in by the code sent to the phone, named by expert code', async () => {
    await t.app.deps.kv.del(`sms:resend:EXPERT:name:E9001`);
    await post('/api/captcha/code/send', { realm: 'EXPERT', account: 'E9001' });
    const { imageKey, res } = await passByCode('EXPERT', 'E9001', lastSmsCode('13622220009')!);
    expect(res.json()).toMatchObject({ status: 200, data: { pass: true } });
    const expert = await post('/api/expert/login', { username: 'E9001', password: PASSWORD, imageKey, slidingDistance: 0 });
    expect(expert.json()).toMatchObject({ status: 200, message: AUTH_MSG.loginSuccess });
  });

  it('a participant on the SMS tab names the account by phone; the nonce then opens the phone login only', async () => {
    await post('/api/captcha/code/send', { realm: 'USER', account: '13622220002', isPhoneLogin: true });
    const captchaCode = lastSmsCode('13622220002')!;
    const { imageKey, res } = await passByCode('USER', '13622220002', captchaCode, { isPhoneLogin: true });
    expect(res.json()).toMatchObject({ status: 200, data: { pass: true } });
    // A login by username with this nonce is refused: it was passed for the phone login.
    const byName = await post('/api/login', { username: 'codeuser2', password: PASSWORD, imageKey, slidingDistance: 0 });
    expect(byName.json()).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed });
  });
});
