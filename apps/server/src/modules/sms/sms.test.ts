import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, SMS, VALIDATION_MSG, type SmsKey } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { createMemoryKvStore, type KvStore } from '../../lib/kv-store.js';
import type { AppConfig } from '../../config/config.js';
import {
  SMS_OUTBOX_FILE,
  SmsGatewayError,
  createLogSmsProvider,
  createSmsProvider,
  createTencentSmsProvider,
  type SmsMessage,
  type SmsProvider,
  type TencentSmsSettings,
} from './sms.provider.js';
import { smsRoutes, type SendSmsInput } from './sms.routes.js';
import { SMS_MSG, createSmsService, smsKvKeys, smsText, type SmsLimits } from './sms.service.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 2025-06-01 10:00 in Beijing. */
const BEIJING_10AM = Date.UTC(2025, 5, 1, 2, 0, 0);

interface RecordingProvider extends SmsProvider {
  sent: SmsMessage[];
  failWith: Error | null;
  lastCode(): string;
}

function recordingProvider(): RecordingProvider {
  const provider: RecordingProvider = {
    name: 'recording',
    sent: [],
    failWith: null,
    async send(message) {
      if (provider.failWith) throw provider.failWith;
      provider.sent.push(message);
    },
    lastCode() {
      const last = provider.sent.at(-1);
      if (!last) throw new Error('nothing sent');
      return last.params[0]!;
    },
  };
  return provider;
}

/** Records every key and value written, to prove the plain code never reaches the store. */
function spyKv(inner: KvStore): KvStore & { keys: string[]; values: string[] } {
  const keys: string[] = [];
  const values: string[] = [];
  return {
    keys,
    values,
    get: (key) => inner.get(key),
    set: (key, value, ttl) => (keys.push(key), values.push(value), inner.set(key, value, ttl)),
    setIfAbsent: (key, value, ttl) => (keys.push(key), values.push(value), inner.setIfAbsent(key, value, ttl)),
    take: (key) => inner.take(key),
    del: (key) => inner.del(key),
    incr: (key, ttl) => (keys.push(key), inner.incr(key, ttl)),
    ttl: (key) => inner.ttl(key),
  };
}

function setup(options: { limits?: Partial<SmsLimits>; codes?: string[]; start?: number } = {}) {
  const clock = { now: options.start ?? BEIJING_10AM };
  const now = () => clock.now;
  const kv = spyKv(createMemoryKvStore(now));
  const provider = recordingProvider();
  const codes = options.codes ? [...options.codes] : null;
  const sms = createSmsService({
    kv,
    provider,
    limits: { dailyPerPhone: 100, dailyPerIp: 1000, ...options.limits },
    now,
    ...(codes ? { random: () => codes.shift() ?? '000000' } : {}),
  });
  const advance = (ms: number) => {
    clock.now += ms;
  };
  return { clock, kv, provider, sms, advance };
}

const login = (phone: string) => ({ phone, smsKey: 'LOGIN_VERIFY_KEY' as const, ip: '10.0.0.1' });

