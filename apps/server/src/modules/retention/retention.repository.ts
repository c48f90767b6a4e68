/**
 * The retention module's tables (runs, their items, pseudonyms, personal data requests) and what it
 * reads of the others through their read models (docs/retention.md). Writes to other modules'
 * tables go through their `*.retention.ts` calls (retention.executor.ts).
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { readSettings, type ContestSettings, type DataRequestKind, type DataRequestStatus, type RetentionKind } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { dataRequests, retentionItems, retentionPseudonyms, retentionRuns } from '../../db/schema/retention.js';
import { accountsView, loginRecordsView } from '../auth/auth.read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { settingsView } from '../settings/settings.read-model.js';

export type RetentionRunRow = typeof retentionRuns.$inferSelect;
export type RetentionItemRow = typeof retentionItems.$inferSelect;
export type DataRequestRow = typeof dataRequests.$inferSelect;

/** A planned item before it is stored. */
export interface PlannedItem {
  kind: RetentionKind;
  targetId: string;
  storageKey?: string | null;
}

export async function readContestSettings(db: Db): Promise<ContestSettings> {
  const rows = await db.select({ key: settingsView.key, value: settingsView.value }).from(settingsView);
  return readSettings(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

// ---- Candidates of a plan (read models) --------------------------------------------------------------

export async function filesOfOrigin(db: Db, origin: 'TEAM' | 'PRELIM', ownerId: string | null, limit: number) {
  return db
    .select({ id: attachmentsView.id, storageKey: attachmentsView.storageKey, name: attachmentsView.originalName, createdAt: attachmentsView.createdAt })
    .from(attachmentsView)
    .where(and(eq(attachmentsView.origin, origin), ownerId ? eq(attachmentsView.ownerId, ownerId) : undefined))
    .orderBy(asc(attachmentsView.id))
    .limit(limit);
}

/** Whether another attachment row still points at a storage key (then the object stays). */
export async function storageKeyInUse(db: Db, storageKey: string): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(attachmentsView).where(eq(attachmentsView.storageKey, storageKey));
  return (row?.n ?? 0) > 0;
}

/** People of a realm not anonymised yet, in id order (random: the pseudonyms' order says nothing of sign-up order). */
export async function peopleToAnonymise(db: Db, realm: 'USER' | 'EXPERT', accountId: string | null, limit: number) {
  return db
    .select({ id: accountsView.id, name: accountsView.name, phone: accountsView.phone, createdAt: accountsView.createdAt })
    .from(accountsView)
    .leftJoin(retentionPseudonyms, eq(retentionPseudonyms.accountId, accountsView.id))
    .where(and(eq(accountsView.realm, realm), isNull(retentionPseudonyms.anonymisedAt), accountId ? eq(accountsView.id, accountId) : undefined))
    .orderBy(asc(accountsView.id))
    .limit(limit);
}

export async function loginRecordsBefore(db: Db, cutoff: Date, limit: number) {
  return db
    .select({ id: loginRecordsView.id, identifier: loginRecordsView.identifier, createdAt: loginRecordsView.createdAt })
    .from(loginRecordsView)
    .where(lt(loginRecordsView.createdAt, cutoff))
    .orderBy(asc(loginRecordsView.createdAt), asc(loginRecordsView.id))
    .limit(limit);
}

export async function accountOf(db: Db, id: string) {
  const [row] = await db
    .select({ id: accountsView.id, realm: accountsView.realm, username: accountsView.username, name: accountsView.name, phone: accountsView.phone })
    .from(accountsView)
    .where(eq(accountsView.id, id));
  return row ?? null;
}

// ---- Runs and items -----------------------------------------------------------------------------------

const ITEM_CHUNK = 1000;

export async function insertRun(tx: Db, values: typeof retentionRuns.$inferInsert): Promise<RetentionRunRow> {
  const [row] = await tx.insert(retentionRuns).values(values).returning();
  return row!;
}

export async function insertItems(tx: Db, runId: string, items: readonly PlannedItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += ITEM_CHUNK) {
    await tx.insert(retentionItems).values(items.slice(i, i + ITEM_CHUNK).map((it) => ({ runId, kind: it.kind, targetId: it.targetId, storageKey: it.storageKey ?? null })));
  }
}

