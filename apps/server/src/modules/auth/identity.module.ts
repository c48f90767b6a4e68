import type { FastifyInstance } from 'fastify';
import { AUTH_MSG } from '@contest/shared';
import type { AppDeps } from '../../app.js';
import { badRequest } from '../../lib/errors.js';
import { createCaptchaService } from '../captcha/captcha.service.js';
import { captchaRoutes } from '../captcha/captcha.routes.js';
import { createSmsProvider, type SmsProvider } from '../sms/sms.provider.js';
import { smsRoutes } from '../sms/sms.routes.js';
import { createSmsService } from '../sms/sms.service.js';
import { createAuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
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

  await api.register(captchaRoutes, { captcha });
  await api.register(smsRoutes, {
    sms,
    // Codes go only where they can be used: registration to new phones, login and recovery to known ones.
    beforeSend: async ({ phone, smsKey }) => {
      const account = await repo.findByPhone('USER', phone);
      if (smsKey === 'REGISTER_VERIFY_KEY' && account) throw badRequest(AUTH_MSG.phoneTaken, { field: 'phone' });
      if (smsKey !== 'REGISTER_VERIFY_KEY' && !account) throw badRequest(AUTH_MSG.noAccountForPhone, { field: 'phone' });
    },
  });
  await api.register(authRoutes, { auth, sessions });
  return { sessions, permissions: createPermissionService(repo), smsProvider: provider };
}
