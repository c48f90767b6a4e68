import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUTH_MSG,
  MSG,
  changePasswordSchema,
  findPasswordSchema,
  loginSchema,
  registerSchema,
  staffLoginSchema,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { authOf, requireRealm } from './auth.guard.js';
import type { AuthService, ClientMeta } from './auth.service.js';
import type { SessionService } from './session.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: SessionService;
}

const meta = (request: FastifyRequest): ClientMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

// Per IP: generous, since a whole hospital may sign in through one address; per account the
// lockout (5 wrong passwords in 15 minutes) does the real work.
const LOGIN_LIMIT = { rateLimit: { max: 30, timeWindow: 60_000 } };
const PASSWORD_LIMIT = { rateLimit: { max: 20, timeWindow: 60_000 } };

/**
 * Identity calls. Participants: /login, /login/register, /login/find/password, /user/account.
 * Staff consoles: /admin/login and /expert/login (same body as /login without SMS), and
 * /admin/user/account for both. /login/change/password and /logout take any realm's token.
 */
export async function authRoutes(base: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { auth, sessions } = opts;
  app.decorateRequest('auth', null);
  const anyRealm = requireRealm(sessions, 'USER', 'ADMIN', 'EXPERT');

  app.post('/login', { schema: { body: loginSchema }, config: LOGIN_LIMIT }, async (request) =>
    ok(await auth.login(request.body, meta(request)), AUTH_MSG.loginSuccess),
  );
  app.post('/admin/login', { schema: { body: staffLoginSchema }, config: LOGIN_LIMIT }, async (request) =>
    ok(await auth.staffLogin('ADMIN', request.body, meta(request)), AUTH_MSG.loginSuccess),
  );
  app.post('/expert/login', { schema: { body: staffLoginSchema }, config: LOGIN_LIMIT }, async (request) =>
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

  app.get('/user/account', { preHandler: requireRealm(sessions, 'USER') }, async (request) =>
    ok(await auth.participantInfo(authOf(request))),
  );

  app.get('/admin/user/account', { preHandler: requireRealm(sessions, 'ADMIN', 'EXPERT') }, async (request) =>
    ok(await auth.staffInfo(authOf(request))),
  );

  app.put('/user/agreement', { preHandler: requireRealm(sessions, 'USER', 'EXPERT') }, async (request) => {
    await auth.agree(authOf(request), meta(request));
    return ok(null);
  });
}
