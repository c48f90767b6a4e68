import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { SCORE_LOG_VERIFY_EVERY_MS, SCORE_LOG_VERIFY_JOB, runDailyVerify } from './daily-verify.js';
import { createScoreLogRepository } from './score-log.repository.js';
import { scoreLogRoutes } from './score-log.routes.js';
import { createScoreLogService } from './score-log.service.js';

/**
 * 评分存证 (docs/rules/results.md, "Score log"): the console's calls on the tamper-evident log. Appends are not made here
 * but by the modules whose facts they record (review, results), through score-log.ts.
 */
export async function registerScoreLog(api: FastifyInstance, deps: AppDeps, identity: IdentityServices): Promise<void> {
  const db = deps.database.db;
  const guards = createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(db));
  const service = createScoreLogService({ db, repo: createScoreLogRepository(db) });
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(scoreLogRoutes, { guards, service });
  });
  // The log against its published heads and the live sheets, once a day (super admins told on a difference).
  deps.jobs.register(SCORE_LOG_VERIFY_JOB, async () => {
    await runDailyVerify(db);
  });
  deps.jobs.schedule({ kind: SCORE_LOG_VERIFY_JOB, everyMs: SCORE_LOG_VERIFY_EVERY_MS });
}
