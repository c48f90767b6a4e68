import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ExpertListQuery, ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, dictItems, expertConflicts, expertProfiles, reviewGroupExperts, reviewGroups, type DeclaredOrg } from '../../db/schema.js';
import { contains, createListQuery, equals, type Filters } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

const TRACK_TYPE = 'TRACK';
/** PostgreSQL advisory lock id of expert code/phone writes (beside settings' 7_310_425_001 and the rubrics'). */
const EXPERT_CODES_LOCK_ID = 7_310_425_201;

const listColumns = {
  id: accounts.id,
  code: accounts.code,
  username: accounts.username,
  name: accounts.name,
  phone: accounts.phone,
  enabled: accounts.enabled,
  agreedAt: accounts.agreedAt,
  lastLoginAt: accounts.lastLoginAt,
  createdAt: accounts.createdAt,
  organization: expertProfiles.organization,
  title: expertProfiles.title,
  tracks: expertProfiles.tracks,
  orgCreditCode: expertConflicts.orgCreditCode,
  declaredOrgs: expertConflicts.declaredOrgs,
};

export interface ExpertDbRow {
  id: string;
  code: string | null;
  username: string;
  name: string | null;
  phone: string | null;
  enabled: boolean;
  agreedAt: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
  organization: string | null;
  title: string | null;
  tracks: string[] | null;
  orgCreditCode: string | null;
  declaredOrgs: DeclaredOrg[] | null;
}

export type ExpertFilter = Pick<ExpertListQuery, 'keyword' | 'track' | 'enabled'>;

/** What one expert account is written from (create, edit, import). */
export interface ExpertWrite {
  code: string;
  name: string;
  phone: string;
  organization: string;
  orgCreditCode: string | null;
  title: string | null;
  tracks: string[];
  declaredOrgs: DeclaredOrg[];
}

const isExpert = eq(accounts.realm, 'EXPERT');

/** `fullPii`: the caller may see phones in full, so part of one finds the expert (lib/pii.ts); otherwise only the whole number. */
function filtersOf(f: ExpertFilter, fullPii: boolean): Filters {
  return [
    isExpert,
    f.keyword ? or(contains([accounts.code, accounts.name, expertProfiles.organization], f.keyword), piiSearch(accounts.phone, f.keyword, fullPii)) : undefined,
    // jsonb containment: the expert covers this track among others.
    f.track ? sql`${expertProfiles.tracks} @> ${JSON.stringify([f.track])}::jsonb` : undefined,
    equals(accounts.enabled, f.enabled),
  ];
}

