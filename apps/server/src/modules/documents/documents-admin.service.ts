import {
  CONTENT_MSG,
  DOC_AUDIENCE_NAMES,
  DOC_CATEGORY_NAMES,
  DOCUMENT_MSG as D,
  type DocumentAdminListQuery,
  type DocumentAdminRow,
  type DocumentInput,
  type Page,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { iso, isUniqueViolation } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { DocumentAdminDbRow, DocumentsAdminRepository, DocumentWrite } from './documents-admin.repository.js';

const STREAM_PATH = '/api/attachment/stream/';

export function toDocumentAdminRow(r: DocumentAdminDbRow): DocumentAdminRow {
  return {
    id: r.id,
    code: r.code,
    title: r.title,
    titleEn: r.titleEn,
    category: r.category,
    audience: r.audience,
    sort: r.sort,
    enabled: r.enabled,
    file: { uniqueNo: r.fileUniqueNo, name: r.fileName, size: r.fileSize, filePath: `${STREAM_PATH}${r.fileUniqueNo}` },
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

const describe = (d: Pick<DocumentWrite, 'title' | 'code'>) => `「${d.title}」${d.code ? `（${d.code}）` : ''}`;

/**
 * 文档管理 (docs/rules/content.md, "Documents and templates"): templates, guides and data documents with their file, audience and order.
 * The public calls (/documents, /template/public, /module's data documents) read the same rows
 * on every request, so a change shows there at once; the file's public flag follows the
 * documents using it (see the repository's syncPublicFlags).
 */
export function createDocumentsAdminService({ db, repo }: { db: Db; repo: DocumentsAdminRepository }) {
  async function view(id: string, tx: Db = db): Promise<DocumentAdminRow> {
    const row = await repo.findById(id, tx);
    if (!row) throw notFound(CONTENT_MSG.documentNotFound);
    return toDocumentAdminRow(row);
  }

  /** Wraps a write: the unique index on code answers a race like the pre-check would. */
  async function write<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(D.docCodeTaken, { field: 'code' });
      throw err;
    }
  }

  /** The body as stored: the file must be a document upload, the code free. */
  async function resolve(body: DocumentInput, excludeId: string | undefined, tx: Db): Promise<DocumentWrite & { fileName: string }> {
    const file = await repo.docFileByUniqueNo(body.file, tx);
    if (!file) throw badRequest(D.docFileInvalid, { field: 'file' });
    if (body.code && (await repo.codeTaken(body.code, excludeId, tx))) throw badRequest(D.docCodeTaken, { field: 'code' });
    return {
      code: body.code,
      title: body.title,
      titleEn: body.titleEn,
      attachmentId: file.id,
      category: body.category,
      audience: body.audience,
      sort: body.sort,
      enabled: body.enabled,
      fileName: file.originalName,
    };
  }

  return {
    view,

    async list(q: DocumentAdminListQuery): Promise<Page<DocumentAdminRow>> {
      const { rows, total } = await repo.page(q);
      return { list: rows.map(toDocumentAdminRow), page: q.page, size: q.size, total };
    },

    async create(actor: OperationActor, body: DocumentInput): Promise<DocumentAdminRow> {
      return write(async (tx) => {
        const { fileName, ...input } = await resolve(body, undefined, tx);
        await repo.lockAttachments([input.attachmentId], tx);
        const id = await repo.insert(input, tx);
        await repo.syncPublicFlags([input.attachmentId], tx);
        await recordOperation(tx, actor, {
          action: 'doc:edit',
          targetType: 'document',
          targetId: id,
          summary:
            `新增文档${describe(input)}：${DOC_CATEGORY_NAMES[input.category]}，可见范围 ${DOC_AUDIENCE_NAMES[input.audience]}，` +
            `文件 ${fileName}，排序 ${input.sort}，${input.enabled ? '启用' : '禁用'}`,
        });
        return view(id, tx);
      });
    },

    async update(actor: OperationActor, id: string, body: DocumentInput): Promise<DocumentAdminRow> {
      return write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(CONTENT_MSG.documentNotFound);
        const { fileName, ...input } = await resolve(body, id, tx);
        await repo.lockAttachments([current.attachmentId, input.attachmentId], tx);
        await repo.update(id, input, tx);
        // The old file too: replaced, it must stop being a public link.
        await repo.syncPublicFlags([current.attachmentId, input.attachmentId], tx);
        const changes: string[] = [];
        const note = (label: string, before: string | number | null, after: string | number | null) => {
          if ((before ?? '') !== (after ?? '')) changes.push(`${label} ${before === null || before === '' ? '无' : before} -> ${after === null || after === '' ? '无' : after}`);
        };
        note('标题', current.title, input.title);
        note('英文标题', current.titleEn, input.titleEn);
        note('编码', current.code, input.code);
        note('类别', DOC_CATEGORY_NAMES[current.category], DOC_CATEGORY_NAMES[input.category]);
        note('可见范围', DOC_AUDIENCE_NAMES[current.audience], DOC_AUDIENCE_NAMES[input.audience]);
        if (current.attachmentId !== input.attachmentId) note('文件', current.fileName, fileName);
        note('排序', current.sort, input.sort);
        note('状态', current.enabled ? '启用' : '禁用', input.enabled ? '启用' : '禁用');
        await recordOperation(tx, actor, {
          action: 'doc:edit',
          targetType: 'document',
          targetId: id,
          summary: `编辑文档${describe(input)}：${changes.join('；') || '无变化'}`,
        });
        return view(id, tx);
      });
    },

    async setEnabled(actor: OperationActor, id: string, enabled: boolean): Promise<DocumentAdminRow> {
      return write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(CONTENT_MSG.documentNotFound);
        await repo.lockAttachments([current.attachmentId], tx);
        await repo.setEnabled(id, enabled, tx);
        await repo.syncPublicFlags([current.attachmentId], tx);
        await recordOperation(tx, actor, {
          action: 'doc:edit',
          targetType: 'document',
          targetId: id,
          summary: `${enabled ? '启用' : '禁用'}文档${describe(current)}`,
        });
        return view(id, tx);
      });
    },

    /** The file stays stored (the audit trail may name it) but is no longer a public link. */
    async remove(actor: OperationActor, id: string): Promise<void> {
      await write(async (tx) => {
        const current = await repo.lockById(id, tx);
        if (!current) throw notFound(CONTENT_MSG.documentNotFound);
        await repo.lockAttachments([current.attachmentId], tx);
        await repo.delete(id, tx);
        await repo.syncPublicFlags([current.attachmentId], tx);
        await recordOperation(tx, actor, {
          action: 'doc:delete',
          targetType: 'document',
          targetId: id,
          summary: `删除文档${describe(current)}：${DOC_CATEGORY_NAMES[current.category]}，文件 ${current.fileName}`,
        });
      });
    },
  };
}
export type DocumentsAdminService = ReturnType<typeof createDocumentsAdminService>;
