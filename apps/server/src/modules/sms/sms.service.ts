import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { CONTEST_NAME_DEFAULT, MSG, SMS, SMS_KEYS, VALIDATION_MSG, type SmsKey } from '@contest/shared';
import { AppError, badRequest, tooManyRequests } from '../../lib/errors.js';
import type { KvStore } from '../../lib/kv-store.js';
import type { SmsProvider } from './sms.provider.js';

export const SMS_MSG = {
  tooFrequent: '验证码发送过于频繁，请60秒后再试',
  dailyLimit: '今日短信发送次数已达上限，请明天再试',
  sendFailed: '短信发送失败，请稍后再试',
  wrongCode: '验证码错误',
  expired: '验证码已失效，请重新获取',
} as const;

const PHONE_RE = /^1[3-9]\d{9}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const BEIJING_OFFSET_MS = 8 * 60 * 60 * 1000;
const VALID_MINUTES = String(SMS.validMs / 60_000);

export interface SmsLimits {
  dailyPerPhone: number;
  dailyPerIp: number;
}

export interface SmsServiceDeps {
  kv: KvStore;
  provider: SmsProvider;
  limits: SmsLimits;
  now?: () => number;
  /** Code generator (tests); defaults to a uniform 6-digit code from the CSPRNG. */
  random?: () => string;
  /**
   * What a valid address looks like; defaults to a mainland mobile number. The captcha's code
   * alternative keys its codes by login name instead and delivers them itself
   * (docs/security.md, "Captcha code alternative").
   */
  addressPattern?: RegExp;
}

export interface SendOptions {
  /**
   * false: go through every step (resend window, daily caps, a stored code) but hand nothing to
   * the gateway. For a login code asked for a phone with no account: the caller gets the very
   * answer a real send gets, later tries answer as wrong codes, and no stranger gets a text.
   */
  deliver?: boolean;
}

export interface SmsService {
  send(input: { phone: string; smsKey: SmsKey; ip: string }, options?: SendOptions): Promise<{ resendAfterSeconds: number }>;
  verify(input: { phone: string; smsKey: SmsKey; code: string }): Promise<void>;
}

/** What the kv store holds for a code: never the code itself. */
interface StoredCode {
  hash: string;
  tries: number;
  expiresAt: number;
}

export const smsKvKeys = {
  code: (smsKey: SmsKey, phone: string) => `sms:code:${smsKey}:${phone}`,
  /** Per phone, whatever the smsKey: the 60 s resend window. */
  resend: (phone: string) => `sms:resend:${phone}`,
  dailyPhone: (day: string, phone: string) => `sms:daily:phone:${day}:${phone}`,
  dailyIp: (day: string, ip: string) => `sms:daily:ip:${day}:${ip}`,
};

export function smsText(code: string): string {
  return `【${CONTEST_NAME_DEFAULT}】您的验证码为${code}，${VALID_MINUTES}分钟内有效，请勿泄露给他人。`;
}

/** Bound to phone and purpose, so a stored hash is worthless under any other key. */
function hashCode(smsKey: SmsKey, phone: string, code: string): Buffer {
  return createHash('sha256').update(`${smsKey}:${phone}:${code}`, 'utf8').digest();
}

/** The Beijing calendar day (UTC+8, no DST) and the ms left until its midnight. */
function beijingDay(now: number): { day: string; msToMidnight: number } {
  const shifted = now + BEIJING_OFFSET_MS;
  const dayIndex = Math.floor(shifted / DAY_MS);
  return {
    day: new Date(dayIndex * DAY_MS).toISOString().slice(0, 10),
    msToMidnight: (dayIndex + 1) * DAY_MS - shifted,
  };
}

function defaultCode(): string {
  return String(randomInt(0, 10 ** SMS.codeLength)).padStart(SMS.codeLength, '0');
}

/**
 * Daily caps count sends that went out (or are in flight). The kv store has no decrement,
 * so an attempt that ends up not sending is cancelled through a second counter:
 * used = incremented - released. The increment itself is atomic, so two concurrent
 * requests can never both take the last slot.
 */
const dailySlot = (kv: KvStore, key: string, ttlMs: number) => ({
  async take(limit: number): Promise<boolean> {
    const taken = await kv.incr(key, ttlMs);
    const released = Number((await kv.get(`${key}:released`)) ?? 0);
    if (taken - released <= limit) return true;
    await kv.incr(`${key}:released`, ttlMs);
    return false;
  },
  async release(): Promise<void> {
    await kv.incr(`${key}:released`, ttlMs);
  },
});

/**
 * One SMS of the phone's daily cap (the same counter the verification codes use), for other
 * senders (bulk sends): false when the phone has reached `limit` today (Beijing day).
 */
export function takeDailyPhoneSlot(kv: KvStore, phone: string, limit: number, now: number = Date.now()): { take(): Promise<boolean>; release(): Promise<void> } {
  const { day, msToMidnight } = beijingDay(now);
  const slot = dailySlot(kv, smsKvKeys.dailyPhone(day, phone), msToMidnight);
  return { take: () => slot.take(limit), release: () => slot.release() };
}

