import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { enqueueJob, type JobRunner } from '../../lib/jobs.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { BROADCAST_JOB, createBroadcastJob, type BroadcastJobDeps, type BroadcastJobHandler } from './broadcast.job.js';
import { createBroadcastRepository } from './broadcast.repository.js';
import { broadcastRoutes } from './broadcast.routes.js';
import { createBroadcastService, type BroadcastService } from './broadcast.service.js';

export interface BroadcastOptions {
  /** The durable-jobs runner (default: the app's, deps.jobs): the bulk-send job is registered on it, and kicked after a send. */
  jobs?: JobRunner;
  /** The notice outbox: kicked once a slice of SMS/email rows is written (else its own timer sends them). */
  outbox?: { kick(): void };
  /** Tests: slice size and a hook before each slice (to stop a run half-way). */
  job?: Pick<BroadcastJobDeps, 'sliceSize' | 'beforeSlice' | 'now'>;
}

/**
 * 站内信管理, 短信管理 and email bulk sends (docs/rules/content.md): calls in docs/api-content.md ("Bulk
 * sends"). Returns the job handler, which the jobs runner of the app runs.
 */
export async function registerBroadcast(
  scope: FastifyInstance,
  deps: AppDeps,
  guards: AdminGuards,
  options: BroadcastOptions = {},
): Promise<{ service: BroadcastService; handler: BroadcastJobHandler }> {
  const db = deps.database.db;
  const handler = createBroadcastJob({
    kv: deps.kv,
    smsDailyLimit: deps.config.sms.dailyLimitPerPhone,
    afterOutbox: options.outbox ? () => options.outbox!.kick() : undefined,
    ...options.job,
  });
  const jobs = options.jobs ?? deps.jobs;
  jobs.register(BROADCAST_JOB, handler);
  const service = createBroadcastService({ db, repo: createBroadcastRepository(db), enqueueJob, kickJobs: () => jobs.kick() });
  await scope.register(broadcastRoutes, { service, guards });
  return { service, handler };
}