/** Expert accounts (realm EXPERT) with their profile (expert_profiles) and organisations (expert_conflicts). */
export function createExpertsRepository(db: Db) {
  const from = (tx: Db = db) =>
    tx
      .select(listColumns)
      .from(accounts)
      .leftJoin(expertProfiles, eq(expertProfiles.accountId, accounts.id))
      .leftJoin(expertConflicts, eq(expertConflicts.accountId, accounts.id));

  const list = createListQuery({
    rows: () => from().$dynamic(),
    count: () => db.select({ n: count() }).from(accounts).leftJoin(expertProfiles, eq(expertProfiles.accountId, accounts.id)).$dynamic(),
    sortable: { code: accounts.code, name: accounts.name, createdAt: accounts.createdAt, lastLoginAt: accounts.lastLoginAt },
    // Newest first; an import's rows share one creation time and keep their codes' order.
    defaultOrder: [
      { column: accounts.createdAt, order: 'desc' },
      { column: accounts.code, order: 'asc' },
    ],
    tiebreak: { column: accounts.id, order: 'asc' },
  });

  const insertProfiles = async (rows: Array<{ id: string; input: ExpertWrite }>, tx: Db) => {
    if (!rows.length) return;
    await tx.insert(expertProfiles).values(rows.map(({ id, input }) => ({ accountId: id, organization: input.organization, title: input.title, tracks: input.tracks })));
    await tx.insert(expertConflicts).values(rows.map(({ id, input }) => ({ accountId: id, orgCreditCode: input.orgCreditCode, declaredOrgs: input.declaredOrgs })));
  };

  return {
    page: (q: ExpertListQuery, fullPii: boolean) => list.page(filtersOf(q, fullPii), q),
    count: (f: ExpertFilter, fullPii: boolean) => list.count(filtersOf(f, fullPii)),
    batch: (f: ExpertFilter, offset: number, limit: number, fullPii: boolean) => list.batch(filtersOf(f, fullPii), { offset, limit }) as Promise<ExpertDbRow[]>,

    findById: async (id: string, tx: Db = db): Promise<ExpertDbRow | undefined> => (await from(tx).where(and(isExpert, eq(accounts.id, id))).limit(1))[0],

    /** Locks the account row for the rest of the transaction (edits and status changes race otherwise). */
    lockById: async (id: string, tx: Db): Promise<ExpertDbRow | undefined> => {
      const [locked] = await tx.select({ id: accounts.id }).from(accounts).where(and(isExpert, eq(accounts.id, id))).for('update').limit(1);
      return locked ? (await from(tx).where(eq(accounts.id, id)).limit(1))[0] : undefined;
    },

    /** Group name per round of each expert. */
    async groupsOf(ids: readonly string[], tx: Db = db): Promise<Map<string, Partial<Record<ReviewRound, string>>>> {
      const out = new Map<string, Partial<Record<ReviewRound, string>>>();
      if (!ids.length) return out;
      const rows = await tx
        .select({ expertId: reviewGroupExperts.expertId, round: reviewGroupExperts.round, name: reviewGroups.name })
        .from(reviewGroupExperts)
        .innerJoin(reviewGroups, eq(reviewGroups.id, reviewGroupExperts.groupId))
        .where(inArray(reviewGroupExperts.expertId, [...ids]));
      for (const r of rows) out.set(r.expertId, { ...out.get(r.expertId), [r.round]: r.name });
      return out;
    },

    /**
     * Accounts already holding one of these codes (any realm: codes are unique across accounts),
     * expert usernames derived from them, or expert phones; `excludeId` is the expert being edited.
     */
    async taken(input: { codes: readonly string[]; phones: readonly string[] }, excludeId: string | undefined, tx: Db = db) {
      const any: SQL[] = [];
      if (input.codes.length) {
        any.push(inArray(accounts.code, [...input.codes]));
        any.push(and(isExpert, inArray(accounts.username, input.codes.map((c) => c.toLowerCase())))!);
      }
      if (input.phones.length) any.push(and(isExpert, inArray(accounts.phone, [...input.phones]))!);
      if (!any.length) return { codes: new Set<string>(), phones: new Set<string>() };
      const rows = await tx
        .select({ code: accounts.code, username: accounts.username, phone: accounts.phone, realm: accounts.realm })
        .from(accounts)
        .where(and(or(...any), excludeId ? ne(accounts.id, excludeId) : undefined));
      const codes = new Set<string>();
      const phones = new Set<string>();
      const wanted = new Set(input.codes);
      for (const r of rows) {
        if (r.code && wanted.has(r.code)) codes.add(r.code);
        if (r.realm === 'EXPERT') {
          const byUsername = input.codes.find((c) => c.toLowerCase() === r.username);
          if (byUsername) codes.add(byUsername);
          if (r.phone && input.phones.includes(r.phone)) phones.add(r.phone);
        }
      }
      return { codes, phones };
    },

    /** Every code of the E + digits shape in use, for picking the next free ones. */
    async codesInUse(tx: Db = db): Promise<Set<string>> {
      const rows = await tx.select({ code: accounts.code }).from(accounts).where(sql`${accounts.code} ~ '^E[0-9]+$'`);
      return new Set(rows.map((r) => r.code!));
    },

    /**
     * Serialises the writes that pick codes and phones (create, import, edit) on PostgreSQL, so
     * two of them never choose the same next code; the unique indexes stay the last word.
     */
    lockCodes: async (tx: Db) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${EXPERT_CODES_LOCK_ID})`);
    },

    /** TRACK items: code -> name (enabled only unless `all`). */
    async tracks(all = false, tx: Db = db): Promise<Array<{ code: string; name: string; enabled: boolean }>> {
      return tx
        .select({ code: dictItems.code, name: dictItems.name, enabled: dictItems.enabled })
        .from(dictItems)
        .where(and(eq(dictItems.typeCode, TRACK_TYPE), all ? undefined : eq(dictItems.enabled, true)))
        .orderBy(asc(dictItems.sort), asc(dictItems.code));
    },

    /** Inserts the accounts with their profiles; answers their ids in input order. */
    async insertMany(rows: Array<{ input: ExpertWrite; passwordHash: string }>, at: Date, tx: Db): Promise<string[]> {
      const ids: string[] = [];
      // Chunks keep each statement's parameter count well under PostgreSQL's 65535.
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const inserted = await tx
          .insert(accounts)
          .values(
            chunk.map(({ input, passwordHash }) => ({
              realm: 'EXPERT' as const,
              username: input.code.toLowerCase(),
              code: input.code,
              name: input.name,
              phone: input.phone,
              roleCode: 'EXPERT' as const,
              passwordHash,
              // Generated and shown to the operator: the expert sets their own at first login.
              mustChangePassword: true,
              createdAt: at,
              updatedAt: at,
            })),
          )
          .returning({ id: accounts.id, code: accounts.code });
        // RETURNING follows the VALUES order in PostgreSQL, but match by code to be sure.
        const idOf = new Map(inserted.map((r) => [r.code!, r.id]));
        const chunkIds = chunk.map(({ input }) => idOf.get(input.code)!);
        await insertProfiles(chunk.map(({ input }, k) => ({ id: chunkIds[k]!, input })), tx);
        ids.push(...chunkIds);
      }
      return ids;
    },

    async update(id: string, input: ExpertWrite, at: Date, tx: Db) {
      await tx.update(accounts).set({ code: input.code, username: input.code.toLowerCase(), name: input.name, phone: input.phone, updatedAt: at }).where(eq(accounts.id, id));
      await tx
        .insert(expertProfiles)
        .values({ accountId: id, organization: input.organization, title: input.title, tracks: input.tracks })
        .onConflictDoUpdate({ target: expertProfiles.accountId, set: { organization: input.organization, title: input.title, tracks: input.tracks } });
      await tx
        .insert(expertConflicts)
        .values({ accountId: id, orgCreditCode: input.orgCreditCode, declaredOrgs: input.declaredOrgs })
        .onConflictDoUpdate({ target: expertConflicts.accountId, set: { orgCreditCode: input.orgCreditCode, declaredOrgs: input.declaredOrgs, updatedAt: at } });
    },

    setEnabled: async (id: string, enabled: boolean, at: Date, tx: Db) => {
      await tx.update(accounts).set({ enabled, updatedAt: at }).where(eq(accounts.id, id));
    },

    setPassword: async (id: string, passwordHash: string, at: Date, tx: Db) => {
      await tx.update(accounts).set({ passwordHash, passwordChangedAt: at, mustChangePassword: true, updatedAt: at }).where(eq(accounts.id, id));
    },
  };
}
export type ExpertsRepository = ReturnType<typeof createExpertsRepository>;