describe('SMS service: codes', () => {
  it('sends a 6-digit code in the fixed text, storing only its SHA-256 hash', async () => {
    const { sms, kv, provider } = setup({ codes: ['918273'] });
    await expect(sms.send(login('13800000001'))).resolves.toEqual({ resendAfterSeconds: 60 });
    expect(provider.sent).toEqual([
      {
        phone: '13800000001',
        templateKey: 'LOGIN_VERIFY_KEY',
        params: ['918273', '10'],
        text: '【2025全国智慧医保大赛】您的验证码为918273，10分钟内有效，请勿泄露给他人。',
      },
    ]);
    expect(kv.keys.length).toBeGreaterThan(0);
    for (const written of [...kv.keys, ...kv.values]) expect(written).not.toContain('918273');
    for (const key of kv.keys) expect(key).toMatch(/^sms:/);
    const stored = JSON.parse((await kv.get(smsKvKeys.code('LOGIN_VERIFY_KEY', '13800000001')))!);
    const hash = createHash('sha256').update('LOGIN_VERIFY_KEY:13800000001:918273').digest('hex');
    expect(stored).toMatchObject({ hash, tries: 0 });
    expect(await kv.ttl(smsKvKeys.code('LOGIN_VERIFY_KEY', '13800000001'))).toBe(SMS.validMs);
  });

  it('generates uniform zero-padded 6-digit codes by default', async () => {
    const { sms, provider } = setup();
    for (let i = 0; i < 40; i++) await sms.send(login(`1380000${String(1000 + i)}`));
    const codes = provider.sent.map((m) => m.params[0]);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(35);
    expect(smsText('000042')).toBe('【2025全国智慧医保大赛】您的验证码为000042，10分钟内有效，请勿泄露给他人。');
  });

  it('keeps a code valid for 10 minutes and not a moment longer', async () => {
    const { sms, provider, advance } = setup();
    await sms.send(login('13800000002'));
    const early = provider.lastCode();
    await sms.send(login('13800000003'));
    const late = provider.lastCode();
    advance(SMS.validMs - 1);
    await expect(sms.verify({ phone: '13800000002', smsKey: 'LOGIN_VERIFY_KEY', code: early })).resolves.toBeUndefined();
    advance(1);
    await expect(sms.verify({ phone: '13800000003', smsKey: 'LOGIN_VERIFY_KEY', code: late })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: SMS_MSG.expired,
    });
  });

  it('is single use', async () => {
    const { sms, provider } = setup();
    await sms.send(login('13800000004'));
    const input = { phone: '13800000004', smsKey: 'LOGIN_VERIFY_KEY' as const, code: provider.lastCode() };
    await sms.verify(input);
    await expect(sms.verify(input)).rejects.toMatchObject({ message: SMS_MSG.expired });
  });

  it('lets exactly one of two concurrent verifies succeed', async () => {
    const { sms, provider } = setup();
    await sms.send(login('13800000005'));
    const input = { phone: '13800000005', smsKey: 'LOGIN_VERIFY_KEY' as const, code: provider.lastCode() };
    const results = await Promise.allSettled([sms.verify(input), sms.verify(input)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ message: SMS_MSG.expired });
  });

  it('is bound to its purpose: a login code does not register', async () => {
    const { sms, provider } = setup();
    await sms.send(login('13800000006'));
    await expect(
      sms.verify({ phone: '13800000006', smsKey: 'REGISTER_VERIFY_KEY', code: provider.lastCode() }),
    ).rejects.toMatchObject({ message: SMS_MSG.expired });
    await sms.verify({ phone: '13800000006', smsKey: 'LOGIN_VERIFY_KEY', code: provider.lastCode() });
  });

  it('destroys the code after 5 wrong tries, after which even the right code fails', async () => {
    const { sms } = setup({ codes: ['123456'] });
    await sms.send(login('13800000007'));
    const attempt = (code: string) => sms.verify({ phone: '13800000007', smsKey: 'LOGIN_VERIFY_KEY', code });
    for (let i = 0; i < SMS.maxWrongTries; i++) {
      await expect(attempt('654321')).rejects.toMatchObject({ code: 'BAD_REQUEST', message: SMS_MSG.wrongCode });
    }
    await expect(attempt('123456')).rejects.toMatchObject({ message: SMS_MSG.expired });
  });

  it('still accepts the right code after 4 wrong tries, keeping the code expiry', async () => {
    const { sms, kv, advance } = setup({ codes: ['123456'] });
    await sms.send(login('13800000008'));
    const attempt = (code: string) => sms.verify({ phone: '13800000008', smsKey: 'LOGIN_VERIFY_KEY', code });
    advance(3 * MINUTE);
    for (let i = 0; i < SMS.maxWrongTries - 1; i++) await expect(attempt('1234567')).rejects.toMatchObject({ message: SMS_MSG.wrongCode });
    // Put back with what remained, not a fresh 10 minutes.
    expect(await kv.ttl(smsKvKeys.code('LOGIN_VERIFY_KEY', '13800000008'))).toBe(SMS.validMs - 3 * MINUTE);
    await attempt('123456');
  });

  it('answers an unknown or never-sent code as expired', async () => {
    const { sms } = setup();
    await expect(sms.verify({ phone: '13800000009', smsKey: 'FIND_PASSWORD_KEY', code: '123456' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: SMS_MSG.expired,
    });
  });

  it('a new code replaces the old one and resets the wrong tries', async () => {
    const { sms, advance } = setup({ codes: ['111111', '222222'] });
    const attempt = (code: string) => sms.verify({ phone: '13800000010', smsKey: 'LOGIN_VERIFY_KEY', code });
    await sms.send(login('13800000010'));
    for (let i = 0; i < SMS.maxWrongTries - 1; i++) await expect(attempt('999999')).rejects.toMatchObject({ message: SMS_MSG.wrongCode });
    advance(61_000);
    await sms.send(login('13800000010'));
    await expect(attempt('111111')).rejects.toMatchObject({ message: SMS_MSG.wrongCode });
    for (let i = 0; i < SMS.maxWrongTries - 2; i++) await expect(attempt('999999')).rejects.toMatchObject({ message: SMS_MSG.wrongCode });
    await attempt('222222');
  });

  it('refuses a malformed phone without sending', async () => {
    const { sms, provider } = setup();
    for (const phone of ['12800000000', '1380000000', '138000000000', '', '+8613800000000', '1380000000a']) {
      await expect(sms.send(login(phone))).rejects.toMatchObject({ code: 'BAD_REQUEST', message: VALIDATION_MSG.phoneFormat });
    }
    await expect(sms.send({ phone: '13800000011', smsKey: 'OTHER' as SmsKey, ip: '10.0.0.1' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(provider.sent).toHaveLength(0);
  });
});

describe('SMS service: resend window and daily caps', () => {
  it('refuses a resend within 60 s (any purpose) with the seconds left, then allows it', async () => {
    const { sms, advance, provider } = setup();
    await sms.send(login('13800000020'));
    advance(30_000);
    const refused = await sms.send({ phone: '13800000020', smsKey: 'REGISTER_VERIFY_KEY', ip: '10.0.0.2' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: SMS_MSG.tooFrequent, data: { retryAfterSeconds: 30 } });
    advance(29_500);
    await expect(sms.send(login('13800000020'))).rejects.toMatchObject({ data: { retryAfterSeconds: 1 } });
    advance(500);
    await expect(sms.send(login('13800000020'))).resolves.toEqual({ resendAfterSeconds: 60 });
    expect(provider.sent).toHaveLength(2);
  });

  it('caps sends per phone per Beijing day, resetting at Beijing midnight (not UTC)', async () => {
    // 07:00 Beijing = 23:00 UTC the day before: UTC midnight falls within the test.
    const start = Date.UTC(2025, 5, 1, 23, 0, 0);
    const { sms, advance, provider } = setup({ limits: { dailyPerPhone: 3 }, start });
    for (let i = 0; i < 3; i++) {
      await sms.send(login('13800000021'));
      advance(61_000);
    }
    await expect(sms.send(login('13800000021'))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      message: SMS_MSG.dailyLimit,
    });
    // The refusal left no resend window: an immediate retry hears about the cap again.
    await expect(sms.send(login('13800000021'))).rejects.toMatchObject({ message: SMS_MSG.dailyLimit });
    advance(2 * HOUR); // past UTC midnight, still the same Beijing day
    await expect(sms.send(login('13800000021'))).rejects.toMatchObject({ message: SMS_MSG.dailyLimit });
    await expect(sms.send(login('13800000022'))).resolves.toBeDefined();
    // To 23:59:59.999 Beijing, then midnight.
    const beijingMidnight = Date.UTC(2025, 5, 2, 16, 0, 0);
    advance(beijingMidnight - 1 - (start + 3 * 61_000 + 2 * HOUR));
    await expect(sms.send(login('13800000021'))).rejects.toMatchObject({ message: SMS_MSG.dailyLimit });
    advance(1);
    await expect(sms.send(login('13800000021'))).resolves.toEqual({ resendAfterSeconds: 60 });
    expect(provider.sent.filter((m) => m.phone === '13800000021')).toHaveLength(4);
  });

  it('caps sends per IP per day, without charging the refused phone', async () => {
    const { sms, advance, clock } = setup({ limits: { dailyPerIp: 2, dailyPerPhone: 1 } });
    const from = (phone: string, ip: string) => sms.send({ phone, smsKey: 'REGISTER_VERIFY_KEY', ip });
    await from('13800000030', '10.0.0.30');
    await from('13800000031', '10.0.0.30');
    await expect(from('13800000032', '10.0.0.30')).rejects.toMatchObject({ code: 'RATE_LIMITED', message: SMS_MSG.dailyLimit });
    // Another address is not affected, and the refused phone still has its own quota.
    await expect(from('13800000032', '10.0.0.31')).resolves.toBeDefined();
    const nextMidnight = Date.UTC(2025, 5, 1, 16, 0, 0);
    advance(nextMidnight - clock.now);
    await expect(from('13800000033', '10.0.0.30')).resolves.toBeDefined();
  });

  it('leaves nothing behind when the provider fails, so an immediate retry works', async () => {
    const { sms, kv, provider } = setup({ limits: { dailyPerPhone: 1, dailyPerIp: 1 }, codes: ['555555', '666666'] });
    provider.failWith = new Error('gateway down');
    const failed = await sms.send(login('13800000040')).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, message: SMS_MSG.sendFailed });
    expect((failed as Error).cause).toBe(provider.failWith);
    expect(await kv.get(smsKvKeys.code('LOGIN_VERIFY_KEY', '13800000040'))).toBeNull();
    expect(await kv.get(smsKvKeys.resend('13800000040'))).toBeNull();
    await expect(sms.verify({ phone: '13800000040', smsKey: 'LOGIN_VERIFY_KEY', code: '555555' })).rejects.toMatchObject({
      message: SMS_MSG.expired,
    });

    // Same phone, same address, at once, with caps of one: the failure cost no quota.
    provider.failWith = null;
    await expect(sms.send(login('13800000040'))).resolves.toEqual({ resendAfterSeconds: 60 });
    await sms.verify({ phone: '13800000040', smsKey: 'LOGIN_VERIFY_KEY', code: '666666' });
  });
});

