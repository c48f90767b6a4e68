import { AUTH_MSG, type Realm } from '@contest/shared';
import { badRequest } from '../../lib/errors.js';
import type { KvStore } from '../../lib/kv-store.js';
import type { EmailProvider } from '../email/email.provider.js';
import type { SmsProvider } from '../sms/sms.provider.js';
import { createSmsService, takeDailyPhoneSlot, type SmsLimits } from '../sms/sms.service.js';
import { captchaSubject, type CaptchaService } from './captcha.service.js';

/**
 * The captcha's non-visual form (docs/security.md, "Captcha code alternative"): a one-time code
 * sent to the account's registered phone, or its e-mail when it has no phone, stands in for
 * the slider. Codes run on the SMS code machinery (6 digits, 10 minutes, single use, 5 wrong
 * tries, 60 s resend, daily caps), keyed by the login as typed rather than by an address, so an
 * unknown login name goes through exactly the same steps and answers exactly alike.
 */

/** Where a code can go; both may be missing (e.g. the seeded super administrator). */
export interface CaptchaCodeContact {
  phone: string | null;
  email: string | null;
}

/** Who asks: the realm of the login form, the name typed into it, and for participants which tab. */
export interface CaptchaCodeLogin {
  realm: Realm;
  account: string;
  /** Participants only: the name is a phone (SMS login tab) rather than a username. */
  isPhoneLogin?: boolean;
}

export interface CaptchaCodeDeps {
  kv: KvStore;
  captcha: CaptchaService;
  /** The account the login form would sign in, found exactly as the login finds it. */
  findContact(login: CaptchaCodeLogin): Promise<CaptchaCodeContact | undefined>;
  sms: SmsProvider;
  email: EmailProvider;
  limits: SmsLimits;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => number;
  /** Code generator (tests). */
  random?: () => string;
}

export interface CaptchaCodeService {
  /** Always the same answer, whether or not the login names an account (and whether it has a contact). */
  send(login: CaptchaCodeLogin, ip: string): Promise<{ resendAfterSeconds: number }>;
  /** Right code: the open challenge `nonceStr` becomes passed for this login only. Else a 400. */
  check(login: CaptchaCodeLogin & { nonceStr: string; code: string }): Promise<void>;
}

export const CAPTCHA_CODE_MAIL_SUBJECT = '登录验证码';

/** The subject both this service and the login compute (captcha.service.ts, captchaSubject). */
export const subjectOf = (login: CaptchaCodeLogin): string =>
  captchaSubject(login.realm, login.realm === 'USER' && login.isPhoneLogin ? 'phone' : 'name', login.account);

// Login names are at most 64 characters (loginUsernameSchema); the realm and kind come first, so
// a subject never looks like a phone number and never meets the SMS login's keys.
const SUBJECT_PATTERN = /^(USER|ADMIN|EXPERT):(phone|name):[^\n]{1,64}$/;

export function createCaptchaCodeService(deps: CaptchaCodeDeps): CaptchaCodeService {
  const { kv, captcha, log } = deps;
  // The contact of the send in flight, read by the delivering provider below.
  const pending = new Map<string, CaptchaCodeContact>();

  /**
   * Hands the code to the account's phone or e-mail. Nothing it meets is told to the caller: a
   * full phone quota or a failing gateway would otherwise answer differently from an unknown
   * name. Such a code is stored but never arrives; the user may ask again after 60 s.
   */
  const deliver: SmsProvider = {
    name: 'captcha-code',
    async send(message) {
      const contact = pending.get(message.phone);
      if (contact?.phone) {
        const slot = takeDailyPhoneSlot(kv, contact.phone, deps.limits.dailyPerPhone, (deps.now ?? Date.now)());
        if (!(await slot.take())) {
          log.info({ captchaCode: 'phone-daily-cap' }, 'captcha code not sent: the phone reached its daily cap');
          return;
        }
        try {
          await deps.sms.send({ ...message, phone: contact.phone });
        } catch (err) {
          await slot.release();
          log.warn({ err }, 'captcha code: the SMS gateway failed');
        }
        return;
      }
      if (contact?.email) {
        try {
          await deps.email.send({ to: contact.email, subject: CAPTCHA_CODE_MAIL_SUBJECT, text: message.text });
        } catch (err) {
          log.warn({ err }, 'captcha code: the e-mail could not be sent');
        }
        return;
      }
      log.info({ captchaCode: 'no-contact' }, 'captcha code not sent: the account has neither phone nor e-mail');
    },
  };

  const codes = createSmsService({
    kv,
    provider: deliver,
    limits: deps.limits,
    addressPattern: SUBJECT_PATTERN,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  });

  return {
    async send(login, ip) {
      const subject = subjectOf(login);
      const contact = await deps.findContact(login);
      if (!contact) return codes.send({ phone: subject, smsKey: 'LOGIN_VERIFY_KEY', ip }, { deliver: false });
      pending.set(subject, contact);
      try {
        return await codes.send({ phone: subject, smsKey: 'LOGIN_VERIFY_KEY', ip });
      } finally {
        pending.delete(subject);
      }
    },

    async check({ nonceStr, code, ...login }) {
      const subject = subjectOf(login);
      // Before the code is spent: a right code on a stale challenge stays usable on a fresh one.
      if (!(await captcha.isOpen(nonceStr))) throw badRequest(AUTH_MSG.captchaFailed);
      // Wrong, expired and used codes answer as SMS codes do; an unknown login's code was never sent.
      await codes.verify({ phone: subject, smsKey: 'LOGIN_VERIFY_KEY', code });
      if (!(await captcha.passWithCode(nonceStr, subject))) throw badRequest(AUTH_MSG.captchaFailed);
    },
  };
}
