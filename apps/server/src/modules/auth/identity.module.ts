import type { FastifyInstance } from 'fastify';
import { AUTH_MSG, LOGIN_PER_ACCOUNT_PER_MINUTE, SETTINGS_KEYS, loginPerIpPerMinuteOf } from '@contest/shared';
import type { AppDeps } from '../../app-deps.js';
import { badRequest } from '../../lib/errors.js';
import { createCaptchaCodeService } from '../captcha/captcha-code.service.js';
import { createCaptchaService } from '../captcha/captcha.service.js';
import { createEmailProvider } from '../email/email.provider.js';
import { captchaRoutes } from '../captcha/captcha.routes.js';
import { createSmsProvider, type SmsProvider } from '../sms/sms.provider.js';
import { smsRoutes } from '../sms/sms.routes.js';
import { createSmsService } from '../sms/sms.service.js';
import { createAuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createLoginLimiter } from './login-limiter.js';
import { createPermissionService, type PermissionService } from './permission.service.js';
import { createSessionService, type SessionService } from './session.service.js';

/** What other modules need from identity: who is calling, and what they may do. */
export interface IdentityServices {
  sessions: SessionService;
  permissions: PermissionService;
  /** The SMS gateway, shared with the notice outbox. */
  smsProvider?: SmsProvider;
}

/** Builds the identity services once and registers their calls under the caller's prefix. */
export async function registerIdentity(api: FastifyInstance, deps: AppDeps): Promise<IdentityServices> {
  const { config, database, kv } = deps;
  const db = database.db;
  const provider = createSmsProvider(config.sms, { dataDir: config.dataDir, log: api.log });
  if (config.sms.provider === 'log') {
    api.log.warn(`SMS_PROVIDER=log: codes go to ${config.dataDir}/sms-outbox.jsonl and the log; nothing is sent`);
  }
  const sms = createSmsService({
    kv,
    provider,
    limits: { dailyPerPhone: config.sms.dailyLimitPerPhone, dailyPerIp: config.sms.dailyLimitPerIp },
  });
  const captcha = createCaptchaService({ kv });
  const repo = createAuthRepository(db);
  const sessions = createSessionService(db);
  const auth = createAuthService({ db, repo, sessions, captcha, sms });

  // The slider's non-visual alternative: a code to the account's phone, else its e-mail, found
  // exactly as the login finds the account (docs/security.md, "Captcha code alternative").
  const email = createEmailProvider(config.email, { dataDir: config.dataDir, log: api.log });
  api.addHook('onClose', async () => email.close?.());
  const codes = createCaptchaCodeService({
    kv,
    captcha,
    sms: provider,
    email,
    limits: { dailyPerPhone: config.sms.dailyLimitPerPhone, dailyPerIp: config.sms.dailyLimitPerIp },
    log: api.log,
    findContact: async ({ realm, account, isPhoneLogin }) => {
      const row =
        realm === 'USER'
          ? isPhoneLogin
            ? await repo.findByPhone('USER', account)
            : await repo.findByUsername('USER', account)
          : ((await repo.findByUsername(realm, account)) ?? (realm === 'EXPERT' ? await repo.findExpertByCodeOrPhone(account) : undefined));
      return row ? { phone: row.phone, email: row.email } : undefined;
    },
  });
  await api.register(captchaRoutes, { captcha, codes });
  await api.register(smsRoutes, {
    sms,
    // Codes go only where they can be used: registration to new phones, login and recovery to
    // known ones. A login code for an unknown phone answers as if sent (same answer, same 60 s
    // wait) but sends nothing, so the login form does not tell which phones are registered (docs/rules/identity.md, "SMS codes").
    beforeSend: async ({ phone, smsKey }) => {
      const account = await repo.findByPhone('USER', phone);
      if (smsKey === 'REGISTER_VERIFY_KEY' && account) throw badRequest(AUTH_MSG.phoneTaken, { field: 'phone' });
      if (smsKey === 'LOGIN_VERIFY_KEY' && !account) return { deliver: false };
      if (smsKey === 'FIND_PASSWORD_KEY' && !account) throw badRequest(AUTH_MSG.noAccountForPhone, { field: 'phone' });
      return undefined;
    },
  });
  const loginLimiter = createLoginLimiter({
    kv,
    perAccountPerMinute: LOGIN_PER_ACCOUNT_PER_MINUTE,
    // Read per call, so a saved change applies to the very next login; an unreadable setting
    // falls back to the default rather than failing the login.
    perIpPerMinute: async () => loginPerIpPerMinuteOf(await repo.setting(SETTINGS_KEYS.loginPerIpPerMinute).catch(() => undefined)),
  });
  await api.register(authRoutes, { auth, sessions, loginLimiter });
  return { sessions, permissions: createPermissionService(repo), smsProvider: provider };
}
