import type { Readable } from 'node:stream';
import { CONTENT_MSG, type DocAudience, type DocumentItem, type DocumentListQuery, type Locale } from '@contest/shared';
import { notFound } from '../../lib/errors.js';
import { downloadDisposition } from '../../lib/content-disposition.js';
import { presignDownload, type Storage } from '../../lib/storage/storage.js';
import type { Db } from '../../db/client.js';
import { createDocumentsRepository, type AttachmentRow, type DocumentsRepository, type DocumentWithFile } from './documents.repository.js';

const STREAM_PATH = '/api/attachment/stream/';

/**
 * A file ready to send: its row (name, type, size, hash), how it opens (decided once, for the
 * stream and the presigned link alike) and either its bytes or, when the caller asked for a
 * redirect and the store has links of its own (S3), a short-lived presigned URL.
 */
export type DocumentDownload = { file: AttachmentRow; disposition: 'inline' | 'attachment' } & (
  | { body: Readable; location?: undefined }
  | { location: string; body?: undefined }
);

/** How the caller wants the file: `preview` opens images and PDFs inline; `redirect` accepts a 302 to the store. */
export interface DownloadMode {
  preview?: boolean;
  redirect?: boolean;
}

/** English pages get the English title where there is one. */
function toItem({ doc, file }: DocumentWithFile, locale: Locale): DocumentItem {
  return {
    id: doc.id,
    code: doc.code,
    title: locale === 'en' && doc.titleEn ? doc.titleEn : doc.title,
    category: doc.category,
    audience: doc.audience,
    file: { uniqueNo: file.uniqueNo, name: file.originalName, size: file.size, filePath: `${STREAM_PATH}${file.uniqueNo}` },
    downloadPath: `/api/documents/${doc.id}/file`,
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** PUBLIC for anyone, PARTICIPANT once signed in, APPROVED when the caller's team is approved. */
async function audiencesFor(repo: DocumentsRepository, accountId: string | null): Promise<DocAudience[]> {
  if (!accountId) return ['PUBLIC'];
  return (await repo.teamStatusOf(accountId)) === 'APPROVED' ? ['PUBLIC', 'PARTICIPANT', 'APPROVED'] : ['PUBLIC', 'PARTICIPANT'];
}

/**
 * For the files module's access rule (`files.access.ts`): true when a participant may read this
 * attachment because an enabled document they can see uses it. Needs only the database, so
 * app.ts can build it before registering the files module (like `isExpertAssigned`).
 */
export function createDocumentFileRule(db: Db) {
  const repo = createDocumentsRepository(db);
  return async function canReadDocumentFile(accountId: string, attachmentId: string): Promise<boolean> {
    const used = await repo.audiencesOfAttachment(attachmentId);
    if (used.length === 0) return false;
    const allowed = await audiencesFor(repo, accountId);
    return used.some((a) => allowed.includes(a));
  };
}

export function createDocumentsService(deps: { db: Db; repo: DocumentsRepository; storage: Storage }) {
  const { repo, storage } = deps;
  const audiencesOf = (accountId: string | null) => audiencesFor(repo, accountId);

  async function open(found: DocumentWithFile | undefined, missing: string, mode: DownloadMode = {}): Promise<DocumentDownload> {
    // Not visible to this caller (audience, disabled, unknown): 404 before any link is made.
    if (!found) throw notFound(missing);
    const { file } = found;
    const disposition = downloadDisposition(mode.preview === true, file.mimeType);
    // Asked for only: the web app reads downloads through fetch with a token, where a
    // cross-origin redirect would need CORS on the bucket (decision in docs/files.md).
    if (mode.redirect) {
      const location = await presignDownload(storage, file, disposition);
      if (location) return { file, disposition, location };
    }
    const body = await storage.get(file.storageKey);
    if (!body) throw notFound(missing);
    return { file, disposition, body };
  }

  return {
    audiencesOf,

    /** Documents the caller may see; the others are simply not listed. */
    async list(accountId: string | null, query: DocumentListQuery, locale: Locale = 'zh-cn'): Promise<DocumentItem[]> {
      return (await repo.listVisible(await audiencesOf(accountId), query.category)).map((row) => toItem(row, locale));
    },

    /** GET /template/public: only public documents, by their code. */
    async template(code: string): Promise<DocumentDownload> {
      return open(await repo.findByCode(code, ['PUBLIC']), CONTENT_MSG.templateNotFound);
    },

    async download(accountId: string | null, id: string, mode: DownloadMode = {}): Promise<DocumentDownload> {
      return open(await repo.findVisible(id, await audiencesOf(accountId)), CONTENT_MSG.documentNotFound, mode);
    },

    canReadDocumentFile: createDocumentFileRule(deps.db),
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
