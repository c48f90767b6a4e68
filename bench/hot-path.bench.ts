/**
 * Hot path benchmark (docs/performance.md, "Hot path"): the calls every page makes, through the real app, against
 * their ceiling, a bare Fastify running exactly the same SQL by hand (same statements, same
 * parameters, same prepared-statement names, same checks, same answer), both in child processes
 * of this one and measured side by side, on the embedded PGlite, or on PostgreSQL when
 * DATABASE_URL is set (each server then gets a database of its own, bench_hot_<time> and
 * bench_hotbare_<time>, dropped at the end). REDIS_URL, when set, is given to the portal (its
 * rate limit counters then live in Redis, as in production with several instances).
 *
 * Endpoints (each request with the next of SIGNED_IN (50) participant tokens, the admin calls
 * with the super admin's):
 * - the session check in front of every call: GET /api/bench/session, a route this bench adds
 *   to the app behind the participant guard (requireRealm) that answers ok(null);
 * - GET /api/user/account (participant centre, every page);
 * - GET /api/admin/user/account (admin console, every page; a SUPER_ADMIN);
 * - GET /api/messages/summary (the inbox badge).
 * Before timing, each endpoint is called once on both servers: the answers must be the same
 * (ids aside) and the SQL statements the portal sent must be the ceiling's, else the bench fails.
 * Then, per endpoint, ceiling and portal alternately: CONNECTIONS (50) clients for DURATION (10) s
 * after a 2 s warm-up (req/s, p50/p99), and SINGLE (1000) requests one at a time on one
 * keep-alive connection (single-request latency, ms with decimals). ROUNDS (1) repeats the whole
 * and reports the median of each figure. The server's CPU use (user + system) during the loaded
 * run is printed beside, in % of one core (100%: its event loop is saturated) and per request
 * answered: on a shared machine the latter moves far less than req/s with the load of others.
 * DATABASE_POOL_MAX (10) is the pool of both servers on PostgreSQL.
 * ONLY=<words> measures only the endpoints whose name holds one of them (ONLY=session,summary).
 * PROFILE_DIR=<dir> writes a CPU profile of each server during each loaded run.
 * Targets: portal >= 80% of the ceiling's req/s; single-request latency within 1.5x of it.
 *
 *   npm run bench:hot-path
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run bench:hot-path
 *   DURATION=3 SINGLE=300 npm run bench:hot-path      (a quick check)
 *
 * The figures are those of one machine at one moment: the load average is printed with them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.js';
import { forkServer, serveParent, type ServerProcess } from './support/child.js';
import { sequentialLatency, type Latency } from './support/latency.js';
import { measure, rotatingTokens, type Figures } from './support/measure.js';
import { load, markdown } from './support/report.js';
import { runMain } from './support/run.js';
import { BENCH_PASSWORD, seedParticipants } from './support/seed.js';
import { captureStatements, statementDiff, type Statement } from './support/sql-capture.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SINGLE = Number(process.env.SINGLE ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const PARTICIPANTS = Number(process.env.PARTICIPANTS ?? 2000);
const SIGNED_IN = Number(process.env.SIGNED_IN ?? 50);
/** When set, a CPU profile of each server during each loaded run is written there (<server>_<path>.cpuprofile). */
const PROFILE_DIR = process.env.PROFILE_DIR;
const ADMIN = 'benchadmin';
/** The pool both servers use on PostgreSQL (the portal's DATABASE_POOL_MAX). */
const POOL_MAX = Number(process.env.DATABASE_POOL_MAX ?? 10);

const TARGET = { throughput: 0.8, latency: 1.5 };

interface Tokens {
  users: string[];
  admin: string;
}

interface Endpoint {
  name: string;
  portal: string;
  ceiling: string;
  who: 'users' | 'admin';
}

