import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DocAudience, DocCategory, DocumentAdminListQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { documents } from '../../db/schema/documents.js';
import { attachmentsView } from '../files/files.read-model.js';
import { setPublicFlags } from '../files/files.repository.js';
import { contains, createListQuery, equals, type Filters } from '../../lib/list-query.js';

const rowColumns = {
  id: documents.id,
  code: documents.code,
  title: documents.title,
  titleEn: documents.titleEn,
  category: documents.category,
  audience: documents.audience,
  sort: documents.sort,
  enabled: documents.enabled,
  attachmentId: documents.attachmentId,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
  fileUniqueNo: attachmentsView.uniqueNo,
  fileName: attachmentsView.originalName,
  fileSize: attachmentsView.size,
};

export interface DocumentAdminDbRow {
  id: string;
  code: string | null;
  title: string;
  titleEn: string | null;
  category: DocCategory;
  audience: DocAudience;
  sort: number;
  enabled: boolean;
  attachmentId: string;
  createdAt: Date;
  updatedAt: Date;
  fileUniqueNo: string;
  fileName: string;
  fileSize: number;
}

/** What one document is written from (create and edit). */
export interface DocumentWrite {
  code: string | null;
  title: string;
  titleEn: string | null;
  attachmentId: string;
  category: DocCategory;
  audience: DocAudience;
  sort: number;
  enabled: boolean;
}

export type DocumentAdminFilter = Pick<DocumentAdminListQuery, 'category' | 'audience' | 'enabled' | 'keyword'>;

function filtersOf(f: DocumentAdminFilter): Filters {
  return [
    equals(documents.category, f.category),
    equals(documents.audience, f.audience),
    equals(documents.enabled, f.enabled),
    contains([documents.title, documents.titleEn, documents.code, attachmentsView.originalName], f.keyword),
  ];
}

/** 文档管理: every document, enabled or not, with its file. */
export function createDocumentsAdminRepository(db: Db) {
  const from = (tx: Db = db) => tx.select(rowColumns).from(documents).innerJoin(attachmentsView, eq(attachmentsView.id, documents.attachmentId));

  const list = createListQuery({
    rows: () => from().$dynamic(),
    count: () => db.select({ n: count() }).from(documents).innerJoin(attachmentsView, eq(attachmentsView.id, documents.attachmentId)).$dynamic(),
    sortable: { sort: documents.sort, title: documents.title, updatedAt: documents.updatedAt },
    // The order the public lists use within a category (sort, then title).
    defaultOrder: [
      { column: documents.category, order: 'asc' },
      { column: documents.sort, order: 'asc' },
      { column: documents.title, order: 'asc' },
    ],
    tiebreak: { column: documents.id, order: 'asc' },
  });

  return {
    page: (q: DocumentAdminListQuery) => list.page(filtersOf(q), q) as Promise<{ rows: DocumentAdminDbRow[]; total: number }>,

    findById: async (id: string, tx: Db = db): Promise<DocumentAdminDbRow | undefined> => (await from(tx).where(eq(documents.id, id)).limit(1))[0],

    /** Locks the document for the rest of the transaction (edits, status changes and deletes race otherwise). */
    async lockById(id: string, tx: Db): Promise<DocumentAdminDbRow | undefined> {
      const [locked] = await tx.select({ id: documents.id }).from(documents).where(eq(documents.id, id)).for('update').limit(1);
      return locked ? (await from(tx).where(eq(documents.id, id)).limit(1))[0] : undefined;
    },

    /** An attachment uploaded for documents (origin DOC), by its public handle. */
    async docFileByUniqueNo(uniqueNo: string, tx: Db): Promise<{ id: string; originalName: string } | undefined> {
      const [row] = await tx
        .select({ id: attachmentsView.id, originalName: attachmentsView.originalName })
        .from(attachmentsView)
        .where(and(eq(attachmentsView.uniqueNo, uniqueNo), eq(attachmentsView.origin, 'DOC')))
        .limit(1);
      return row;
    },

    /**
     * Locks the attachments, always in id order, before their documents change: two writes on
     * documents sharing a file then compute its public flag one after the other, each seeing
     * the other's committed change.
     */
    async lockAttachments(ids: readonly string[], tx: Db): Promise<void> {
      const unique = [...new Set(ids)].sort();
      if (unique.length) await tx.select({ id: attachmentsView.id }).from(attachmentsView).where(inArray(attachmentsView.id, unique)).orderBy(asc(attachmentsView.id)).for('update');
    },

    async codeTaken(code: string, excludeId: string | undefined, tx: Db): Promise<boolean> {
      const [row] = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.code, code), excludeId ? ne(documents.id, excludeId) : undefined))
        .limit(1);
      return row !== undefined;
    },

    async insert(input: DocumentWrite, tx: Db): Promise<string> {
      const [row] = await tx.insert(documents).values(input).returning({ id: documents.id });
      return row!.id;
    },

    async update(id: string, input: DocumentWrite, tx: Db): Promise<void> {
      await tx.update(documents).set({ ...input, updatedAt: sql`now()` }).where(eq(documents.id, id));
    },

    async setEnabled(id: string, enabled: boolean, tx: Db): Promise<void> {
      await tx.update(documents).set({ enabled, updatedAt: sql`now()` }).where(eq(documents.id, id));
    },

    async delete(id: string, tx: Db): Promise<void> {
      await tx.delete(documents).where(eq(documents.id, id));
    },

    /**
     * A document file is a public link exactly while an enabled PUBLIC document uses it; the
     * others are read through their document's audience (createDocumentFileRule), so a file
     * moved to PARTICIPANT, disabled, replaced or deleted stops being readable by anyone.
     */
    async syncPublicFlags(attachmentIds: readonly string[], tx: Db): Promise<void> {
      const ids = [...new Set(attachmentIds)];
      if (!ids.length) return;
      const used = await tx
        .select({ id: documents.attachmentId })
        .from(documents)
        .where(and(inArray(documents.attachmentId, ids), eq(documents.enabled, true), eq(documents.audience, 'PUBLIC')));
      await setPublicFlags(tx, 'DOC', ids, new Set(used.map((r) => r.id)));
    },
  };
}
export type DocumentsAdminRepository = ReturnType<typeof createDocumentsAdminRepository>;
