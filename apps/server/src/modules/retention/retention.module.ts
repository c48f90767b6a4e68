import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import { requireRealm } from '../auth/auth.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { buildExportZip } from './data-export.js';
import { createDataRequestsService, DATA_EXPORT_JOB } from './data-requests.service.js';
import { retentionRunJob, RUN_MAX_ATTEMPTS, type ExecutorDeps, type PersonAnonymiser } from './retention.executor.js';
import { retentionRoutes } from './retention.routes.js';
import { createRetentionService, RETENTION_RUN_JOB } from './retention.service.js';

/** Waiting deletions rechecked and expired exports removed, every hour. */
export const RETENTION_REQUESTS_JOB = 'retention.requests';
const RETENTION_REQUESTS_EVERY_MS = 3600_000;

export interface RetentionOptions {
  /** Other modules' parts of anonymising a person (certificates' holder names; docs/retention.md). */
  anonymisers?: readonly PersonAnonymiser[];
  /** Tests pass a driver of their own. */
  storage?: Storage;
  /** Tests move the clock. */
  now?: () => Date;
  /** Tests: items per transaction and a hook to simulate a kill (ExecutorDeps). */
  executor?: Pick<ExecutorDeps, 'batchSize' | 'checkpoint'>;
}

/**
 * Personal-data retention and personal data requests (docs/retention.md): 数据保留 and 个人数据申请 in
 * the console, 个人数据 for participants, and the jobs that carry them out.
 */
export async function registerRetention(api: FastifyInstance, deps: AppDeps, identity: IdentityServices, options: RetentionOptions = {}) {
  const db = deps.database.db;
  const storage = options.storage ?? createStorage(deps.config.files.storage);
  const guards = createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(db));
  const kick = () => deps.jobs.kick();
  const retention = createRetentionService({ db, kick, now: options.now });
  const requests = createDataRequestsService({ db, storage, kick, now: options.now });
  const executor: ExecutorDeps = { db, storage, anonymisers: options.anonymisers ?? [], now: options.now, ...options.executor };

  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(retentionRoutes, { guards, participant: requireRealm(identity.sessions, 'USER'), retention, requests });
  });

  deps.jobs.register(RETENTION_RUN_JOB, retentionRunJob(executor), { maxAttempts: RUN_MAX_ATTEMPTS });
  deps.jobs.register(
    DATA_EXPORT_JOB,
    async (job) => {
      const requestId = String(job.payload.requestId);
      try {
        await requests.buildExport(requestId, (accountId) => buildExportZip(db, storage, join(deps.config.dataDir, 'tmp'), requestId, accountId));
      } catch (err) {
        if (job.attempts >= 3) await requests.failExport(requestId, err);
        throw err;
      }
    },
    { maxAttempts: 3 },
  );
  deps.jobs.register(RETENTION_REQUESTS_JOB, async () => {
    await requests.expireExports();
    await requests.recheckWaiting();
  });
  deps.jobs.schedule({ kind: RETENTION_REQUESTS_JOB, everyMs: RETENTION_REQUESTS_EVERY_MS });
  return { retention, requests, executor };
}
