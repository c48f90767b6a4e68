/**
 * Personal data requests (docs/retention.md, "Requests"): a participant downloads everything the
 * portal holds about them (a zip made by a job, their own only, for a week) and asks for deletion;
 * an admin approves or rejects with a reply. An approval anonymises the participant as retention
 * would (a REQUEST run of one person), but waits while their sign-up, review, 公示 or appeal is open.
 */
import type { Readable } from 'node:stream';
import { and, eq, gt, inArray } from 'drizzle-orm';
import {
  DATA_EXPORT_TTL_MS,
  DATA_REQUEST_WAIT_TEXT,
  RETENTION_MSG,
  maskPhone,
  type AdminDataRequestItem,
  type AdminDataRequestsQuery,
  type DataRequestItem,
  type DataRequestWaitReason,
  type MyDataOverview,
  type Page,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { enqueueJob } from '../../lib/jobs.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Storage } from '../../lib/storage/storage.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { finalEntriesView } from '../final-entries/final-entries.read-model.js';
import { notifyEvent } from '../notices/notify.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { appealsView, resultEntriesView, resultVersionsView } from '../results/results.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { buildPlan } from './retention.plan.js';
import {
  expiredExports,
  exportKeysOf,
  insertItems,
  insertRequest,
  insertRun,
  latestRequest,
  listRequests,
  readContestSettings,
  requestById,
  updateRequest,
  updateRun,
  waitingDeletions,
  type DataRequestRow,
} from './retention.repository.js';
import { RETENTION_RUN_JOB } from './retention.service.js';

export const DATA_EXPORT_JOB = 'retention.export';

export function presentRequest(r: DataRequestRow): DataRequestItem {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    reply: r.reply,
    waitReason: (r.waitReason as DataRequestWaitReason | null) ?? null,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    doneAt: r.doneAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    size: r.status === 'READY' ? r.size : null,
    version: r.version,
  };
}

const isOpen = (w: { start: string | null; end: string | null } | null, at: number) =>
  !!w && (w.start === null || Date.parse(w.start) <= at) && (w.end === null || at < Date.parse(w.end));

/**
 * Why the participant's deletion must wait now, most specific first; null when nothing of theirs
 * is open (docs/retention.md, "Deletion requests").
 */
