import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { requireRealm } from '../auth/auth.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import type { ReviewDeps } from '../review/review.module.js';
import { ISSUE_JOB, type CertificatesDeps } from './certificates.common.js';
import { createCertificatesRepository } from './certificates.repository.js';
import { certificatesRoutes } from './certificates.routes.js';
import { createDocumentsService, type DocumentsService } from './documents.service.js';
import { createIssueService, type IssueService } from './issue.service.js';
import { createTemplatesService, type TemplatesService } from './templates.service.js';

export interface CertificatesServices {
  templates: TemplatesService;
  issuing: IssueService;
  documents: DocumentsService;
}

export interface CertificatesOptions {
  /** Tests pass the files module's driver; default: the configured store (the same objects files use). */
  storage?: Storage;
}

/** The origin the QR codes point to: PUBLIC_URL, else the local address the server listens on. */
export const publicOriginOf = (config: AppDeps['config']) => (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');

/**
 * Certificates and letters (docs/certificates.md): templates, issuing as a durable job over a
 * round's published result, downloads and the public verification. Built on the review
 * module's deps (clock, settings, guards, outbox kick).
 */
export async function registerCertificates(api: FastifyInstance, deps: AppDeps, identity: IdentityServices, review: ReviewDeps, options: CertificatesOptions = {}): Promise<CertificatesServices> {
  const db = deps.database.db;
  const common: CertificatesDeps = {
    db,
    repo: createCertificatesRepository(db),
    storage: options.storage ?? createStorage(deps.config.files.storage),
    now: review.now,
    settingsOf: review.settingsOf,
    publicOrigin: publicOriginOf(deps.config),
    kickJobs: () => deps.jobs.kick(),
    afterCommit: review.afterCommit,
  };
  const templates = createTemplatesService(common);
  const issuing = createIssueService(common);
  const documents = createDocumentsService(common);
  // A run is resumable (each document is checked before it is made): a few attempts, then FAILED with the reason.
  deps.jobs.register(ISSUE_JOB, (job, ctx) => issuing.runJob(job, ctx), { maxAttempts: 3 });
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(certificatesRoutes, {
      templates,
      issuing,
      documents,
      guards: review.guards,
      participant: requireRealm(identity.sessions, 'USER'),
      expert: review.expert.signedIn,
    });
  });
  return { templates, issuing, documents };
}
