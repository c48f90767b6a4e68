import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { DocAudience, DocCategory } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { attachments, documents, teams } from '../../db/schema.js';

export type DocumentRow = typeof documents.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;
export interface DocumentWithFile {
  doc: DocumentRow;
  file: AttachmentRow;
}

export function createDocumentsRepository(db: Db) {
  const withFile = () =>
    db.select({ doc: documents, file: attachments }).from(documents).innerJoin(attachments, eq(attachments.id, documents.attachmentId));

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
      const [row] = await db.select({ status: teams.status }).from(teams).where(eq(teams.ownerId, accountId));
      return row?.status ?? null;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
