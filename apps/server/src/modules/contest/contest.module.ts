import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { createPrelimRepository } from '../prelim/prelim.repository.js';
import { prelimRoutes } from '../prelim/prelim.routes.js';
import { createPrelimService, type PrelimService } from '../prelim/prelim.service.js';
import { createTeamRepository } from '../team/team.repository.js';
import { teamRoutes } from '../team/team.routes.js';
import { createTeamService, type TeamService } from '../team/team.service.js';
import { createLogSmsProvider } from '../sms/sms.provider.js';
import { createEmailProvider } from '../email/email.provider.js';
import { createNoticeOutbox, type NoticeOutbox } from '../notices/notice-outbox.js';
import { createReminders } from '../workflow/reminders.js';
import { createWorkflowService } from '../workflow/workflow.service.js';
import { participantGuard } from './contest.guard.js';
import { createContestRepository } from './contest.repository.js';
import { contestRoutes } from './contest.routes.js';
import { createContestService, type ContestService } from './contest.service.js';

export interface ContestOptions {
  /** Tests move the clock to check phase windows. */
  now?: () => Date;
  /** Where stored files are read (to count application PDFs); defaults to the configured driver. */
  storage?: Storage;
}

/**
 * The contest calls (docs/api-contest.md): public phases, team sign-up, preliminary materials and their
 * audits. See docs/api-contest.md. Registered after registerFiles.
 */
export async function registerContest(
  api: FastifyInstance,
  deps: AppDeps,
  identity: IdentityServices,
  options: ContestOptions = {},
): Promise<{ contest: ContestService; team: TeamService; prelim: PrelimService; outbox: NoticeOutbox }> {
  const db = deps.database.db;
  const contest = createContestService({
    db,
    repo: createContestRepository(db),
    storage: options.storage ?? createStorage(deps.config.files.storage),
    now: options.now,
  });
  // Notices go through notifyEvent (templates; 短信通知 / 邮件通知 read per notice, so a change applies at once).
  const workflow = createWorkflowService({ now: contest.now });
  const reminders = createReminders({ now: contest.now });
  const email = createEmailProvider(deps.config.email, { dataDir: deps.config.dataDir, log: api.log });
  api.addHook('onClose', async () => email.close?.());
  // The outbox claims by the database's clock, which stamps its rows, unless a test moves time.
  const outbox = createNoticeOutbox({ db, sms: identity.smsProvider ?? createLogSmsProvider({ dataDir: deps.config.dataDir, log: api.log }), email, log: api.log, now: options.now });
  const afterCommit = () => outbox.kick();
  const team = createTeamService({ db, repo: createTeamRepository(db), contest, workflow, reminders, afterCommit });
  const prelim = createPrelimService({ db, repo: createPrelimRepository(db), contest, workflow, reminders, afterCommit });
  // Notices that failed (gateway down) are retried with backoff; a restart picks up what is left.
  const timer = setInterval(() => outbox.kick(), 60_000);
  timer.unref();
  api.addHook('onClose', async () => clearInterval(timer));
  const guards = createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(db));
  const participant = participantGuard(identity.sessions);

  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(contestRoutes, { service: contest });
    await scope.register(teamRoutes, { service: team, participant, guards });
    await scope.register(prelimRoutes, { service: prelim, participant, guards });
  });
  return { contest, team, prelim, outbox };
}
