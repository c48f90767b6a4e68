import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { watchEventLoopLag } from '../../lib/event-loop-lag.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { createDirectUploads } from './direct-upload.service.js';
import { directUploadRoutes } from './direct-upload.routes.js';
import type { AccessRules } from './files.access.js';
import { createFilesRepository, createPieceUploadState } from './files.repository.js';
import { filesRoutes } from './files.routes.js';
import { createFilesService, type FilesService } from './files.service.js';
import { createPieceStore } from './piece-store.js';
import { createLinkSigner } from './signed-link.js';
import { speedRoutes } from './speed.routes.js';

/** Pieces of an upload untouched this long are removed (docs/files.md). */
export const UPLOAD_MAX_AGE_MS = 24 * 3600_000;

export interface FilesOptions {
  /** Review assignments live in the review module; until it provides this, experts read nothing. */
  isExpertAssigned?: AccessRules['isExpertAssigned'];
  /** Documents decide which participants see their files; until wired, participants read only their own. */
  canReadDocumentFile?: AccessRules['canReadDocumentFile'];
  /** The review module names an expert's files and gives the download setting; until wired: the blindest answer. */
  expertFileView?: AccessRules['expertFileView'];
  /** Tests pass a driver of their own. */
  storage?: Storage;
  /** The clock the upload admission measures piece durations by (ms); tests move it instead of waiting. */
  now?: () => number;
}

/**
 * Attachments: chunked and single uploads, storage drivers, streaming, access rules (docs/files.md);
 * the speed test (docs/decisions.md, "Speed-test page").
 */
/** How often the event loop's delay is sampled for the upload admission. */
const LAG_SAMPLE_MS = 500;

export async function registerFiles(
  api: FastifyInstance,
  deps: AppDeps,
  identity: IdentityServices,
  options: FilesOptions = {},
): Promise<{ files: FilesService }> {
  const { config, database } = deps;
  const storage = options.storage ?? createStorage(config.files.storage);
  // Upload state in the database; the pieces' bytes on this host's disk, or in the S3 store (docs/files.md, "Several instances").
  const pieces = createPieceStore(join(config.dataDir, 'uploads'), createPieceUploadState(database.db), storage.kind === 's3' ? { store: storage } : {});
  if (!config.files.linkSecret && config.env === 'production') {
    api.log.warn('FILE_LINK_SECRET is not set: file links are signed with a per-process key and stop working at restart or on another instance');
  }
  const links = createLinkSigner(config.files.linkSecret ? Buffer.from(config.files.linkSecret) : randomBytes(32), config.files.linkTtlSeconds);
  const repo = createFilesRepository(database.db);
  const adminCan: AccessRules['adminCan'] = (ctx, code) => identity.permissions.can(ctx, code);
  const direct = createDirectUploads({ db: database.db, repo, storage, rules: { adminCan } });
  const files = createFilesService({
    db: database.db,
    repo,
    storage,
    sweeps: [(maxAgeMs, now) => direct.sweep(maxAgeMs, now)],
    pieces,
    links,
    now: options.now,
    limits: { piecesInFlight: config.files.maxPiecesInFlight, piecesWaiting: config.files.maxPiecesWaiting },
    rules: {
      adminCan,
      isExpertAssigned: options.isExpertAssigned ?? (async () => false),
      canReadDocumentFile: options.canReadDocumentFile ?? (async () => false),
      expertFileView: options.expertFileView ?? (async (_expertId, file) => ({ name: file.originalName, blind: true, download: 'none', watermark: [] })),
    },
  });
  // Uploads yield the event loop to the pages when it lags (admission.ts).
  const stopLagWatch = watchEventLoopLag(LAG_SAMPLE_MS, (lag) => files.observeEventLoopLag(lag));
  api.addHook('onClose', async () => stopLagWatch());
  await api.register(filesRoutes, { service: files, sessions: identity.sessions, incomingPath: () => pieces.incomingPath() });
  await api.register(directUploadRoutes, { direct, sessions: identity.sessions });
  await api.register(speedRoutes, { sessions: identity.sessions });

  // Leftover pieces are swept by a daily durable job (app.ts, kind files.sweep): one instance runs it.
  return { files };
}