const ALL_ENDPOINTS: Endpoint[] = [
  { name: 'session check', portal: '/api/bench/session', ceiling: '/session', who: 'users' },
  { name: 'GET /api/user/account', portal: '/api/user/account', ceiling: '/user/account', who: 'users' },
  { name: 'GET /api/admin/user/account', portal: '/api/admin/user/account', ceiling: '/admin/user/account', who: 'admin' },
  { name: 'GET /api/messages/summary', portal: '/api/messages/summary', ceiling: '/messages/summary', who: 'users' },
];
/** ONLY=account,summary: the endpoints whose name holds one of these words. */
const ENDPOINTS = process.env.ONLY ? ALL_ENDPOINTS.filter((e) => process.env.ONLY!.split(',').some((w) => e.name.includes(w))) : ALL_ENDPOINTS;

// ---- Data, the same in both servers' databases ----------------------------------------------

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * PARTICIPANTS participants (hp1..), each with a submitted team and five in-site messages (two
 * read, one of them recalled); sessions for the given tokens (users: hp1.., admin: the super admin
 * the app's seed made), as the login call would have written them.
 */
async function seedHotPath(db: Db, tokens: Tokens): Promise<void> {
  await seedParticipants(db, { count: PARTICIPANTS, prefix: 'hp', namePrefix: '参赛者', phonePrefix: '139', agreed: true });
  await db.execute(sql`
    insert into teams (owner_id, status, org_name, team_name, submitted_at)
    select id, 'SUBMITTED', '机构' || username, '团队' || username, now() from accounts where realm = 'USER'`);
  await db.execute(sql`
    insert into messages (title, body, kind, audience, recalled_at)
    select '通知 ' || g, '正文', 'ADMIN', 'ALL', case when g = 5 then now() else null end from generate_series(1, 5) g`);
  await db.execute(sql`
    insert into message_recipients (message_id, account_id, read_at)
    select m.id, a.id, case when m.title in ('通知 1', '通知 2') then now() else null end
      from messages m cross join accounts a where a.realm = 'USER'`);
  const rows = [
    ...tokens.users.map((t, i) => ({ h: sha256(t), realm: 'USER', u: `hp${i + 1}` })),
    { h: sha256(tokens.admin), realm: 'ADMIN', u: ADMIN },
  ];
  await db.execute(sql`
    insert into sessions (token_hash, realm, account_id, expires_at, last_used_at)
    select v.h, v.realm, a.id, now() + case when v.realm = 'USER' then interval '7 days' else interval '2 hours' end, now()
      from json_to_recordset(${JSON.stringify(rows)}::json) as v(h text, realm text, u text)
      join accounts a on a.realm = v.realm and a.username = v.u`);
  await db.execute(sql`analyze`);
}

// ---- The portal (child process) ---------------------------------------------------------------

interface Ready {
  origin: string;
  kind: string;
}

const tokensFromEnv = () => JSON.parse(process.env.HOT_PATH_TOKENS!) as Tokens;

/** What both children answer: SQL capture, their own CPU time, and a CPU profile of a run (PROFILE_DIR). */
function childHandlers(capture: { start(): void; stop(): Statement[] }) {
  let session: import('node:inspector/promises').Session | undefined;
  return {
    captureStart: () => capture.start(),
    captureStop: () => capture.stop(),
    cpu: () => process.cpuUsage(),
    profileStart: async () => {
      const { Session } = await import('node:inspector/promises');
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    profileStop: async (file: unknown) => {
      const { profile } = await session!.post('Profiler.stop');
      session!.disconnect();
      writeFileSync(String(file), JSON.stringify(profile));
    },
  };
}

async function servePortal(): Promise<void> {
  const { startBenchApp } = await import('./support/app.js');
  const { buildApp } = await import('../apps/server/src/app.js');
  const { seedAtStartup } = await import('../apps/server/src/startup.js');
  const { createSessionService } = await import('../apps/server/src/modules/auth/session.service.js');
  const { requireRealm } = await import('../apps/server/src/modules/auth/auth.guard.js');
  const { ok } = await import('../apps/server/src/plugins/envelope.js');
  const bench = await startBenchApp({
    database: { ownPrefix: 'bench_hot' },
    dirPrefix: 'contest-bench-hot-',
    env: {
      REDIS_URL: process.env.REDIS_URL ?? '',
      SEED_ADMIN_USERNAME: ADMIN,
      SEED_ADMIN_PASSWORD: BENCH_PASSWORD,
      DATABASE_POOL_MAX: String(POOL_MAX),
    },
    // The session check alone: a route behind the same guard as every participant call.
    build: async (config) => {
      const app = await buildApp(config);
      const sessions = createSessionService(app.deps.database.db);
      await app.register(
        async (api) => {
          api.addHook('onSend', (_request, reply, payload, done) => {
            if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
            done(null, payload);
          });
          api.get('/bench/session', { preHandler: requireRealm(sessions, 'USER') }, async () => ok(null));
        },
        { prefix: '/api' },
      );
      return app;
    },
  });
  await seedAtStartup(bench.app, false);
  await seedHotPath(bench.db, tokensFromEnv());
  const capture = captureStatements((bench.db as unknown as { $client: { query: (...a: never[]) => unknown } }).$client);
  const origin = await bench.listen();
  serveParent<Ready>({ origin, kind: bench.kind }, childHandlers(capture), () => bench.close(500));
}

// ---- The ceiling (child process): bare Fastify, the portal's SQL by hand ---------------------

/**
 * The statements the portal sends for these calls (captured from its database client; the bench
 * checks before timing that they still are). Row mode array, as drizzle reads them.
 */
const SQL = {
  session: {
    name: 'session_lookup',
    text: 'select "sessions"."id", "sessions"."realm", "sessions"."account_id", "sessions"."last_used_at", "sessions"."expires_at", "sessions"."revoked_at", "sessions"."revoke_reason", "accounts"."username", "accounts"."role_code", "accounts"."enabled", "accounts"."must_change_password" from "sessions" inner join "accounts" on "accounts"."id" = "sessions"."account_id" where "sessions"."token_hash" = $1 limit $2',
  },
  touch: { name: 'session_touch', text: 'update "sessions" set "last_used_at" = $1, "expires_at" = $2 where "sessions"."id" = $3' },
  participantInfo: {
    name: 'participant_info',
    text: 'select "accounts"."username", "accounts"."phone", "accounts"."role_code", "accounts"."agreed_at", "accounts"."must_change_password", "teams_view"."id", "teams_view"."status", "teams_view"."track", "teams_view"."audit_reason", "prelim_docs_view"."status", exists (select 1 from "message_recipients" where "message_recipients"."account_id" = "accounts"."id" and "message_recipients"."read_at" is null and not exists (select 1 from "messages" where "messages"."id" = "message_recipients"."message_id" and "messages"."recalled_at" is not null)), "settings_view"."value" from "accounts" left join (select "id", "owner_id", "status", "org_name", "org_type", "credit_code", "region", "city", "track", "team_name", "leader", "members", "advisor", "certificate_file_id", "commitment_file_id", "recommendation_file_id", "audit_reason", "submitted_at", "audited_at", "version", "created_at", "updated_at" from "teams") "teams_view" on "teams_view"."owner_id" = "accounts"."id" left join (select "id", "team_id", "owner_id", "status", "project_name", "track", "summary", "keywords", "application_file_id", "application_chars", "presentation_file_id", "video_file_id", "other_file_ids", "audit_reason", "submitted_at", "audited_at", "version", "created_at", "updated_at" from "prelim_docs") "prelim_docs_view" on "prelim_docs_view"."owner_id" = "accounts"."id" left join (select "key", "value", "updated_at" from "settings") "settings_view" on "settings_view"."key" = $1 where "accounts"."id" = $2 limit $3',
  },
  accountById: {
    name: 'account_by_id',
    text: 'select "id", "realm", "username", "phone", "email", "name", "code", "password_hash", "role_code", "enabled", "agreed_at", "password_changed_at", "must_change_password", "last_login_at", "locale", "created_at", "updated_at" from "accounts" where "accounts"."id" = $1 limit $2',
  },
  rolesOf: {
    name: 'account_roles_of',
    text: 'select "roles_view"."id", "roles_view"."code", "roles_view"."name" from (select "account_id", "role_id" from "account_roles") "account_roles_view" inner join (select "id", "code", "name", "description", "builtin", "created_at", "updated_at" from "roles") "roles_view" on "roles_view"."id" = "account_roles_view"."role_id" where "account_roles_view"."account_id" = $1',
  },
  allMenus: { name: 'menus_all', text: 'select "code", "parent_code", "name", "name_en", "path", "icon", "sort" from (select "code", "parent_code", "name", "name_en", "path", "icon", "sort" from "menus") "menus_view" order by "menus_view"."sort"' },
  allButtons: { name: 'buttons_all', text: 'select "code" from (select "code", "name", "menu_code" from "buttons") "buttons_view"' },
  unreadCount: {
    name: 'messages_unread_count',
    text: 'select count(*) from "message_recipients" where ("message_recipients"."account_id" = $1 and "message_recipients"."read_at" is null and not exists (select 1 from "messages" where "messages"."id" = "message_recipients"."message_id" and "messages"."recalled_at" is not null))',
  },
} satisfies Record<string, Statement>;

type Row = unknown[];
type Run = (statement: Statement, values: unknown[]) => Promise<Row[]>;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const SESSION_TTL_MS = { USER: 7 * 24 * 3600_000, ADMIN: 2 * 3600_000, EXPERT: 2 * 3600_000 } as const;
type Realm = keyof typeof SESSION_TTL_MS;
const envelope = (data: unknown) => ({ status: 200, code: 'OK', message: 'success', data });

/** The ceiling's routes: the portal's checks and answers, written straight on the driver. */
function ceilingRoutes(app: import('fastify').FastifyInstance, run: Run): void {
  async function authenticate(header: string | undefined, realms: Realm[], pendingPasswordChange = false) {
    const token = typeof header === 'string' ? /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim())?.[1] : undefined;
    if (!token || token.length > 200) throw new HttpError(401, 'UNAUTHORIZED');
    const [row] = await run(SQL.session, [sha256(token), 1]);
    if (!row || !realms.includes(row[1] as Realm)) throw new HttpError(401, 'UNAUTHORIZED');
    const [id, realm, accountId, lastUsed, expires, revokedAt, revokeReason, username, roleCode, enabled, mustChangePassword] = row as [
      string, Realm, string, Date | string, Date | string, unknown, string | null, string, string, boolean, boolean,
    ];
    // pg parses timestamps; the embedded database, set up as the app sets it for drizzle, gives text.
    const lastUsedAt = new Date(lastUsed);
    const expiresAt = new Date(expires);
    if (revokedAt) throw new HttpError(revokeReason === 'REPLACED' ? 409 : 401, revokeReason === 'REPLACED' ? 'SESSION_REPLACED' : 'UNAUTHORIZED');
    const at = new Date();
    if (expiresAt <= at || !enabled) throw new HttpError(401, 'UNAUTHORIZED');
    if (at.getTime() - lastUsedAt.getTime() > 60_000) await run(SQL.touch, [at, new Date(at.getTime() + SESSION_TTL_MS[realm]), id]);
    if (mustChangePassword && !pendingPasswordChange) throw new HttpError(403, 'FORBIDDEN');
    return { sessionId: id, accountId, realm, username, roleCode };
  }
  app.setErrorHandler((err, _request, reply) => {
    const status = err instanceof HttpError ? err.status : 500;
    return reply.status(status).send({ status, code: err instanceof HttpError ? err.code : 'INTERNAL', message: err instanceof Error ? err.message : String(err), data: null });
  });

  app.get('/session', async (request) => {
    await authenticate(request.headers.authorization, ['USER']);
    return envelope(null);
  });

  app.get('/user/account', async (request) => {
    const ctx = await authenticate(request.headers.authorization, ['USER'], true);
    const [row] = await run(SQL.participantInfo, ['site.dataDocMenuName', ctx.accountId, 1]);
    if (!row) throw new HttpError(401, 'UNAUTHORIZED');
    const [username, phone, roleCode, agreedAt, mustChangePassword, teamId, teamStatus, teamTrack, teamAuditReason, prelimStatus, hasUnread, menuName] = row as [
      string, string | null, string, unknown, boolean, string | null, string | null, string | null, string | null, string | null, boolean, unknown,
    ];
    const prelimDocStatus = teamStatus === 'APPROVED' ? (prelimStatus ?? 'NOT_FILLED') : null;
    return envelope({
      account: { name: username, permissionCodeList: ['*'], roleCode },
      teamStatus,
      prelimDocStatus,
      hasUnReadMessage: hasUnread === true,
      agree: agreedAt !== null,
      mustChangePassword,
      watermark: username,
      dataDocMenuName: typeof menuName === 'string' && menuName ? menuName : '数据文档',
      user: {
        roleId: roleCode,
        organizationType: roleCode,
        organization:
          teamId === null
            ? null
            : { id: teamId, direction: teamTrack, authenticationStatus: teamStatus, reason: teamStatus === 'REVISING' || teamStatus === 'REJECTED' ? teamAuditReason : null },
        account: { name: username, phone },
      },
    });
  });

  app.get('/admin/user/account', async (request) => {
    const ctx = await authenticate(request.headers.authorization, ['ADMIN', 'EXPERT'], true);
    if (ctx.realm !== 'ADMIN' || ctx.roleCode !== 'SUPER_ADMIN') throw new HttpError(400, 'the ceiling serves the super admin only');
    const [account] = await run(SQL.accountById, [ctx.accountId, 1]);
    const [id, , username, , , name, code, , roleCode, , agreedAt, , mustChangePassword] = account as [
      string, string, string, unknown, unknown, string | null, string | null, unknown, string, boolean, unknown, unknown, boolean,
    ];
    const roles = (await run(SQL.rolesOf, [id])) as Array<[string, string, string]>;
    const menus = (await run(SQL.allMenus, [])) as Array<[string, string | null, string, string, string, string | null, number]>;
    const buttons = ((await run(SQL.allButtons, [])) as Array<[string]>).map((b) => b[0]);
    interface Node {
      code: string;
      name: string;
      nameEn: string;
      path: string;
      icon: string | null;
      children: Node[];
    }
    const byParent = new Map<string | null, typeof menus>();
    for (const m of menus) byParent.set(m[1], [...(byParent.get(m[1]) ?? []), m]);
    const build = (parent: string | null): Node[] =>
      (byParent.get(parent) ?? []).map((m) => ({ code: m[0], name: m[2], nameEn: m[3], path: m[4], icon: m[5], children: build(m[0]) }));
    return envelope({
      account: username,
      roles: roles.map((r) => ({ id: r[0], code: r[1] })),
      roleCode,
      roleName: '超级管理员',
      teamStatus: null,
      prelimDocStatus: null,
      hasUnReadMessage: false,
      menus: build(null),
      buttons,
      agree: agreedAt !== null,
      mustChangePassword,
      name: name ?? username,
      code,
    });
  });

  app.get('/messages/summary', async (request) => {
    const ctx = await authenticate(request.headers.authorization, ['USER', 'EXPERT']);
    const [row] = await run(SQL.unreadCount, [ctx.accountId]);
    return envelope({ unreadCount: Number(row?.[0] ?? 0) });
  });
}

async function serveCeiling(): Promise<void> {
  const Fastify = (await import('fastify')).default;
  const pg = (await import('pg')).default;
  const { ownDatabase, originOf } = await import('./support/app.js');
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { runMigrations } = await import('../apps/server/src/db/migrate.js');
  const { seed } = await import('../apps/server/src/seed/seed.js');
  const serverUrl = process.env.DATABASE_URL ?? '';
  const own = serverUrl.startsWith('postgres') ? await ownDatabase(serverUrl, 'bench_hotbare') : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-bench-hotbare-'));
  // The app's own migrations and seed make the same schema and rows; queries then go straight to the driver.
  const database = await openDatabase({ databaseUrl: own?.url, dataDir });
  await runMigrations(database);
  await seed(database.db, { adminUsername: ADMIN, adminPassword: BENCH_PASSWORD, demo: false });
  await seedHotPath(database.db, tokensFromEnv());
  let run: Run;
  let client: { query: (...a: never[]) => unknown };
  let closeDriver = async () => {};
  if (own) {
    const pool = new pg.Pool({ connectionString: own.url, max: POOL_MAX });
    pool.on('error', () => {});
    client = pool as unknown as typeof client;
    run = async (s, values) => (await pool.query<Row>({ ...s, values, rowMode: 'array' })).rows;
    closeDriver = () => pool.end();
  } else {
    const lite = (database.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
    client = lite as unknown as typeof client;
    run = async (s, values) => (await lite.query<Row>(s.text, values, { rowMode: 'array' })).rows;
  }
  const capture = captureStatements(client);
  const app = Fastify({ logger: false });
  ceilingRoutes(app, (s, v) => run(s, v));
  await app.listen({ port: 0, host: '127.0.0.1' });
  serveParent<Ready>({ origin: originOf(app), kind: database.kind }, childHandlers(capture), async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await app.close();
    await closeDriver();
    await database.close();
    await own?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

// ---- The bench (this process) -----------------------------------------------------------------

interface Result {
  figures: Figures;
  single: Latency;
  /** CPU time (user + system) of the server over the loaded run, in % of one core. */
  cpu: number;
  /** The same per request answered, in µs. */
  cpuPerRequest: number;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function get(url: string, token: string): Promise<unknown> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text.replace(UUID, '<uuid>'));
}

/** Statements of the app's background work (job runner, kv sweep, upload sweeps) that may run during a capture. */
const BACKGROUND = /\b(?:from|into|update) "?(?:jobs|kv_store|direct_uploads|piece_uploads)"?[\s(]/;

/** One call of each endpoint on both servers: the same answer and the same SQL, else the bench stops. */
async function checkSameWork(portal: ServerProcess<Ready>, ceiling: ServerProcess<Ready>, tokens: Tokens): Promise<void> {
  for (const e of ENDPOINTS) {
    const token = e.who === 'admin' ? tokens.admin : tokens.users[0]!;
    await Promise.all([portal.ask('captureStart'), ceiling.ask('captureStart')]);
    const a = await get(`${portal.ready.origin}${e.portal}`, token);
    const b = await get(`${ceiling.ready.origin}${e.ceiling}`, token);
    const [sa, sb] = await Promise.all([portal.ask<Statement[]>('captureStop'), ceiling.ask<Statement[]>('captureStop')]);
    // The SQL first: a changed statement usually explains a changed answer.
    const diff = statementDiff(sa.filter((st) => !BACKGROUND.test(st.text)), sb);
    if (diff.length) throw new Error(`${e.name}: the ceiling does not run the portal's SQL\n${diff.join('\n')}`);
    if (!isDeepStrictEqual(a, b)) throw new Error(`${e.name}: answers differ\n  portal:  ${JSON.stringify(a)}\n  ceiling: ${JSON.stringify(b)}`);
  }
}

async function runOne(server: ServerProcess<Ready>, label: string, path: string, tokens: string[]): Promise<Result> {
  const url = `${server.ready.origin}${path}`;
  const load = { url, connections: CONNECTIONS, requests: rotatingTokens(tokens) };
  await measure(path, { ...load, duration: 2 }, { warmUp: 0 });
  if (PROFILE_DIR) await server.ask('profileStart');
  const cpu0 = await server.ask<NodeJS.CpuUsage>('cpu');
  const t0 = performance.now();
  const figures = await measure(path, { ...load, duration: DURATION }, { warmUp: 0 });
  const cpu1 = await server.ask<NodeJS.CpuUsage>('cpu');
  const seconds = (performance.now() - t0) / 1000;
  if (PROFILE_DIR) await server.ask('profileStop', join(PROFILE_DIR, `${label}${path.replaceAll('/', '_')}.cpuprofile`));
  const cpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000;
  const single = await sequentialLatency(url, (i) => ({ authorization: `Bearer ${tokens[i % tokens.length]}` }), { count: SINGLE });
  return { figures, single, cpu: (cpuMs / 1000 / seconds) * 100, cpuPerRequest: (cpuMs * 1000) / (figures.rps * DURATION) };
}

async function main(): Promise<void> {
  const tokens: Tokens = {
    users: Array.from({ length: Math.min(SIGNED_IN, PARTICIPANTS) }, () => randomBytes(32).toString('base64url')),
    admin: randomBytes(32).toString('base64url'),
  };
  const env = { ...process.env, HOT_PATH_TOKENS: JSON.stringify(tokens) };
  const self = fileURLToPath(import.meta.url);
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const [portal, ceiling] = await Promise.all([forkServer<Ready>(self, ['serve-portal'], env), forkServer<Ready>(self, ['serve-ceiling'], env)]);
  try {
    const kind = portal.ready.kind;
    const redis = kind === 'postgres' && process.env.REDIS_URL ? ', Redis (rate limit counters)' : '';
    await checkSameWork(portal, ceiling, tokens);
    console.log('same answers and same SQL statements on both servers: yes');

    const loadBefore = load();
    const results = ENDPOINTS.map(() => ({ ceiling: [] as Result[], portal: [] as Result[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, e] of ENDPOINTS.entries()) {
        const who = e.who === 'admin' ? [tokens.admin] : tokens.users;
        results[i]!.ceiling.push(await runOne(ceiling, 'ceiling', e.ceiling, who));
        results[i]!.portal.push(await runOne(portal, 'portal', e.portal, who));
      }
    }
    const loadAfter = load();

    const pick = (rs: Result[]) => ({
      rps: median(rs.map((r) => r.figures.rps)),
      p50: median(rs.map((r) => r.figures.p50)),
      p99: median(rs.map((r) => r.figures.p99)),
      single: median(rs.map((r) => r.single.p50)),
      singleP99: median(rs.map((r) => r.single.p99)),
      cpu: median(rs.map((r) => r.cpu)),
      cpuPerRequest: median(rs.map((r) => r.cpuPerRequest)),
      failures: rs.reduce((n, r) => n + r.figures.errors + r.figures.non2xx, 0),
    });
    const rows: Array<Array<string | number>> = [];
    const ratios: Array<Array<string | number>> = [];
    for (const [i, e] of ENDPOINTS.entries()) {
      const c = pick(results[i]!.ceiling);
      const p = pick(results[i]!.portal);
      for (const [label, f] of [['ceiling', c], ['portal', p]] as const) {
        rows.push([e.name, label, Math.round(f.rps), f.p50, f.p99, f.single.toFixed(2), f.singleP99.toFixed(2), `${f.cpu.toFixed(0)}%`, Math.round(f.cpuPerRequest), f.failures]);
      }
      const throughput = p.rps / c.rps;
      const latency = p.single / c.single;
      ratios.push([
        e.name,
        throughput.toFixed(2),
        throughput >= TARGET.throughput ? 'yes' : 'NO',
        latency.toFixed(2),
        latency <= TARGET.latency ? 'yes' : 'NO',
        (p.cpuPerRequest / c.cpuPerRequest).toFixed(2),
      ]);
    }
    console.log(`\n## Hot path bench: ${kind}${redis}, pool ${POOL_MAX}, ${new Date().toISOString().slice(0, 10)}\n`);
    console.log(
      `Load average (1/5/15 min): before ${loadBefore}, after ${loadAfter}; the two servers, the clients${kind === 'postgres' ? ', PostgreSQL' : ''}` +
        `${redis ? ' and Redis' : ''} share this machine. ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up; ` +
        `single: ${SINGLE} requests one at a time; ${ROUNDS > 1 ? `median of ${ROUNDS} rounds` : 'one round'}.\n`,
    );
    console.log(
      markdown(['endpoint', 'server', 'req/s', 'p50 ms', 'p99 ms', 'single p50 ms', 'single p99 ms', 'server CPU', 'server CPU µs/request', 'errors + non-2xx'], rows),
    );
    console.log('');
    console.log(
      markdown(['endpoint', 'portal/ceiling req/s', `>= ${TARGET.throughput}`, 'portal/ceiling single latency', `<= ${TARGET.latency}`, 'portal/ceiling CPU per request'], ratios),
    );
    if (rows.some((r) => r[9] !== 0)) console.log('\nWARNING: errors or non-2xx answers: the figures above are not clean');
  } finally {
    await Promise.all([portal.stop(), ceiling.stop()]);
  }
}

const mode = process.argv[2];
runMain(mode === 'serve-portal' ? servePortal : mode === 'serve-ceiling' ? serveCeiling : main);
