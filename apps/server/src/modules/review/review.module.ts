import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { Db } from '../../db/client.js';
import { createAdminGuards, createMenuAccess, type AdminGuards } from '../admin/admin.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { expertsRoutes } from '../experts/experts.routes.js';
import type { NoticeOutbox } from '../notices/notice-outbox.js';
import { maskAccountName, maskPersonName, neutralFileName, readSettings, type ContestSettings } from '@contest/shared';
import type { ExpertFileView } from '../files/files.access.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { createReminders, type Reminders } from '../workflow/reminders.js';
import { createWorkflowService, type WorkflowService } from '../workflow/workflow.service.js';
import { createExpertGuards, type ExpertGuards } from './expert.guard.js';
import { groupsRoutes } from './groups.routes.js';
import { resultsRoutes } from './scores.routes.js';
import { createRoundView, type RoundView } from './round-view.js';
import { createRubricStore, type RubricStore } from './rubric-store.js';
import { createScoreSeal, type ScoreSeal } from './score-seal.js';
import { scoringRoutes } from './scoring.routes.js';

/** What every part of the review module is built from (one object, so tests can build it too). */
export interface ReviewDeps {
  db: Db;
  now: () => Date;
  view: RoundView;
  rubrics: RubricStore;
  /**
   * The contest settings now (read per call, so a change applies at once). Inside a transaction
   * pass the transaction: on PGlite a read through `db` while a transaction is open deadlocks.
   */
  settingsOf(tx?: Db): Promise<ContestSettings>;
  guards: AdminGuards;
  expert: ExpertGuards;
  workflow: WorkflowService;
  reminders: Reminders;
  /** Wakes the notice outbox after a commit that queued SMS or email. */
  afterCommit: () => void;
  /** Projects whose single scores are sealed (the live final provides the rule). */
  seal: ScoreSeal;
}

export interface ReviewOptions {
  now?: () => Date;
  /** The contest module's outbox (one dispatcher per process). */
  outbox?: NoticeOutbox;
}

/**
 * Expert review (docs/rules/review.md): expert accounts (专家库), rubrics, review groups and assignment,
 * expert scoring, score query, monitoring and promotion, for both rounds. docs/api-review.md.
 */
export async function registerReview(api: FastifyInstance, deps: AppDeps, identity: IdentityServices, options: ReviewOptions = {}): Promise<ReviewDeps> {
  const db = deps.database.db;
  const now = options.now ?? (() => new Date());
  const settingsRepo = createSettingsRepository(db);
  const settingsOf = async (tx?: Db) => readSettings(await settingsRepo.readAll(tx));
  const review: ReviewDeps = {
    db,
    now,
    view: createRoundView(),
    rubrics: createRubricStore(),
    settingsOf,
    guards: createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(db)),
    expert: createExpertGuards(identity.sessions, db),
    workflow: createWorkflowService({ now }),
    reminders: createReminders({ now }),
    afterCommit: () => options.outbox?.kick(),
    seal: createScoreSeal(),
  };
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(expertsRoutes, review);
    await scope.register(groupsRoutes, review);
    await scope.register(scoringRoutes, review);
    await scope.register(resultsRoutes, review);
  });
  return review;
}

/**
 * How an expert gets a file they may read (files.access ExpertFileView; docs/security.md, "Blind
 * review"): under blind review the neutral name (project code + material kind), a blind copy,
 * and the 专家下载材料 setting; the stamp on a downloaded PDF names the expert code and masked
 * name (the masked account when the expert has no name), the files module adds the time.
 */
export function createExpertFileView(db: Db) {
  const view = createRoundView();
  const settingsRepo = createSettingsRepository(db);
  return async (expertId: string, file: { id: string; originalName: string; extension: string }): Promise<ExpertFileView | null> => {
    const { material, expert } = await view.materialOf(db, expertId, file.id);
    if (!material) return null;
    const settings = readSettings(await settingsRepo.readAll());
    const blind = settings.review.blind;
    const name = blind ? neutralFileName(material.prelimId, material.kind, file.extension, material.otherIndex) : file.originalName;
    return { name, blind, download: settings.review.expertDownload, watermark: stampLines(expert) };
  };
}

function stampLines(expert: { code: string | null; name: string | null; username: string }): string[] {
  const who = expert.name?.trim() ? maskPersonName(expert.name) : maskAccountName(expert.username);
  return [expert.code ?? '', who].filter(Boolean);
}

/** The files module's rule for experts (registered before this module): a file of a project the expert scores. */
export function createExpertFileRule(db: Db) {
  const view = createRoundView();
  return (expertId: string, attachmentId: string) => view.expertCanReadAttachment(db, expertId, attachmentId);
}
