import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MENUS, AUTH_MSG, MSG } from '@contest/shared';
import { captchaKeys } from '../src/modules/captcha/captcha.service.js';
import { SMS_MSG } from '../src/modules/sms/sms.service.js';
import { seedAtStartup } from '../src/startup.js';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * The identity calls as wired in buildApp: real captcha (answer read from the shared store),
 * real SMS service with the log provider (codes read from the outbox file), real sessions.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

let ipSeq = 0;
const ip = () => `10.44.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

async function solveCaptcha(): Promise<{ imageKey: string; slidingDistance: number }> {
  const challenge = (await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: ip() })).json().data;
  expect(challenge.canvasSrc).toMatch(/^data:image\/png;base64,/);
  const { x } = JSON.parse((await t.app.deps.kv.get(captchaKeys.answer(challenge.nonceStr)))!) as { x: number };
  // A person's drag (docs/rules/identity.md, "Slider captcha"): eased, wobbling, taking its time after the picture arrived.
  const points = Array.from({ length: 13 }, (_, i) => [Math.round((x + 2) * (1 - (1 - i / 12) ** 3) * 10) / 10, i ? (i % 3) - 1 : 0, i * 25]);
  await new Promise((resolve) => setTimeout(resolve, 400));
  const check = await t.app.inject({
    method: 'POST',
    url: '/api/captcha/check',
    payload: { imageKey: challenge.nonceStr, slidingDistance: x + 2, track: { input: 'pointer', points } },
    remoteAddress: ip(),
  });
  expect(check.json().data).toEqual({ pass: true });
  return { imageKey: challenge.nonceStr, slidingDistance: x + 2 };
}

function lastCodeFor(phone: string): string {
  const lines = readFileSync(join(t.config.dataDir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n');
  const mine = lines.map((l) => JSON.parse(l) as { phone: string; params: string[] }).filter((m) => m.phone === phone);
  return mine.at(-1)!.params[0]!;
}

const sendSms = (phone: string, smsKey: string) =>
  t.app.inject({ method: 'POST', url: '/api/login/send/sms', payload: { phone, smsKey }, remoteAddress: ip() });

describe('identity through the real wiring', () => {
  const user = { username: 'wired01', password: 'Wired@2025', email: 'wired01@example.com', phone: '13712345678' };

  it('registers with the code from the outbox, then signs in with a solved captcha', async () => {
    const sent = await sendSms(user.phone, 'REGISTER_VERIFY_KEY');
    expect(sent.json()).toMatchObject({ status: 200, data: { resendAfterSeconds: 60 } });
    const code = lastCodeFor(user.phone);
    expect(code).toMatch(/^\d{6}$/);

    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: { ...user, smsCode: code }, remoteAddress: ip() });
    expect(reg.json()).toMatchObject({ status: 200, message: MSG.registerSuccess });
    expect((await sendSms(user.phone, 'REGISTER_VERIFY_KEY')).json()).toMatchObject({ status: 400, message: AUTH_MSG.phoneTaken });

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password: user.password, ...(await solveCaptcha()) },
      remoteAddress: ip(),
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.accessToken;
    const info = await t.app.inject({ method: 'GET', url: '/api/user/account', headers: { authorization: `Bearer ${token}` } });
    expect(info.json().data.account.name).toBe(user.username);
  });

  it('a login code for an unregistered phone answers as if sent, sends nothing, and its login answers as a wrong code', async () => {
    const stranger = '13712345600';
    const first = await sendSms(stranger, 'LOGIN_VERIFY_KEY');
    expect(first.json()).toEqual({ status: 200, code: 'OK', message: '验证码已发送', data: { resendAfterSeconds: 60 } });
    const outbox = readFileSync(join(t.config.dataDir, 'sms-outbox.jsonl'), 'utf8');
    expect(outbox).not.toContain(stranger);
    expect((await sendSms(stranger, 'LOGIN_VERIFY_KEY')).json()).toMatchObject({ status: 400, message: SMS_MSG.tooFrequent });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { isPhoneLogin: true, phone: stranger, smsCode: '000000' }, remoteAddress: ip() });
    expect(login.json()).toEqual({ status: 400, code: 'BAD_REQUEST', message: SMS_MSG.wrongCode, data: null });
  });

  it('a captcha nonce that failed its check cannot sign in', async () => {
    const challenge = (await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: ip() })).json().data;
    const { x } = JSON.parse((await t.app.deps.kv.get(captchaKeys.answer(challenge.nonceStr)))!) as { x: number };
    const check = await t.app.inject({ method: 'GET', url: `/api/captcha/check?imageKey=${challenge.nonceStr}&slidingDistance=${x + 30}`, remoteAddress: ip() });
    expect(check.json().data).toEqual({ pass: false });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password: user.password, imageKey: challenge.nonceStr, slidingDistance: x },
      remoteAddress: ip(),
    });
    expect(login.json()).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed });
  });

  it('signs in by SMS and recovers the password by SMS', async () => {
    // One code a minute per phone, across keys: the registration code was just sent.
    const tooSoon = await sendSms(user.phone, 'LOGIN_VERIFY_KEY');
    expect(tooSoon.json()).toMatchObject({ status: 400, data: { retryAfterSeconds: expect.any(Number) } });
    await t.app.deps.kv.del(`sms:resend:${user.phone}`);
    expect((await sendSms(user.phone, 'LOGIN_VERIFY_KEY')).statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { isPhoneLogin: true, phone: user.phone, smsCode: lastCodeFor(user.phone) },
      remoteAddress: ip(),
    });
    expect(login.statusCode).toBe(200);

    // Clear the resend window as the minute passing would.
    await t.app.deps.kv.del(`sms:resend:${user.phone}`);
    expect((await sendSms(user.phone, 'FIND_PASSWORD_KEY')).statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/login/find/password',
      payload: { phone: user.phone, smsCode: lastCodeFor(user.phone), password: 'Again@2025' },
      remoteAddress: ip(),
    });
    expect(reset.json()).toMatchObject({ status: 200, message: AUTH_MSG.passwordReset });
    const oldToken = login.json().data.accessToken;
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: { authorization: `Bearer ${oldToken}` } })).statusCode).toBe(401);
  });

  it('the seeded admin signs in to the console and gets every menu', async () => {
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'admin', password: 'Admin@2025', ...captchaPayload }, remoteAddress: ip() });
    let captchaPayload = await solveCaptcha();
    // createTestApp does not seed: no admin yet.
    expect((await attempt()).json()).toMatchObject({ status: 400, message: AUTH_MSG.badCredentials });
    await seedAtStartup(t.app, false);
    captchaPayload = await solveCaptcha();
    const res = await attempt();
    expect(res.statusCode).toBe(200);
    const info = await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: { authorization: `Bearer ${res.json().data.accessToken}` } });
    expect(info.json().data).toMatchObject({ account: 'admin', roleCode: 'SUPER_ADMIN' });
    expect(info.json().data.menus.map((m: { code: string }) => m.code)).toEqual(ADMIN_MENUS.map((m) => m.code));
  });
});