export async function waitReasonFor(db: Db, accountId: string, now: Date): Promise<DataRequestWaitReason | null> {
  const openAppeal = await db
    .select({ id: appealsView.id })
    .from(appealsView)
    .where(and(eq(appealsView.ownerId, accountId), inArray(appealsView.status, ['SUBMITTED', 'ACCEPTED'])))
    .limit(1);
  if (openAppeal.length) return 'APPEAL_OPEN';
  const prelims = await db.select({ id: prelimDocsView.id, status: prelimDocsView.status }).from(prelimDocsView).where(eq(prelimDocsView.ownerId, accountId));
  const prelimIds = prelims.map((p) => p.id);
  if (prelimIds.length) {
    const publicity = await db
      .select({ id: resultVersionsView.id })
      .from(resultEntriesView)
      .innerJoin(resultVersionsView, eq(resultVersionsView.id, resultEntriesView.versionId))
      .where(and(inArray(resultEntriesView.prelimId, prelimIds), eq(resultVersionsView.status, 'PUBLISHED'), gt(resultVersionsView.periodEndsAt, now)))
      .limit(1);
    if (publicity.length) return 'PUBLICITY_OPEN';
  }
  const { phases } = await readContestSettings(db);
  const at = now.getTime();
  if (prelims.some((p) => p.status === 'APPROVED') && isOpen(phases.prelimReview, at)) return 'REVIEW_OPEN';
  if (prelimIds.length && isOpen(phases.finalReview, at)) {
    const finals = await db
      .select({ id: finalEntriesView.prelimId })
      .from(finalEntriesView)
      .where(and(inArray(finalEntriesView.prelimId, prelimIds), eq(finalEntriesView.status, 'IN')))
      .limit(1);
    if (finals.length) return 'REVIEW_OPEN';
  }
  const [team] = await db.select({ status: teamsView.status }).from(teamsView).where(eq(teamsView.ownerId, accountId));
  if (team && (team.status === 'SUBMITTED' || team.status === 'REVISING')) return 'SIGN_UP_OPEN';
  if (prelims.some((p) => p.status === 'SUBMITTED' || p.status === 'REVISING')) return 'SIGN_UP_OPEN';
  return null;
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export function createDataRequestsService(deps: { db: Db; storage: Storage; kick: () => void; now?: () => Date }) {
  const { db, storage } = deps;
  const now = deps.now ?? (() => new Date());

  /** Queues the anonymisation of the request's participant (a REQUEST run of one person), in `tx`. */
  async function startDeletion(tx: Db, request: DataRequestRow, actor: { accountId: string; username: string } | null): Promise<void> {
    const plan = await buildPlan(
      tx,
      new Map([
        ['SIGNUP_FILES', now()],
        ['MATERIAL_FILES', now()],
        ['PARTICIPANT_DATA', now()],
      ]),
      request.accountId,
    );
    const run = await insertRun(tx, {
      source: 'REQUEST',
      status: 'QUEUED',
      dryRun: false,
      requestId: request.id,
      counts: plan.counts,
      samples: plan.samples,
      createdBy: actor?.accountId ?? null,
      createdByName: actor?.username ?? '',
      startedBy: actor?.accountId ?? null,
      startedByName: actor?.username ?? null,
    });
    await insertItems(tx, run.id, plan.items);
    const jobId = await enqueueJob(tx, { kind: RETENTION_RUN_JOB, payload: { runId: run.id }, total: plan.items.length, dedupeKey: `${RETENTION_RUN_JOB}:${run.id}` });
    await updateRun(tx, run.id, { jobId });
  }

  return {
    async mine(accountId: string): Promise<MyDataOverview> {
      const [exp, del] = await Promise.all([latestRequest(db, accountId, 'EXPORT'), latestRequest(db, accountId, 'DELETE')]);
      const expired = exp && exp.status === 'READY' && exp.expiresAt && exp.expiresAt.getTime() <= now().getTime();
      return { export: exp ? presentRequest(expired ? { ...exp, status: 'EXPIRED' } : exp) : null, deletion: del ? presentRequest(del) : null };
    },

    /** 导出我的数据: one export in the making at a time. */
    async requestExport(accountId: string): Promise<DataRequestItem> {
      const row = await db.transaction(async (tx) => {
        const last = await latestRequest(tx, accountId, 'EXPORT');
        if (last?.status === 'QUEUED') throw badRequest(RETENTION_MSG.exportBusy, { reason: 'BUSY' });
        const request = await insertRequest(tx, { accountId, kind: 'EXPORT', status: 'QUEUED' });
        await enqueueJob(tx, { kind: DATA_EXPORT_JOB, payload: { requestId: request.id }, dedupeKey: `${DATA_EXPORT_JOB}:${request.id}` });
        return request;
      });
      deps.kick();
      return presentRequest(row);
    },

    /** The owner's zip, while it lasts; anyone else is told it does not exist. */
    async download(accountId: string, id: string): Promise<{ stream: Readable; size: number; fileName: string }> {
      const row = await requestById(db, id);
      if (!row || row.accountId !== accountId || row.kind !== 'EXPORT') throw notFound(RETENTION_MSG.requestNotFound);
      if (row.status === 'QUEUED' || row.status === 'FAILED') throw badRequest(RETENTION_MSG.exportNotReady, { reason: 'NOT_READY' });
      if (row.status !== 'READY' || !row.storageKey || !row.expiresAt || row.expiresAt.getTime() <= now().getTime()) {
        throw badRequest(RETENTION_MSG.exportExpired, { reason: 'EXPIRED' });
      }
      const stream = await storage.get(row.storageKey);
      if (!stream) throw badRequest(RETENTION_MSG.exportExpired, { reason: 'EXPIRED' });
      const day = new Date(row.createdAt.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
      return { stream, size: row.size ?? 0, fileName: `个人数据-${day}.zip` };
    },

    /** 申请删除: one open deletion request at a time (two sent at once: one is kept). */
    async requestDeletion(accountId: string, reason: string): Promise<DataRequestItem> {
      try {
        const row = await db.transaction(async (tx) => {
          const last = await latestRequest(tx, accountId, 'DELETE');
          if (last && (last.status === 'PENDING' || last.status === 'WAITING')) throw badRequest(RETENTION_MSG.requestPending, { reason: 'PENDING' });
          return insertRequest(tx, { accountId, kind: 'DELETE', status: 'PENDING', reason });
        });
        return presentRequest(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw badRequest(RETENTION_MSG.requestPending, { reason: 'PENDING' });
        throw err;
      }
    },

    async adminList(q: AdminDataRequestsQuery): Promise<Page<AdminDataRequestItem>> {
      const { rows, total } = await listRequests(db, q);
      return {
        list: rows.map(({ request, account }) => ({
          ...presentRequest(request),
          account: { ...account, phone: maskPhone(account.phone) },
          decidedBy: request.decidedByName ?? null,
        })),
        page: q.page,
        size: q.size,
        total,
      };
    },

    /**
     * Approve or reject a PENDING deletion request, at the version the admin saw (two admins at
     * once: the second is told it was decided). An approval starts the anonymisation, or waits
     * (WAITING with the reason) while something of theirs is open; the participant is told either way.
     */
    async decide(actor: OperationActor, id: string, input: { decision: 'APPROVE' | 'REJECT'; reply: string; version: number }): Promise<{ item: DataRequestItem; message: string }> {
      const out = await db.transaction(async (tx) => {
        const row = await requestById(tx, id, { lock: true });
        if (!row || row.kind !== 'DELETE') throw notFound(RETENTION_MSG.requestNotFound);
        if (row.status !== 'PENDING' || row.version !== input.version) throw badRequest(RETENTION_MSG.requestDecided, { reason: 'STALE' });
        const at = now();
        const decided = { reply: input.reply, decidedBy: actor.auth.accountId, decidedByName: actor.auth.username, decidedAt: at };
        if (input.decision === 'REJECT') {
          const next = await updateRequest(tx, id, { ...decided, status: 'REJECTED' });
          await notifyEvent(tx, { code: 'DATA_DELETE_REJECTED', accountIds: [row.accountId], vars: { reason: input.reply }, senderId: actor.auth.accountId });
          await recordOperation(tx, actor, { action: 'data-request:decide', targetType: 'data_request', targetId: id, summary: `驳回个人信息删除申请：${input.reply.slice(0, 200)}` });
          return { item: presentRequest(next), message: RETENTION_MSG.rejected };
        }
        const wait = await waitReasonFor(tx, row.accountId, at);
        if (wait) {
          const next = await updateRequest(tx, id, { ...decided, status: 'WAITING', waitReason: wait });
          await notifyEvent(tx, {
            code: 'DATA_DELETE_WAITING',
            accountIds: [row.accountId],
            vars: { status: DATA_REQUEST_WAIT_TEXT[wait].zh, reason: input.reply },
            senderId: actor.auth.accountId,
          });
          await recordOperation(tx, actor, {
            action: 'data-request:decide',
            targetType: 'data_request',
            targetId: id,
            summary: `批准个人信息删除申请，待流程结束后执行（${DATA_REQUEST_WAIT_TEXT[wait].zh}）`,
          });
          return { item: presentRequest(next), message: `${RETENTION_MSG.approvedWaiting}（${DATA_REQUEST_WAIT_TEXT[wait].zh}）` };
        }
        // Told first, while the phone and e-mail are still there (the outbox keeps this notice; docs/retention.md).
        await notifyEvent(tx, { code: 'DATA_DELETE_APPROVED', accountIds: [row.accountId], vars: { reason: input.reply }, senderId: actor.auth.accountId });
        const next = await updateRequest(tx, id, { ...decided, status: 'WAITING', waitReason: null });
        await startDeletion(tx, next, actor.auth);
        await recordOperation(tx, actor, { action: 'data-request:decide', targetType: 'data_request', targetId: id, summary: '批准个人信息删除申请，开始删除' });
        return { item: presentRequest(next), message: RETENTION_MSG.approved };
      });
      deps.kick();
      return out;
    },

    /**
     * Approved deletions that were waiting: started once nothing of theirs is open, or their reason
     * updated (the scheduled `retention.requests` job).
     */
    async recheckWaiting(): Promise<number> {
      let started = 0;
      for (const row of await waitingDeletions(db, 500)) {
        await db.transaction(async (tx) => {
          const locked = await requestById(tx, row.id, { lock: true });
          if (!locked || locked.status !== 'WAITING' || !locked.waitReason) return;
          const wait = await waitReasonFor(tx, locked.accountId, now());
          if (wait) {
            if (wait !== locked.waitReason) await updateRequest(tx, locked.id, { waitReason: wait });
            return;
          }
          const next = await updateRequest(tx, locked.id, { waitReason: null });
          await startDeletion(tx, next, locked.decidedBy ? { accountId: locked.decidedBy, username: locked.decidedByName ?? '' } : null);
          started++;
        });
      }
      if (started) deps.kick();
      return started;
    },

    /** The export job's work: build, store, mark READY and tell the owner (idempotent). */
    async buildExport(requestId: string, build: (accountId: string) => Promise<{ storageKey: string; size: number }>): Promise<void> {
      const row = await requestById(db, requestId);
      if (!row || row.status !== 'QUEUED') return;
      const { storageKey, size } = await build(row.accountId);
      const previous = await db.transaction(async (tx) => {
        const locked = await requestById(tx, requestId, { lock: true });
        if (!locked || locked.status !== 'QUEUED') return [];
        const at = now();
        await updateRequest(tx, requestId, { status: 'READY', storageKey, size, doneAt: at, expiresAt: new Date(at.getTime() + DATA_EXPORT_TTL_MS) });
        await notifyEvent(tx, { code: 'DATA_EXPORT_READY', accountIds: [row.accountId], vars: {} });
        // One zip per participant: the earlier ones go once this one is recorded.
        const older = (await listOlderExports(tx, row.accountId, requestId)).filter((o) => o.storageKey && o.storageKey !== storageKey);
        for (const o of older) await updateRequest(tx, o.id, { status: o.status === 'READY' ? 'EXPIRED' : o.status, storageKey: null });
        return older.map((o) => o.storageKey!);
      });
      for (const key of previous) await storage.delete(key);
      deps.kick();
    },

    /** Zips past their week: the object goes first, then the row says EXPIRED (a kill between leaves a READY row the download treats as expired). */
    async expireExports(): Promise<number> {
      const rows = await expiredExports(db, now(), 500);
      for (const row of rows) {
        if (row.storageKey) await storage.delete(row.storageKey);
        await db.transaction(async (tx) => {
          await updateRequest(tx, row.id, { status: 'EXPIRED', storageKey: null });
        });
      }
      return rows.length;
    },

    async failExport(requestId: string, err: unknown): Promise<void> {
      await db.transaction(async (tx) => {
        const locked = await requestById(tx, requestId, { lock: true });
        if (!locked || locked.status !== 'QUEUED') return;
        await updateRequest(tx, requestId, { status: 'FAILED', lastError: String(err instanceof Error ? err.message : err).slice(0, 1000) });
      });
    },
  };
}
export type DataRequestsService = ReturnType<typeof createDataRequestsService>;

/** Export requests of the account other than `exceptId` that still have a zip. */
async function listOlderExports(tx: Db, accountId: string, exceptId: string): Promise<DataRequestRow[]> {
  const keys = await exportKeysOf(tx, accountId);
  const rows: DataRequestRow[] = [];
  for (const k of keys) {
    if (k.id === exceptId) continue;
    const row = await requestById(tx, k.id);
    if (row) rows.push(row);
  }
  return rows;
}

