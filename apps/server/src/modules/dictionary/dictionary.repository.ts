import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { dictItems, dictTypes } from '../../db/schema/dictionary.js';

export type DictTypeRow = typeof dictTypes.$inferSelect;
export type DictItemRow = typeof dictItems.$inferSelect;

export function createDictionaryRepository(db: Db) {
  return {
    typesWithCounts: async (tx: Db = db) =>
      tx
        .select({ code: dictTypes.code, name: dictTypes.name, nameEn: dictTypes.nameEn, sort: dictTypes.sort, createdAt: dictTypes.createdAt, updatedAt: dictTypes.updatedAt, itemCount: count(dictItems.id) })
        .from(dictTypes)
        .leftJoin(dictItems, eq(dictItems.typeCode, dictTypes.code))
        .groupBy(dictTypes.code)
        .orderBy(asc(dictTypes.sort), asc(dictTypes.code)),

    findType: async (code: string, tx: Db = db) => (await tx.select().from(dictTypes).where(eq(dictTypes.code, code)).limit(1))[0],
    lockType: async (code: string, tx: Db) => (await tx.select().from(dictTypes).where(eq(dictTypes.code, code)).for('update').limit(1))[0],
    insertType: async (values: typeof dictTypes.$inferInsert, tx: Db) => {
      await tx.insert(dictTypes).values(values);
    },
    updateType: async (code: string, values: Partial<typeof dictTypes.$inferInsert>, tx: Db) => {
      await tx.update(dictTypes).set(values).where(eq(dictTypes.code, code));
    },
    deleteType: async (code: string, tx: Db) => {
      await tx.delete(dictTypes).where(eq(dictTypes.code, code));
    },
    countItems: async (typeCode: string, tx: Db = db) =>
      (await tx.select({ n: count() }).from(dictItems).where(eq(dictItems.typeCode, typeCode)))[0]?.n ?? 0,

    itemsOfType: async (typeCode: string, tx: Db = db) =>
      tx.select().from(dictItems).where(eq(dictItems.typeCode, typeCode)).orderBy(asc(dictItems.sort), asc(dictItems.code)),

    /** Items of the given types (all types when `typeCodes` is undefined). */
    items: async (typeCodes: string[] | undefined, onlyEnabled: boolean) => {
      const where = [];
      if (typeCodes) where.push(inArray(dictItems.typeCode, typeCodes));
      if (onlyEnabled) where.push(eq(dictItems.enabled, true));
      return db
        .select({ typeCode: dictItems.typeCode, code: dictItems.code, name: dictItems.name, nameEn: dictItems.nameEn })
        .from(dictItems)
        .where(where.length ? and(...where) : undefined)
        .orderBy(asc(dictItems.typeCode), asc(dictItems.sort), asc(dictItems.code));
    },
    typeCodes: async () => (await db.select({ code: dictTypes.code }).from(dictTypes)).map((t) => t.code),

    findItem: async (id: string, tx: Db = db) => (await tx.select().from(dictItems).where(eq(dictItems.id, id)).limit(1))[0],
    lockItem: async (id: string, tx: Db) => (await tx.select().from(dictItems).where(eq(dictItems.id, id)).for('update').limit(1))[0],
    findItemByCode: async (typeCode: string, code: string, tx: Db = db) =>
      (await tx.select().from(dictItems).where(and(eq(dictItems.typeCode, typeCode), eq(dictItems.code, code))).limit(1))[0],
    insertItem: async (values: typeof dictItems.$inferInsert, tx: Db) => (await tx.insert(dictItems).values(values).returning())[0]!,
    updateItem: async (id: string, values: Partial<typeof dictItems.$inferInsert>, tx: Db) =>
      (await tx.update(dictItems).set(values).where(eq(dictItems.id, id)).returning())[0]!,
  };
}
export type DictionaryRepository = ReturnType<typeof createDictionaryRepository>;
