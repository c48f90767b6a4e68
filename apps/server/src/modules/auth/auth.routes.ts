import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_MSG,
  MSG,
  changePasswordSchema,
  findPasswordSchema,
  localeBodySchema,
  loginSchema,
  registerSchema,
  staffLoginSchema,
  type Realm,
} from '@contest/shared';
import { tooManyRequests } from '../../lib/errors.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { authOf, requireRealm, requireRealmPendingPasswordChange } from './auth.guard.js';
import type { AuthService, ClientMeta } from './auth.service.js';
import type { LoginLimiter } from './login-limiter.js';
import type { SessionService } from './session.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: SessionService;
  /** Per-account and per-address login limits (login-limiter.ts). */
  loginLimiter: LoginLimiter;
}

const meta = (request: FastifyRequest): ClientMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

const PASSWORD_LIMIT = { rateLimit: { max: 20, timeWindow: 60_000 } };

/**
 * Identity calls. Participants: /login, /login/register, /login/find/password, /user/account.
 * Staff consoles: /admin/login and /expert/login (same body as /login without SMS), and
 * /admin/user/account for both. /login/change/password and /logout take any realm's token.
 */
export async function authRoutes(base: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { auth, sessions, loginLimiter } = opts;
  app.decorateRequest('auth', null);
  // Changing the password and logging out stay open to a session that must change its password first.
  const anyRealm = requireRealmPendingPasswordChange(sessions, 'USER', 'ADMIN', 'EXPERT');

  // Per address (before the body is read): the ceiling of the contest settings, generous since
  // a whole hospital may sign in through one address. Per login name (once the body is valid):
  // a tight fixed limit. Beyond both, the lockout (5 failures in 15 minutes) does the real work.
  const LOGIN_LIMIT = { rateLimit: { max: () => loginLimiter.perIpPerMinute(), timeWindow: 60_000 } };
  const perAccount = (realm: Realm, identifierOf: (body: never) => string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const retryAfter = await loginLimiter.hitAccount(realm, identifierOf(request.body as never));
    if (retryAfter !== null) {
      reply.header('retry-after', String(retryAfter));
      throw tooManyRequests();
    }
  };
  const participantName = (body: { isPhoneLogin: boolean; phone?: string; username?: string }) => (body.isPhoneLogin ? body.phone! : body.username!);
  const staffName = (body: { username: string }) => body.username;

  app.post('/login', { schema: { body: loginSchema }, config: LOGIN_LIMIT, preHandler: perAccount('USER', participantName) }, async (request) =>
    ok(await auth.login(request.body, meta(request)), AUTH_MSG.loginSuccess),
  );
  app.post('/admin/login', { schema: { body: staffLoginSchema }, config: LOGIN_LIMIT, preHandler: perAccount('ADMIN', staffName) }, async (request) =>
    ok(await auth.staffLogin('ADMIN', request.body, meta(request)), AUTH_MSG.loginSuccess),
  );
  app.post('/expert/login', { schema: { body: staffLoginSchema }, config: LOGIN_LIMIT, preHandler: perAccount('EXPERT', staffName) }, async (request) =>
    ok(await auth.staffLogin('EXPERT', request.body, meta(request)), AUTH_MSG.loginSuccess),
  );

  app.post('/login/register', { schema: { body: registerSchema }, config: PASSWORD_LIMIT }, async (request) => {
    await auth.register(request.body);
    return ok(null, MSG.registerSuccess);
  });

  app.post('/login/find/password', { schema: { body: findPasswordSchema }, config: PASSWORD_LIMIT }, async (request) => {
    await auth.findPassword(request.body);
    return ok(null, AUTH_MSG.passwordReset);
  });

  app.post('/login/change/password', { schema: { body: changePasswordSchema }, preHandler: anyRealm, config: PASSWORD_LIMIT }, async (request) => {
    await auth.changePassword(authOf(request), request.body, meta(request));
    return ok(null, AUTH_MSG.passwordChanged);
  });

  app.post('/logout', { preHandler: anyRealm }, async (request) => {
    await auth.logout(authOf(request));
    return ok(null, AUTH_MSG.loggedOut);
  });

  // "Who am I" answers such a session too: it says mustChangePassword, and the client goes to the form.
  app.get('/user/account', { preHandler: requireRealmPendingPasswordChange(sessions, 'USER') }, async (request) =>
    ok(await auth.participantInfo(authOf(request))),
  );

  app.get('/admin/user/account', { preHandler: requireRealmPendingPasswordChange(sessions, 'ADMIN', 'EXPERT') }, async (request) =>
    ok(await auth.staffInfo(authOf(request))),
  );

  // The web's language while signed in: the language the account's notices reach it in.
  app.put('/user/locale', { schema: { body: localeBodySchema }, onRequest: anyRealm }, async (request) =>
    ok(await auth.setLocale(authOf(request), request.body.locale)),
  );

  app.put('/user/agreement', { preHandler: requireRealm(sessions, 'USER', 'EXPERT') }, async (request) => {
    await auth.agree(authOf(request), meta(request));
    return ok(null);
  });
}