export function createSmsService(deps: SmsServiceDeps): SmsService {
  const { kv, provider, limits } = deps;
  const now = deps.now ?? Date.now;
  const generate = deps.random ?? defaultCode;
  const addressPattern = deps.addressPattern ?? PHONE_RE;
  // How long the gateway usually takes (moving average of real sends): a send that delivers
  // nothing waits about as long, so the answer's timing does not tell either (docs/rules/identity.md, "SMS codes").
  let typicalSendMs = 0;

  return {
    async send({ phone, smsKey, ip }, { deliver = true }: SendOptions = {}) {
      if (!addressPattern.test(phone)) throw badRequest(VALIDATION_MSG.phoneFormat);
      if (!SMS_KEYS.includes(smsKey)) throw badRequest(MSG.invalidField('smsKey'), { field: 'smsKey' });

      const resendKey = smsKvKeys.resend(phone);
      if (!(await kv.setIfAbsent(resendKey, String(now()), SMS.resendWaitMs))) {
        const left = await kv.ttl(resendKey);
        const retryAfterSeconds = Math.min(SMS.resendWaitMs / 1000, Math.max(1, Math.ceil(left / 1000)));
        throw badRequest(SMS_MSG.tooFrequent, { retryAfterSeconds });
      }

      const { day, msToMidnight } = beijingDay(now());
      const perPhone = dailySlot(kv, smsKvKeys.dailyPhone(day, phone), msToMidnight);
      const perIp = dailySlot(kv, smsKvKeys.dailyIp(day, ip), msToMidnight);
      // Nothing was sent: the window goes too, so the caller sees the cap, not a wait.
      if (!(await perPhone.take(limits.dailyPerPhone))) {
        await kv.del(resendKey);
        throw tooManyRequests(SMS_MSG.dailyLimit);
      }
      if (!(await perIp.take(limits.dailyPerIp))) {
        await perPhone.release();
        await kv.del(resendKey);
        throw tooManyRequests(SMS_MSG.dailyLimit);
      }

      const code = generate();
      const codeKey = smsKvKeys.code(smsKey, phone);
      const stored: StoredCode = {
        hash: hashCode(smsKey, phone, code).toString('hex'),
        tries: 0,
        expiresAt: now() + SMS.validMs,
      };
      // Stored before sending so the code works the moment the text arrives; a new code
      // replaces the old one and its wrong-try count.
      await kv.set(codeKey, JSON.stringify(stored), SMS.validMs);
      if (!deliver) {
        const wait = Math.min(3000, typicalSendMs * (0.75 + Math.random() / 2));
        if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
        return { resendAfterSeconds: SMS.resendWaitMs / 1000 };
      }
      try {
        const started = Date.now();
        await provider.send({ phone, templateKey: smsKey, params: [code, VALID_MINUTES], text: smsText(code) });
        const took = Date.now() - started;
        typicalSendMs = typicalSendMs === 0 ? took : typicalSendMs * 0.8 + took * 0.2;
      } catch (err) {
        // Leave nothing behind, so the user may retry at once and the failure costs no quota.
        await Promise.allSettled([kv.del(codeKey), kv.del(resendKey), perPhone.release(), perIp.release()]);
        const error = new AppError('SERVICE_UNAVAILABLE', SMS_MSG.sendFailed);
        // The error handler logs 5xx errors; the gateway's code (never a secret) travels as the cause.
        Object.defineProperty(error, 'cause', { value: err, enumerable: false });
        throw error;
      }
      return { resendAfterSeconds: SMS.resendWaitMs / 1000 };
    },

    async verify({ phone, smsKey, code }) {
      if (!addressPattern.test(phone)) throw badRequest(VALIDATION_MSG.phoneFormat);
      const codeKey = smsKvKeys.code(smsKey, phone);
      // take() hands the code to exactly one caller: of two concurrent verifies one sees
      // nothing, so a code can never be used twice.
      const raw = await kv.take(codeKey);
      if (!raw) throw badRequest(SMS_MSG.expired);
      let stored: StoredCode;
      try {
        stored = JSON.parse(raw) as StoredCode;
      } catch {
        throw badRequest(SMS_MSG.expired);
      }
      const left = stored.expiresAt - now();
      if (left <= 0) throw badRequest(SMS_MSG.expired);

      const expected = Buffer.from(stored.hash, 'hex');
      const given = hashCode(smsKey, phone, code);
      if (expected.length === given.length && timingSafeEqual(expected, given)) return;

      const tries = stored.tries + 1;
      if (tries < SMS.maxWrongTries) {
        // setIfAbsent: if a new code was sent meanwhile, it wins over this stale one.
        await kv.setIfAbsent(codeKey, JSON.stringify({ ...stored, tries } satisfies StoredCode), left);
      }
      throw badRequest(SMS_MSG.wrongCode);
    },
  };
}