describe('SMS service: a send that delivers nothing', () => {
  it('holds the window, the daily counts and a code, answers as a send does, and hands nothing to the gateway', async () => {
    const { sms, provider, kv, advance } = setup({ codes: ['111111', '424242'], limits: { dailyPerPhone: 2 } });
    const real = await sms.send(login('13900000041'));
    const silent = await sms.send(login('13900000042'), { deliver: false });
    expect(silent).toEqual(real);
    expect(provider.sent.map((m) => m.phone)).toEqual(['13900000041']);
    expect(await kv.get(smsKvKeys.code('LOGIN_VERIFY_KEY', '13900000042'))).not.toBeNull();
    // A guess answers as a wrong code would; the 60 s window and the daily cap hold as for a real phone.
    await expect(sms.verify({ phone: '13900000042', smsKey: 'LOGIN_VERIFY_KEY', code: '000000' })).rejects.toMatchObject({ message: SMS_MSG.wrongCode });
    await expect(sms.send(login('13900000042'), { deliver: false })).rejects.toMatchObject({ message: SMS_MSG.tooFrequent });
    advance(61_000);
    await sms.send(login('13900000042'), { deliver: false });
    advance(61_000);
    await expect(sms.send(login('13900000042'), { deliver: false })).rejects.toMatchObject({ message: SMS_MSG.dailyLimit });
    expect(provider.sent).toHaveLength(1);
  });
});