export async function runById(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<RetentionRunRow | null> {
  const q = db.select().from(retentionRuns).where(eq(retentionRuns.id, id));
  const [row] = opts.lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function updateRun(tx: Db, id: string, patch: Partial<typeof retentionRuns.$inferInsert>): Promise<void> {
  await tx.update(retentionRuns).set(patch).where(eq(retentionRuns.id, id));
}

/** Earlier periodic plans never executed: superseded by a new dry run (kept in the history as DISCARDED). */
export async function discardPlanned(tx: Db): Promise<void> {
  await tx
    .update(retentionRuns)
    .set({ status: 'DISCARDED' })
    .where(and(eq(retentionRuns.source, 'RETENTION'), eq(retentionRuns.status, 'PLANNED')));
}

export async function activeRetentionRun(db: Db): Promise<RetentionRunRow | null> {
  const [row] = await db
    .select()
    .from(retentionRuns)
    .where(and(eq(retentionRuns.source, 'RETENTION'), inArray(retentionRuns.status, ['QUEUED', 'RUNNING'])))
    .limit(1);
  return row ?? null;
}

export async function listRuns(db: Db, page: number, size: number): Promise<{ rows: RetentionRunRow[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(retentionRuns)
      .orderBy(desc(retentionRuns.createdAt), desc(retentionRuns.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(retentionRuns),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Items per kind and state of some runs (what the history shows as done and skipped). */
export async function itemTally(db: Db, runIds: readonly string[]): Promise<Array<{ runId: string; kind: string; state: string; n: number }>> {
  if (runIds.length === 0) return [];
  return db
    .select({ runId: retentionItems.runId, kind: retentionItems.kind, state: retentionItems.state, n: count() })
    .from(retentionItems)
    .where(inArray(retentionItems.runId, [...runIds]))
    .groupBy(retentionItems.runId, retentionItems.kind, retentionItems.state);
}

export async function itemsInState(db: Db, runId: string, state: 'PENDING' | 'MARKED', limit: number): Promise<RetentionItemRow[]> {
  return db
    .select()
    .from(retentionItems)
    .where(and(eq(retentionItems.runId, runId), eq(retentionItems.state, state)))
    .orderBy(asc(retentionItems.seq))
    .limit(limit);
}

export async function allItems(db: Db, runId: string): Promise<Array<{ kind: string; targetId: string; state: string }>> {
  return db
    .select({ kind: retentionItems.kind, targetId: retentionItems.targetId, state: retentionItems.state })
    .from(retentionItems)
    .where(eq(retentionItems.runId, runId))
    .orderBy(asc(retentionItems.seq));
}

/** Moves one item on, only from the state the caller saw (a resumed run never does an item twice). */
export async function setItemState(tx: Db, seq: number, from: RetentionItemRow['state'], to: RetentionItemRow['state'], storageKey?: string | null): Promise<boolean> {
  const rows = await tx
    .update(retentionItems)
    .set({ state: to, doneAt: new Date(), ...(storageKey !== undefined ? { storageKey } : {}) })
    .where(and(eq(retentionItems.seq, seq), eq(retentionItems.state, from)))
    .returning({ seq: retentionItems.seq });
  return rows.length === 1;
}

// ---- Pseudonyms ---------------------------------------------------------------------------------------

/**
 * The person's pseudonym number, drawn on first use: the next number of the realm, under an
 * advisory lock so two runs never draw the same one.
 */
export async function pseudonymNo(tx: Db, accountId: string, realm: 'USER' | 'EXPERT'): Promise<number> {
  const [found] = await tx.select({ no: retentionPseudonyms.no }).from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, accountId));
  if (found) return found.no;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('retention_pseudonyms'))`);
  const [again] = await tx.select({ no: retentionPseudonyms.no }).from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, accountId));
  if (again) return again.no;
  const [max] = await tx.select({ no: sql<number>`coalesce(max(${retentionPseudonyms.no}), 0)` }).from(retentionPseudonyms).where(eq(retentionPseudonyms.realm, realm));
  const no = Number(max?.no ?? 0) + 1;
  await tx.insert(retentionPseudonyms).values({ accountId, realm, no });
  return no;
}

export async function markAnonymised(tx: Db, accountId: string, at: Date): Promise<void> {
  await tx.update(retentionPseudonyms).set({ anonymisedAt: at }).where(eq(retentionPseudonyms.accountId, accountId));
}

export async function isAnonymised(db: Db, accountId: string): Promise<boolean> {
  const [row] = await db.select({ at: retentionPseudonyms.anonymisedAt }).from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, accountId));
  return !!row?.at;
}

// ---- Personal data requests ----------------------------------------------------------------------------

export async function insertRequest(tx: Db, values: typeof dataRequests.$inferInsert): Promise<DataRequestRow> {
  const [row] = await tx.insert(dataRequests).values(values).returning();
  return row!;
}

export async function requestById(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<DataRequestRow | null> {
  const q = db.select().from(dataRequests).where(eq(dataRequests.id, id));
  const [row] = opts.lock ? await q.for('update') : await q;
  return row ?? null;
}

export async function updateRequest(tx: Db, id: string, patch: Partial<typeof dataRequests.$inferInsert>): Promise<DataRequestRow> {
  const [row] = await tx
    .update(dataRequests)
    .set({ ...patch, updatedAt: new Date(), version: sql`${dataRequests.version} + 1` })
    .where(eq(dataRequests.id, id))
    .returning();
  return row!;
}

export async function latestRequest(db: Db, accountId: string, kind: DataRequestKind): Promise<DataRequestRow | null> {
  const [row] = await db
    .select()
    .from(dataRequests)
    .where(and(eq(dataRequests.accountId, accountId), eq(dataRequests.kind, kind)))
    .orderBy(desc(dataRequests.createdAt), desc(dataRequests.id))
    .limit(1);
  return row ?? null;
}

/** The account's export zips still in the store (READY, or FAILED/EXPIRED ones whose object was not removed). */
export async function exportKeysOf(db: Db, accountId: string): Promise<Array<{ id: string; storageKey: string }>> {
  const rows = await db
    .select({ id: dataRequests.id, storageKey: dataRequests.storageKey })
    .from(dataRequests)
    .where(and(eq(dataRequests.accountId, accountId), eq(dataRequests.kind, 'EXPORT'), isNotNull(dataRequests.storageKey)));
  return rows.map((r) => ({ id: r.id, storageKey: r.storageKey! }));
}

export async function forgetExportKeys(tx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(dataRequests)
    .set({ storageKey: null, status: sql`case when ${dataRequests.status} = 'READY' then 'EXPIRED' else ${dataRequests.status} end`, updatedAt: new Date() })
    .where(inArray(dataRequests.id, [...ids]));
}

export async function expiredExports(db: Db, now: Date, limit: number): Promise<DataRequestRow[]> {
  return db
    .select()
    .from(dataRequests)
    .where(and(eq(dataRequests.kind, 'EXPORT'), eq(dataRequests.status, 'READY'), lt(dataRequests.expiresAt, now)))
    .limit(limit);
}

export async function waitingDeletions(db: Db, limit: number): Promise<DataRequestRow[]> {
  return db
    .select()
    .from(dataRequests)
    .where(and(eq(dataRequests.kind, 'DELETE'), eq(dataRequests.status, 'WAITING'), isNotNull(dataRequests.waitReason)))
    .orderBy(asc(dataRequests.createdAt))
    .limit(limit);
}

export async function listRequests(db: Db, q: { page: number; size: number; status?: DataRequestStatus; kind?: DataRequestKind }) {
  const where = and(q.status ? eq(dataRequests.status, q.status) : undefined, q.kind ? eq(dataRequests.kind, q.kind) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select({ request: dataRequests, account: { id: accountsView.id, username: accountsView.username, name: accountsView.name, phone: accountsView.phone } })
      .from(dataRequests)
      .innerJoin(accountsView, eq(accountsView.id, dataRequests.accountId))
      .where(where)
      .orderBy(desc(dataRequests.createdAt), desc(dataRequests.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ n: count() }).from(dataRequests).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
