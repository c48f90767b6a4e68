import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_CHANGE_REQUIRED } from '@contest/shared';
import type { AppDeps } from '../../app-deps.js';
import { AppError } from '../../lib/errors.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import { bearerToken, requireRealm } from '../auth/auth.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { registerBroadcast, type BroadcastOptions } from '../broadcast/broadcast.module.js';
import type { JobRunner } from '../../lib/jobs.js';
import { createDocumentsAdminRepository } from '../documents/documents-admin.repository.js';
import { documentsAdminRoutes } from '../documents/documents-admin.routes.js';
import { createDocumentsAdminService } from '../documents/documents-admin.service.js';
import { createDocumentsRepository } from '../documents/documents.repository.js';
import { documentsRoutes } from '../documents/documents.routes.js';
import { createDocumentsService, type DocumentsService } from '../documents/documents.service.js';
import { createFeedbackRepository } from '../feedback/feedback.repository.js';
import { feedbackRoutes } from '../feedback/feedback.routes.js';
import { createFeedbackService } from '../feedback/feedback.service.js';
import { createMessagesRepository } from '../messages/messages.repository.js';
import { messagesRoutes } from '../messages/messages.routes.js';
import { createMessagesService, type MessagesService } from '../messages/messages.service.js';
import { newsRoutes } from '../news/news.routes.js';
import { createSiteContentRepository } from '../site-content/site-content.repository.js';
import { siteContentAdminRoutes } from '../site-content/site-content-admin.routes.js';
import { siteContentRoutes } from '../site-content/site-content.routes.js';
import { createSiteContentService } from '../site-content/site-content.service.js';

export interface ContentServices {
  /** `hasUnread(accountId)` feeds `hasUnReadMessage` of GET /user/account. */
  messages: MessagesService;
  /** `canReadDocumentFile(accountId, attachmentId)` for the files access rule. */
  documents: DocumentsService;
}

/**
 * News, site blocks, documents and templates, the participant inbox and feedback (docs/rules/content.md,
 * content side). Calls in docs/api-content.md.
 */
export async function registerContent(
  api: FastifyInstance,
  deps: AppDeps,
  identity: IdentityServices,
  options: {
    storage?: Storage;
    /** The durable-jobs runner (bulk sends register their job on it). */
    jobs?: JobRunner;
    /** The notice outbox of registerContest, kicked when bulk SMS/email rows are written. */
    outbox?: { kick(): void };
    /** Tests: the bulk-send job's slice size and hooks. */
    broadcastJob?: BroadcastOptions['job'];
    /** The clock of scheduled news (tests move it). */
    now?: () => Date;
  } = {},
): Promise<ContentServices> {
  const db = deps.database.db;
  const { sessions, permissions } = identity;
  // The same store the files module writes to (same configuration); drivers keep no state.
  const storage = options.storage ?? createStorage(deps.config.files.storage);

  // Authentication first (onRequest), so an anonymous caller gets 401 whatever it sends.
  const participant = requireRealm(sessions, 'USER');
  const admin = createAdminGuards(sessions, permissions, createMenuAccess(db));
  /**
   * Public calls that show more to a signed-in participant. Any other token (an admin's or an
   * expert's, an expired or unknown one) gets the public view, as no token does: a public page
   * never refuses what anyone may read. Database faults still fail the call.
   */
  const participantOf = async (request: FastifyRequest): Promise<string | null> => {
    const token = bearerToken(request);
    if (!token) return null;
    try {
      return (await sessions.authenticate(token, ['USER'])).accountId;
    } catch (err) {
      if (err instanceof AppError && (err.code === 'UNAUTHORIZED' || err.code === 'SESSION_REPLACED')) return null;
      // A session that must change its password first reads public pages as the public does.
      if (err instanceof AppError && (err.data as { reason?: string } | null)?.reason === PASSWORD_CHANGE_REQUIRED) return null;
      throw err;
    }
  };

  const messages = createMessagesService(createMessagesRepository(db), db);
  const documents = createDocumentsService({ db, repo: createDocumentsRepository(db), storage });

  await api.register(async (scope) => {
    scope.decorateRequest('auth', null);
    await scope.register(newsRoutes, { db, guards: admin, now: options.now });
    const siteContent = createSiteContentService(createSiteContentRepository(db), db);
    await scope.register(siteContentRoutes, { service: siteContent });
    await scope.register(siteContentAdminRoutes, { service: siteContent, guards: admin });
    await scope.register(documentsRoutes, { service: documents, participantOf });
    await scope.register(documentsAdminRoutes, { service: createDocumentsAdminService({ db, repo: createDocumentsAdminRepository(db) }), guards: admin });
    await registerBroadcast(scope, deps, admin, { jobs: options.jobs, outbox: options.outbox, job: options.broadcastJob });
    // Experts read their notices too (returned sheets, reminders, re-review): same inbox, own rows only.
    await scope.register(messagesRoutes, { service: messages, participant: requireRealm(sessions, 'USER', 'EXPERT') });
    await scope.register(feedbackRoutes, {
      service: createFeedbackService({ db, repo: createFeedbackRepository(db), afterCommit: () => options.outbox?.kick() }),
      participant,
      canRead: admin.menu('UserFeedback'),
      canReply: admin.button('feedback:reply'),
      pii: admin.pii,
    });
  });
  return { messages, documents };
}