describe('log provider', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sms-log-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('appends one parseable JSON line per message to sms-outbox.jsonl and logs it', async () => {
    const dataDir = join(dir, 'not', 'yet', 'there');
    const log = { info: vi.fn() };
    const provider = createLogSmsProvider({ dataDir, log });
    expect(provider.name).toBe('log');
    const message = { phone: '13800000050', templateKey: 'LOGIN_VERIFY_KEY', params: ['123456', '10'], text: smsText('123456') };
    await provider.send(message);
    await Promise.all(Array.from({ length: 20 }, (_, i) => provider.send({ ...message, phone: `138000001${String(i).padStart(2, '0')}` })));

    const lines = (await readFile(join(dataDir, SMS_OUTBOX_FILE), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(21);
    const first = JSON.parse(lines[0]!);
    expect(first).toEqual({ time: expect.any(String), ...message });
    expect(Date.parse(first.time)).not.toBeNaN();
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(log.info).toHaveBeenCalledTimes(21);
    expect(log.info.mock.calls[0]![0]).toMatchObject({ sms: { phone: '13800000050', text: message.text } });
    expect(typeof log.info.mock.calls[0]![1]).toBe('string');
  });

  it('is what the service writes to, so a journey can read the code back', async () => {
    const provider = createSmsProvider(
      { provider: 'log', dailyLimitPerPhone: 10, dailyLimitPerIp: 300, tencent: null },
      { dataDir: dir, log: { info: () => {} } },
    );
    const sms = createSmsService({ kv: createMemoryKvStore(), provider, limits: { dailyPerPhone: 10, dailyPerIp: 10 } });
    await sms.send(login('13800000051'));
    const record = JSON.parse((await readFile(join(dir, SMS_OUTBOX_FILE), 'utf8')).trim());
    const code = /验证码为(\d{6})/.exec(record.text)![1]!;
    expect(record.params[0]).toBe(code);
    await sms.verify({ phone: '13800000051', smsKey: 'LOGIN_VERIFY_KEY', code });
  });
});

// ---------------------------------------------------------------------------------------------
// Tencent adapter against a local fake gateway

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const SECRET_ID = 'AKIDtestSecretId0123456789';
const SECRET_KEY = 'tEsTsEcReTkEy-do-not-leak-9f8e7d';

/** An independent TC3-HMAC-SHA256 implementation, from Tencent's documentation. */
function expectedAuthorization(received: Received): string {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
  const timestamp = Number(received.headers['x-tc-timestamp']);
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const canonical = [
    received.method,
    received.url.split('?')[0],
    received.url.split('?')[1] ?? '',
    `content-type:${received.headers['content-type']}\nhost:${received.headers.host}\nx-tc-action:${String(received.headers['x-tc-action']).toLowerCase()}\n`,
    'content-type;host;x-tc-action',
    sha(received.body),
  ].join('\n');
  const scope = `${date}/sms/tc3_request`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha(canonical)}`;
  const key = hmac(hmac(hmac(`TC3${SECRET_KEY}`, date), 'sms'), 'tc3_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${SECRET_ID}/${scope}, SignedHeaders=content-type;host;x-tc-action, Signature=${signature}`;
}

