import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DocAudience, DocCategory } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { documents } from '../../db/schema/documents.js';
import { attachmentsView, type AttachmentsRow } from '../files/files.read-model.js';
import { fieldsOf } from '../../db/read-model.js';
import { teamsView } from '../team/team.read-model.js';

export type DocumentRow = typeof documents.$inferSelect;
export type AttachmentRow = AttachmentsRow;
export interface DocumentWithFile {
  doc: DocumentRow;
  file: AttachmentRow;
}

export function createDocumentsRepository(db: Db) {
  const withFile = () =>
    db.select({ doc: documents, file: fieldsOf(attachmentsView) }).from(documents).innerJoin(attachmentsView, eq(attachmentsView.id, documents.attachmentId));

  return {
    async listVisible(audiences: DocAudience[], category?: DocCategory): Promise<DocumentWithFile[]> {
      const where: SQL[] = [eq(documents.enabled, true), inArray(documents.audience, audiences)];
      if (category) where.push(eq(documents.category, category));
      return withFile().where(and(...where)).orderBy(asc(documents.sort), asc(documents.title), asc(documents.id));
    },

    async findVisible(id: string, audiences: DocAudience[]): Promise<DocumentWithFile | undefined> {
      const [row] = await withFile().where(and(eq(documents.id, id), eq(documents.enabled, true), inArray(documents.audience, audiences)));
      return row;
    },

    async findByCode(code: string, audiences: DocAudience[]): Promise<DocumentWithFile | undefined> {
      const [row] = await withFile().where(and(eq(documents.code, code), eq(documents.enabled, true), inArray(documents.audience, audiences)));
      return row;
    },

    /** Audiences of the enabled documents that use this attachment. */
    async audiencesOfAttachment(attachmentId: string): Promise<DocAudience[]> {
      const rows = await db
        .select({ audience: documents.audience })
        .from(documents)
        .where(and(eq(documents.attachmentId, attachmentId), eq(documents.enabled, true)));
      return rows.map((r) => r.audience);
    },

    async teamStatusOf(accountId: string): Promise<string | null> {
      const [row] = await db.select({ status: teamsView.status }).from(teamsView).where(eq(teamsView.ownerId, accountId));
      return row?.status ?? null;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
