import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { AppDeps, RouteEntry } from './app-deps.js';
import type { AppConfig } from './config/config.js';
import { openDatabase, type Database } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { onClientError, onFrameworkError, registerErrorHandling } from './plugins/error-handler.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { registerSecurity, storeOrigins } from './plugins/security.js';
import { guardsFirst } from './plugins/guards-first.js';
import { registerWebApp } from './plugins/web-app.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerApiDoc } from './modules/api-doc/api-doc.routes.js';
import { zodValidatorCompiler } from './plugins/zod.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { registerIdentity } from './modules/auth/identity.module.js';
import { registerAdmin } from './modules/admin/admin.module.js';
import { registerFiles } from './modules/files/files.module.js';
import { registerContest } from './modules/contest/contest.module.js';
import { registerContent } from './modules/content/content.module.js';
import { createDocumentFileRule } from './modules/documents/documents.service.js';
import { createExpertFileRule, createExpertFileView, registerReview } from './modules/review/review.module.js';
import { createDbKvStore, createRedisKvStore, type KvStore } from './lib/kv-store.js';
import { createJobRunner } from './lib/jobs.js';
import { configurePasswordPool } from './lib/password.js';
import { UPLOAD_MAX_AGE_MS } from './modules/files/files.module.js';
import { registerTemplates } from './modules/templates/templates.module.js';
import { registerResults } from './modules/results/results.module.js';
import { registerScoreLog } from './modules/score-log/score-log.module.js';
import { registerLiveFinal } from './modules/live-final/live-final.module.js';
import { registerCertificates } from './modules/certificates/certificates.module.js';
import { registerRetention } from './modules/retention/retention.module.js';

/** The leftover-upload sweep (docs/decisions.md, "Jobs, templates and email"): one run a day across all instances. */
export const FILES_SWEEP_JOB = 'files.sweep';
const FILES_SWEEP_EVERY_MS = 24 * 3600_000;
/** Expired kv_store rows (no Redis): reads ignore them already, the sweep keeps the table small. */
export const KV_SWEEP_JOB = 'kv.sweep';
const KV_SWEEP_EVERY_MS = 3600_000;

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** apps/server/{src,dist} -> apps/web/dist */
function defaultWebDist(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
}

/**
 * Query strings: arrays arrive comma-separated (`?ids=a,b`), repeated keys are joined the same
 * way, so every handler sees one string and splits it with `splitQueryArray` when it wants a list.
 */
function parseQuery(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    out[key] = key in out ? `${out[key]},${value}` : value;
  }
  return out;
}

/**
 * Fastify's trustProxy from TRUST_PROXY. A hop count becomes "the first n addresses counted
 * from the socket are proxies" (Fastify 5 refuses plain numbers, since a client that reaches the
 * server directly could then write its own address: deployments using a count must expose the
 * server only through their proxies; a list of proxy addresses checks the peer instead).
 */
export function trustProxyOf(setting: AppConfig['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}

export interface BuildOptions {
  /** Tests pass an already-open database to share one PGlite instance per file. */
  database?: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * Only the platform (plugins, health, web app), no feature modules: a module's own tests
   * register that one module with fakes (clock, captcha, SMS) on top.
   */
  bare?: boolean;
}

/** The server's logger: secrets a log line could carry are censored (tested in log-redaction.test.ts). */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>) {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.smsCode', '*.passwordHash'],
      censor: '[redacted]',
    },
  };
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOf(config.trustProxy),
    // A caller's X-Request-Id (a proxy's trace id) is kept only when short and plain, since it
    // becomes every log line's reqId and is echoed back; anything else gets an id of our own.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true, querystringParser: parseQuery },
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    frameworkErrors: onFrameworkError,
    // Requests Node refuses before Fastify sees them (a URL over the header limit): the envelope too.
    clientErrorHandler: onClientError,
  });

  // One pool per process (lib/password.ts): the latest app's settings apply.
  configurePasswordPool(config.passwords);
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(config));
  let redis: Redis | null = null;
  try {
    await runMigrations(database);
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false });
      redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis error'));
      await redis.connect();
    }
  } catch (err) {
    if (ownsDatabase) await database.close().catch(() => {});
    redis?.disconnect();
    throw err;
  }

  const jobs = createJobRunner({ db: database.db, log: app.log });
  let kv: KvStore;
  if (redis) {
    kv = createRedisKvStore(redis, config.redisPrefix);
  } else {
    // In the database rather than memory, so a restart keeps SMS waits, daily caps and nonces.
    const dbKv = createDbKvStore(database.db);
    jobs.register(KV_SWEEP_JOB, () => dbKv.sweep());
    jobs.schedule({ kind: KV_SWEEP_JOB, everyMs: KV_SWEEP_EVERY_MS });
    kv = dbKv;
  }
  app.decorate('deps', { config, database, redis, kv, jobs } satisfies AppDeps);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  // Before the route table reads the hooks: guards move ahead of body parsing and validation.
  app.addHook('onRoute', guardsFirst);
  app.addHook('onRoute', (route) => {
    const hooks = route.onRequest;
    routeTable.push({
      method: route.method,
      url: route.url,
      onRequest: hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks],
      config: route.config as RouteEntry['config'],
    });
  });
  // Before onClose (which closes the database): running handlers are aborted and waited for.
  app.addHook('preClose', async () => jobs.stop());
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    if (redis) await redis.quit().catch(() => redis?.disconnect());
    if (ownsDatabase) await database.close();
  });
  // Callback hooks on the path of every answer: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  app.setValidatorCompiler(zodValidatorCompiler);
  // Before any route: it collects them all for the API description (docs/openapi.json).
  await registerOpenApi(app);
  registerErrorHandling(app);
  await registerSecurity(app, { https: config.publicUrl?.startsWith('https://') ?? false, storeOrigins: storeOrigins(config.files.storage) });
  await registerRateLimit(app, { perMinute: config.rateLimitPerMinute, perAccountPerMinute: config.rateLimitPerAccountPerMinute, redis, prefix: config.redisPrefix });

  await app.register(
    async (api) => {
      api.addHook('onSend', (_request, reply, payload, done) => {
        // API answers are per user: never cached by browsers or proxies.
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        done(null, payload);
      });
      await api.register(healthRoutes);
      if (options.bare) return;
      const identity = await registerIdentity(api, app.deps);
      const { files } = await registerFiles(api, app.deps, identity, {
        canReadDocumentFile: createDocumentFileRule(app.deps.database.db),
        isExpertAssigned: createExpertFileRule(app.deps.database.db),
        expertFileView: createExpertFileView(app.deps.database.db),
      });
      const { outbox } = await registerContest(api, app.deps, identity);
      const review = await registerReview(api, app.deps, identity, { outbox });
      await registerResults(api, app.deps, identity, review);
      await registerLiveFinal(api, app.deps, review);
      await registerCertificates(api, app.deps, identity, review);
      await registerAdmin(api, app.deps, identity);
      await registerContent(api, app.deps, identity, { outbox });
      await registerTemplates(api, app.deps, identity);
      await registerScoreLog(api, app.deps, identity);
      // Personal-data retention and data requests (docs/retention.md).
      await registerRetention(api, app.deps, identity);
      await registerApiDoc(api, app.deps, identity);
      jobs.register(FILES_SWEEP_JOB, async () => {
        await files.sweep(UPLOAD_MAX_AGE_MS);
      });
      jobs.schedule({ kind: FILES_SWEEP_JOB, everyMs: FILES_SWEEP_EVERY_MS });
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDistDir ?? defaultWebDist());
  return app;
}
