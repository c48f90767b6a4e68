import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ExpertListQuery, ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { expertConflicts, expertProfiles, type DeclaredOrg } from '../../db/schema/experts.js';
import { insertAccounts, updateAccount } from '../auth/account-store.js';
import { accountsView } from '../auth/auth.read-model.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { reviewGroupExpertsView, reviewGroupsView } from '../review/review.read-model.js';
import { contains, createListQuery, equals, type Filters } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

const TRACK_TYPE = 'TRACK';
/** PostgreSQL advisory lock id of expert code/phone writes (beside settings' 7_310_425_001 and the rubrics'). */
const EXPERT_CODES_LOCK_ID = 7_310_425_201;

const listColumns = {
  id: accountsView.id,
  code: accountsView.code,
  username: accountsView.username,
  name: accountsView.name,
  phone: accountsView.phone,
  enabled: accountsView.enabled,
  agreedAt: accountsView.agreedAt,
  lastLoginAt: accountsView.lastLoginAt,
  createdAt: accountsView.createdAt,
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

const isExpert = eq(accountsView.realm, 'EXPERT');

/** `fullPii`: the caller may see phones in full, so part of one finds the expert (lib/pii.ts); otherwise only the whole number. */
function filtersOf(f: ExpertFilter, fullPii: boolean): Filters {
  return [
    isExpert,
    f.keyword ? or(contains([accountsView.code, accountsView.name, expertProfiles.organization], f.keyword), piiSearch(accountsView.phone, f.keyword, fullPii)) : undefined,
    // jsonb containment: the expert covers this track among others.
    f.track ? sql`${expertProfiles.tracks} @> ${JSON.stringify([f.track])}::jsonb` : undefined,
    equals(accountsView.enabled, f.enabled),
  ];
}

/** Expert accounts (realm EXPERT) with their profile (expert_profiles) and organisations (expert_conflicts). */
export function createExpertsRepository(db: Db) {
  const from = (tx: Db = db) =>
    tx
      .select(listColumns)
      .from(accountsView)
      .leftJoin(expertProfiles, eq(expertProfiles.accountId, accountsView.id))
      .leftJoin(expertConflicts, eq(expertConflicts.accountId, accountsView.id));

  const list = createListQuery({
    rows: () => from().$dynamic(),
    count: () => db.select({ n: count() }).from(accountsView).leftJoin(expertProfiles, eq(expertProfiles.accountId, accountsView.id)).$dynamic(),
    sortable: { code: accountsView.code, name: accountsView.name, createdAt: accountsView.createdAt, lastLoginAt: accountsView.lastLoginAt },
    // Newest first; an import's rows share one creation time and keep their codes' order.
    defaultOrder: [
      { column: accountsView.createdAt, order: 'desc' },
      { column: accountsView.code, order: 'asc' },
    ],
    tiebreak: { column: accountsView.id, order: 'asc' },
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

    findById: async (id: string, tx: Db = db): Promise<ExpertDbRow | undefined> => (await from(tx).where(and(isExpert, eq(accountsView.id, id))).limit(1))[0],

    /** Locks the account row for the rest of the transaction (edits and status changes race otherwise). */
    lockById: async (id: string, tx: Db): Promise<ExpertDbRow | undefined> => {
      const [locked] = await tx.select({ id: accountsView.id }).from(accountsView).where(and(isExpert, eq(accountsView.id, id))).for('update').limit(1);
      return locked ? (await from(tx).where(eq(accountsView.id, id)).limit(1))[0] : undefined;
    },

    /** Group name per round of each expert. */
    async groupsOf(ids: readonly string[], tx: Db = db): Promise<Map<string, Partial<Record<ReviewRound, string>>>> {
      const out = new Map<string, Partial<Record<ReviewRound, string>>>();
      if (!ids.length) return out;
      const rows = await tx
        .select({ expertId: reviewGroupExpertsView.expertId, round: reviewGroupExpertsView.round, name: reviewGroupsView.name })
        .from(reviewGroupExpertsView)
        .innerJoin(reviewGroupsView, eq(reviewGroupsView.id, reviewGroupExpertsView.groupId))
        .where(inArray(reviewGroupExpertsView.expertId, [...ids]));
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
        any.push(inArray(accountsView.code, [...input.codes]));
        any.push(and(isExpert, inArray(accountsView.username, input.codes.map((c) => c.toLowerCase())))!);
      }
      if (input.phones.length) any.push(and(isExpert, inArray(accountsView.phone, [...input.phones]))!);
      if (!any.length) return { codes: new Set<string>(), phones: new Set<string>() };
      const rows = await tx
        .select({ code: accountsView.code, username: accountsView.username, phone: accountsView.phone, realm: accountsView.realm })
        .from(accountsView)
        .where(and(or(...any), excludeId ? ne(accountsView.id, excludeId) : undefined));
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
      const rows = await tx.select({ code: accountsView.code }).from(accountsView).where(sql`${accountsView.code} ~ '^E[0-9]+$'`);
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
        .select({ code: dictItemsView.code, name: dictItemsView.name, enabled: dictItemsView.enabled })
        .from(dictItemsView)
        .where(and(eq(dictItemsView.typeCode, TRACK_TYPE), all ? undefined : eq(dictItemsView.enabled, true)))
        .orderBy(asc(dictItemsView.sort), asc(dictItemsView.code));
    },

    /** Inserts the accounts with their profiles; answers their ids in input order. */
    async insertMany(rows: Array<{ input: ExpertWrite; passwordHash: string }>, at: Date, tx: Db): Promise<string[]> {
      const ids: string[] = [];
      // Chunks keep each statement's parameter count well under PostgreSQL's 65535.
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500);
        const inserted = await insertAccounts(
          tx,
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
        );
        // RETURNING follows the VALUES order in PostgreSQL, but match by code to be sure.
        const idOf = new Map(inserted.map((r) => [r.code!, r.id]));
        const chunkIds = chunk.map(({ input }) => idOf.get(input.code)!);
        await insertProfiles(chunk.map(({ input }, k) => ({ id: chunkIds[k]!, input })), tx);
        ids.push(...chunkIds);
      }
      return ids;
    },

    async update(id: string, input: ExpertWrite, at: Date, tx: Db) {
      await updateAccount(tx, id, { code: input.code, username: input.code.toLowerCase(), name: input.name, phone: input.phone, updatedAt: at });
      await tx
        .insert(expertProfiles)
        .values({ accountId: id, organization: input.organization, title: input.title, tracks: input.tracks })
        .onConflictDoUpdate({ target: expertProfiles.accountId, set: { organization: input.organization, title: input.title, tracks: input.tracks } });
      await tx
        .insert(expertConflicts)
        .values({ accountId: id, orgCreditCode: input.orgCreditCode, declaredOrgs: input.declaredOrgs })
        .onConflictDoUpdate({ target: expertConflicts.accountId, set: { orgCreditCode: input.orgCreditCode, declaredOrgs: input.declaredOrgs, updatedAt: at } });
    },

    /** Only the declared organisations (an expert's own declaration: docs/rules/review.md, "Conflicts of interest"). */
    setDeclaredOrgs: async (id: string, declaredOrgs: DeclaredOrg[], at: Date, tx: Db) => {
      await tx
        .insert(expertConflicts)
        .values({ accountId: id, declaredOrgs })
        .onConflictDoUpdate({ target: expertConflicts.accountId, set: { declaredOrgs, updatedAt: at } });
    },

    setEnabled: async (id: string, enabled: boolean, at: Date, tx: Db) => {
      await updateAccount(tx, id, { enabled, updatedAt: at });
    },

    setPassword: async (id: string, passwordHash: string, at: Date, tx: Db) => {
      await updateAccount(tx, id, { passwordHash, passwordChangedAt: at, mustChangePassword: true, updatedAt: at });
    },
  };
}
export type ExpertsRepository = ReturnType<typeof createExpertsRepository>;