describe('Tencent SMS provider', () => {
  let server: Server;
  let settings: TencentSmsSettings;
  const received: Received[] = [];
  let reply: { status: number; body: unknown } | 'hang' = { status: 200, body: {} };

  const okReply = (phone: string) => ({
    status: 200,
    body: {
      Response: {
        SendStatusSet: [{ SerialNo: '2433:1', PhoneNumber: `+86${phone}`, Fee: 1, Code: 'Ok', Message: 'send success', IsoCode: 'CN' }],
        RequestId: 'req-ok',
      },
    },
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (reply === 'hang') return;
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    settings = {
      secretId: SECRET_ID,
      secretKey: SECRET_KEY,
      sdkAppId: '1400000001',
      signName: '智慧医保大赛',
      templateId: '2000001',
      region: 'ap-guangzhou',
      endpoint: `http://127.0.0.1:${port}`,
    };
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const message = { phone: '13800000060', templateKey: 'LOGIN_VERIFY_KEY', params: ['246810', '10'], text: smsText('246810') };

  it('sends a correctly signed SendSms request and resolves on Ok', async () => {
    reply = okReply('13800000060');
    const provider = createTencentSmsProvider(settings);
    expect(provider.name).toBe('tencent');
    const before = Math.floor(Date.now() / 1000);
    await expect(provider.send(message)).resolves.toBeUndefined();

    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/');
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(req.headers['x-tc-action']).toBe('SendSms');
    expect(req.headers['x-tc-version']).toBe('2021-01-11');
    expect(req.headers['x-tc-region']).toBe('ap-guangzhou');
    const timestamp = Number(req.headers['x-tc-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(req.headers.host).toBe(new URL(settings.endpoint).host);
    expect(req.headers.authorization).toBe(expectedAuthorization(req));
    expect(req.headers.authorization).not.toContain(SECRET_KEY);

    expect(JSON.parse(req.body)).toEqual({
      PhoneNumberSet: ['+8613800000060'],
      SmsSdkAppId: '1400000001',
      SignName: '智慧医保大赛',
      TemplateId: '2000001',
      TemplateParamSet: ['246810', '10'],
    });
  });

  it('a signature over a tampered body would not match', async () => {
    reply = okReply('13800000060');
    await createTencentSmsProvider(settings).send(message);
    const req = received[0]!;
    const tampered = { ...req, body: req.body.replace('246810', '246811') };
    expect(req.headers.authorization).not.toBe(expectedAuthorization(tampered));
  });

  it('throws on an Error response with the gateway code, never the secrets', async () => {
    reply = {
      status: 200,
      body: {
        Response: {
          Error: { Code: 'AuthFailure.SignatureFailure', Message: `The signature computed with ${SECRET_KEY} for ${SECRET_ID} is wrong` },
          RequestId: 'req-err',
        },
      },
    };
    const error = await createTencentSmsProvider(settings).send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsGatewayError);
    expect(error).toMatchObject({ code: 'AuthFailure.SignatureFailure' });
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).stack)}`;
    expect(text).toContain('AuthFailure.SignatureFailure');
    expect(text).toContain('req-err');
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(SECRET_ID);
  });

  it('throws on a SendStatus that is not Ok', async () => {
    reply = {
      status: 200,
      body: {
        Response: {
          SendStatusSet: [{ PhoneNumber: '+8613800000060', Code: 'LimitExceeded.PhoneNumberDailyLimit', Message: 'daily limit' }],
          RequestId: 'req-limit',
        },
      },
    };
    const error = await createTencentSmsProvider(settings).send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsGatewayError);
    expect(error).toMatchObject({ code: 'LimitExceeded.PhoneNumberDailyLimit' });
    expect((error as Error).message).toContain('LimitExceeded.PhoneNumberDailyLimit');
    expect((error as Error).message).not.toContain(SECRET_KEY);
  });

  it('throws on an HTTP failure, an unreadable answer or an empty status set', async () => {
    const provider = createTencentSmsProvider(settings);
    reply = { status: 502, body: '<html>bad gateway</html>' };
    await expect(provider.send(message)).rejects.toMatchObject({ code: 'HTTP_502' });
    reply = { status: 200, body: { Response: { SendStatusSet: [], RequestId: 'r' } } };
    await expect(provider.send(message)).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('gives up after its timeout', async () => {
    reply = 'hang';
    const provider = createTencentSmsProvider(settings, { timeoutMs: 150 });
    await expect(provider.send(message)).rejects.toMatchObject({ name: 'SmsGatewayError', code: 'TIMEOUT' });
  });

  it('turns into a 503 in the service, leaving no code behind', async () => {
    reply = { status: 200, body: { Response: { Error: { Code: 'FailedOperation.InsufficientBalanceInSmsPackage', Message: 'no balance' }, RequestId: 'x' } } };
    const kv = createMemoryKvStore();
    const sms = createSmsService({ kv, provider: createTencentSmsProvider(settings), limits: { dailyPerPhone: 5, dailyPerIp: 5 } });
    const error = await sms.send(login('13800000061')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: SMS_MSG.sendFailed });
    expect(((error as Error).cause as SmsGatewayError).code).toBe('FailedOperation.InsufficientBalanceInSmsPackage');
    expect(await kv.get(smsKvKeys.code('LOGIN_VERIFY_KEY', '13800000061'))).toBeNull();
  });

  it('is chosen by createSmsProvider when configured', () => {
    const sms: AppConfig['sms'] = { provider: 'tencent', dailyLimitPerPhone: 10, dailyLimitPerIp: 300, tencent: settings };
    expect(createSmsProvider(sms, { dataDir: tmpdir(), log: { info: () => {} } }).name).toBe('tencent');
    expect(() => createSmsProvider({ ...sms, tencent: null }, { dataDir: tmpdir(), log: { info: () => {} } })).toThrow(/SMS_TENCENT/);
  });
});

// ---------------------------------------------------------------------------------------------
// Route, through the whole app (kv store in Redis when REDIS_URL is set)

describe('POST /api/login/send/sms', () => {
  let t: TestApp;
  const provider = recordingProvider();
  const hookCalls: SendSmsInput[] = [];
  const clock = { now: BEIJING_10AM };
  const clockedProvider = recordingProvider();

  beforeAll(async () => {
    t = await createTestApp({}, { bare: true });
    const sms = createSmsService({ kv: t.app.deps.kv, provider, limits: { dailyPerPhone: 10, dailyPerIp: 300 } });
    t.app.register(smsRoutes, {
      prefix: '/api',
      sms,
      beforeSend: async (input) => {
        hookCalls.push(input);
        if (input.phone === '13900000099' && input.smsKey === 'REGISTER_VERIFY_KEY') throw badRequest('该手机号已注册');
      },
    });
    // A hook that answers "do not deliver" (a login code for an unregistered phone).
    t.app.register(smsRoutes, {
      prefix: '/silent',
      sms: createSmsService({ kv: t.app.deps.kv, provider, limits: { dailyPerPhone: 10, dailyPerIp: 300 } }),
      beforeSend: async () => ({ deliver: false }),
    });
    // The same route over a fake clock, to walk the 60 s rule second by second.
    const now = () => clock.now;
    t.app.register(smsRoutes, {
      prefix: '/clocked',
      sms: createSmsService({ kv: createMemoryKvStore(now), provider: clockedProvider, now, limits: { dailyPerPhone: 10, dailyPerIp: 300 } }),
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = (payload: unknown, remoteAddress = '10.2.0.1', prefix = '/api') =>
    t.app.inject({ method: 'POST', url: `${prefix}/login/send/sms`, payload: payload as object, remoteAddress });

  it('sends the code and answers 200 with the resend wait', async () => {
    const res = await post({ phone: '13900000001', smsKey: 'REGISTER_VERIFY_KEY' }, '10.2.0.2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, code: 'OK', message: '验证码已发送', data: { resendAfterSeconds: 60 } });
    expect(provider.sent.at(-1)).toMatchObject({ phone: '13900000001', templateKey: 'REGISTER_VERIFY_KEY' });
    expect(provider.sent.at(-1)!.text).toMatch(/^【2025全国智慧医保大赛】您的验证码为\d{6}，10分钟内有效，请勿泄露给他人。$/);
    expect(hookCalls.at(-1)).toEqual({ phone: '13900000001', smsKey: 'REGISTER_VERIFY_KEY', ip: '10.2.0.2' });
    // The response never carries the code.
    expect(res.body).not.toContain(provider.lastCode());
  });

  it('validates the phone with the spec messages, in order', async () => {
    const cases: [unknown, string][] = [
      [undefined, VALIDATION_MSG.phoneRequired],
      ['', VALIDATION_MSG.phoneRequired],
      ['1390000000', VALIDATION_MSG.phoneLength],
      ['139000000012', VALIDATION_MSG.phoneLength],
      ['23900000001', VALIDATION_MSG.phoneFormat],
      ['12900000001', VALIDATION_MSG.phoneFormat],
      ['1390000000a', VALIDATION_MSG.phoneFormat],
      [13900000001, VALIDATION_MSG.phoneFormat],
    ];
    const before = provider.sent.length;
    for (const [phone, message] of cases) {
      const res = await post({ phone, smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.3');
      expect(res.statusCode, String(phone)).toBe(400);
      expect(res.json(), String(phone)).toEqual({ status: 400, code: 'VALIDATION_FAILED', message, data: { field: 'phone' } });
    }
    expect(provider.sent.length).toBe(before);
  });

  it('refuses an unknown smsKey naming the field', async () => {
    for (const smsKey of ['OTHER_KEY', undefined, 1]) {
      const res = await post({ phone: '13900000002', smsKey }, '10.2.0.4');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', data: { field: 'smsKey' } });
      expect(res.json().message).toMatch(/smsKey/);
    }
    const res = await post({ phone: '13900000002', smsKey: 'OTHER_KEY' }, '10.2.0.4');
    expect(res.json().message).toBe(MSG.invalidField('smsKey'));
  });

  it('refuses a resend within 60 s and allows it at 61 s', async () => {
    const first = await post({ phone: '13900000003', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.5', '/clocked');
    expect(first.statusCode).toBe(200);
    clock.now += 59_000;
    const early = await post({ phone: '13900000003', smsKey: 'REGISTER_VERIFY_KEY' }, '10.2.0.5', '/clocked');
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ status: 400, code: 'BAD_REQUEST', message: SMS_MSG.tooFrequent, data: { retryAfterSeconds: 1 } });
    clock.now += 2_000;
    const later = await post({ phone: '13900000003', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.5', '/clocked');
    expect(later.statusCode).toBe(200);
    expect(clockedProvider.sent).toHaveLength(2);
  });

  it('keeps the resend window in the shared store, expiring with its TTL', async () => {
    const phone = '13900000004';
    expect((await post({ phone, smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.6')).statusCode).toBe(200);
    const again = await post({ phone, smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.6');
    expect(again.statusCode).toBe(400);
    expect(again.json().data.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(again.json().data.retryAfterSeconds).toBeLessThanOrEqual(60);
    // On the REDIS_URL pass this must really be Redis, not the in-memory fallback.
    expect(Boolean(t.app.deps.redis)).toBe(Boolean(process.env.REDIS_URL));
    const kv = t.app.deps.kv;
    const ttl = await kv.ttl(smsKvKeys.resend(phone));
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Stand in for the minute passing: shorten the TTL and let the store expire the key.
    await kv.set(smsKvKeys.resend(phone), 'x', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post({ phone, smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.6')).statusCode).toBe(200);
    if (t.app.deps.redis) {
      const keys = await t.app.deps.redis.keys(`${t.config.redisPrefix}kv:sms:*`);
      expect(keys.length).toBeGreaterThan(0);
    }
  });

  it('lets exactly one of two concurrent verifies succeed on the shared store', async () => {
    const sms = createSmsService({ kv: t.app.deps.kv, provider, limits: { dailyPerPhone: 10, dailyPerIp: 300 } });
    await sms.send({ phone: '13900000005', smsKey: 'LOGIN_VERIFY_KEY', ip: '10.2.0.7' });
    const input = { phone: '13900000005', smsKey: 'LOGIN_VERIFY_KEY' as const, code: provider.lastCode() };
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => sms.verify(input)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('runs the beforeSend hook first: its refusal sends and holds nothing', async () => {
    const refused = await post({ phone: '13900000099', smsKey: 'REGISTER_VERIFY_KEY' }, '10.2.0.8');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'BAD_REQUEST', message: '该手机号已注册' });
    expect(provider.sent.some((m) => m.phone === '13900000099')).toBe(false);
    const allowed = await post({ phone: '13900000099', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.8');
    expect(allowed.statusCode).toBe(200);
  });

  it('a hook may answer "do not deliver": the same answer and wait as a real send, nothing sent', async () => {
    const before = provider.sent.length;
    const real = await post({ phone: '13900000051', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.12');
    const silent = await post({ phone: '13900000052', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.12', '/silent');
    expect(real.statusCode).toBe(200);
    expect(silent.statusCode).toBe(200);
    expect(silent.json()).toEqual(real.json());
    expect(provider.sent.length).toBe(before + 1);
    expect(provider.sent.some((m) => m.phone === '13900000052')).toBe(false);
    const [realAgain, silentAgain] = [
      await post({ phone: '13900000051', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.12'),
      await post({ phone: '13900000052', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.12', '/silent'),
    ];
    expect(silentAgain.statusCode).toBe(realAgain.statusCode);
    expect({ ...silentAgain.json(), data: null }).toEqual({ ...realAgain.json(), data: null });
    expect(silentAgain.json().data.retryAfterSeconds).toBeGreaterThanOrEqual(59);
  });

  it('answers 503 when the gateway fails', async () => {
    provider.failWith = new Error('gateway down');
    try {
      const res = await post({ phone: '13900000006', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.9');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: SMS_MSG.sendFailed, data: null });
    } finally {
      provider.failWith = null;
    }
    expect((await post({ phone: '13900000006', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.9')).statusCode).toBe(200);
  });

  it('limits one IP to 20 requests a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await post({ phone: `137000000${String(i).padStart(2, '0')}`, smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.10');
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
    const limited = await post({ phone: '13700000099', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.10');
    expect(limited.json()).toEqual({ status: 429, code: 'RATE_LIMITED', message: MSG.tooManyRequests, data: null });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other addresses are unaffected.
    expect((await post({ phone: '13700000098', smsKey: 'LOGIN_VERIFY_KEY' }, '10.2.0.11')).statusCode).toBe(200);
  });
});
