/**
 * Executes a stored plan (docs/retention.md, "Crash safety"). Items go in small batches, each
 * batch one transaction that changes the data and marks its items, so a kill loses at most the
 * batch in flight (rolled back, done again on resume) and never does an item twice:
 *
 * - a record or a person: the change and the item's DONE commit together;
 * - a file: its row goes and the item is MARKED (the storage key kept on it) in one transaction;
 *   only after that commit is the object removed from the store, then the item is DONE. A kill in
 *   between leaves a MARKED item, whose object the resumed run removes (removing a missing
 *   object is no error) before anything else.
 *
 * The job (`retention.run`) calls `executeRun` again after a kill; it picks up PENDING and MARKED
 * items where they were.
 */
import { RETENTION_KIND_LABELS, pseudonymOf, type RetentionKind } from '@contest/shared';
import type { Db } from '../../db/client.js';
import type { JobHandler } from '../../lib/jobs.js';
import type { Storage } from '../../lib/storage/storage.js';
import { recordOperation } from '../audit/operation-log.js';
import { anonymiseOperationActor, deleteOperationRecords } from '../audit/audit.retention.js';
import { anonymiseAccount, deleteLoginRecords } from '../auth/auth.retention.js';
import { anonymiseCertificateHolders } from '../certificates/certificates.retention.js';
import { anonymiseExpertProfile } from '../experts/experts.retention.js';
import { anonymiseFeedbackOf } from '../feedback/feedback.retention.js';
import { removeAttachmentRows } from '../files/files.retention.js';
import { anonymiseOutboxOf } from '../notices/notices.retention.js';
import { anonymiseScoreLogActor } from '../score-log/score-log.retention.js';
import { anonymiseTeamOf } from '../team/team.retention.js';
import {
  exportKeysOf,
  forgetExportKeys,
  itemTally,
  itemsInState,
  markAnonymised,
  pseudonymNo,
  runById,
  setItemState,
  storageKeyInUse,
  updateRun,
  updateRequest,
  type RetentionItemRow,
} from './retention.repository.js';

/**
 * Another module's part of anonymising a person, in the person's transaction (certificates'
 * holder names, docs/retention.md "Certificates"). Must be idempotent.
 */
export type PersonAnonymiser = (tx: Db, person: { accountId: string; realm: 'USER' | 'EXPERT'; alias: string }) => Promise<unknown>;

export interface ExecutorDeps {
  db: Db;
  storage: Pick<Storage, 'delete'>;
  anonymisers: readonly PersonAnonymiser[];
  /** Items per transaction (default 50). */
  batchSize?: number;
  now?: () => Date;
  /**
   * Called after each commit with what has been committed so far: `marked` after a batch (files'
   * rows gone, objects not yet), `done` after objects were removed. Tests throw from it to
   * simulate a kill at that point.
   */
  checkpoint?: (stage: 'marked' | 'done', itemsCommitted: number) => void | Promise<void>;
}

export interface ExecuteContext {
  progress?: (done: number, total?: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Several objects of one item (a person's zips and certificate PDFs) in its storage key column. */
const KEY_SEPARATOR = '\n';

const FILE_KINDS: ReadonlySet<string> = new Set<RetentionKind>(['MATERIAL_FILES', 'SIGNUP_FILES']);
const PEOPLE: Readonly<Record<string, 'USER' | 'EXPERT'>> = { PARTICIPANT_DATA: 'USER', EXPERT_DATA: 'EXPERT' };

/**
 * Anonymises one person inside `tx` (docs/retention.md, "What goes"); false when the account is
 * gone. Answers the stored objects to remove after the commit: their export zips and the PDFs of
 * their certificates (printed with the full names; docs/certificates.md, "Retention").
 */
async function anonymisePerson(tx: Db, deps: ExecutorDeps, accountId: string, realm: 'USER' | 'EXPERT', at: Date): Promise<{ ok: boolean; objectKeys: string[] }> {
  const alias = pseudonymOf(realm, await pseudonymNo(tx, accountId, realm));
  const before = await anonymiseAccount(tx, accountId, alias);
  if (!before) return { ok: false, objectKeys: [] };
  const team = realm === 'USER' ? await anonymiseTeamOf(tx, accountId, alias) : null;
  if (realm === 'EXPERT') await anonymiseExpertProfile(tx, accountId);
  const certificates = await anonymiseCertificateHolders(tx, realm === 'USER' ? { teamIds: team ? [team.teamId] : [] } : { expertIds: [accountId] });
  await anonymiseOperationActor(tx, accountId, alias, [before.name, before.username, before.phone, ...(team?.names ?? [])]);
  await anonymiseScoreLogActor(tx, accountId, alias);
  await anonymiseOutboxOf(tx, accountId);
  if (realm === 'USER') await anonymiseFeedbackOf(tx, accountId);
  for (const hook of deps.anonymisers) await hook(tx, { accountId, realm, alias });
  // Their export zips hold everything: forgotten here, removed from the store after the commit.
  const exports = await exportKeysOf(tx, accountId);
  await forgetExportKeys(
    tx,
    exports.map((e) => e.id),
  );
  await markAnonymised(tx, accountId, at);
  const pdfs = certificates.storageKeys.filter((k): k is string => !!k);
  return { ok: true, objectKeys: [...exports.map((e) => e.storageKey), ...pdfs] };
}

/**
 * One batch in one transaction: each item's change and its new state. Answers the objects to
 * remove once committed (item seq -> storage keys).
 */
async function runBatch(deps: ExecutorDeps, items: RetentionItemRow[], at: Date): Promise<Map<number, string[]>> {
  return deps.db.transaction(async (tx) => {
    const objects = new Map<number, string[]>();
    const byKind = (kind: string) => items.filter((i) => i.kind === kind);
    // Records: one statement per kind for the whole batch.
    for (const [kind, remove] of [
      ['LOGIN_RECORDS', deleteLoginRecords],
      ['OPERATION_RECORDS', deleteOperationRecords],
    ] as const) {
      const list = byKind(kind);
      if (list.length === 0) continue;
      const gone = new Set(await remove(tx, list.map((i) => i.targetId)));
      for (const item of list) await setItemState(tx, item.seq, 'PENDING', gone.has(item.targetId) ? 'DONE' : 'SKIPPED');
    }
    for (const item of items) {
      if (FILE_KINDS.has(item.kind)) {
        const [row] = await removeAttachmentRows(tx, [item.targetId]);
        if (!row) {
          await setItemState(tx, item.seq, 'PENDING', 'SKIPPED');
          continue;
        }
        // Never remove an object another row still points at (keys are per upload; a guard all the same).
        if (await storageKeyInUse(tx, row.storageKey)) {
          await setItemState(tx, item.seq, 'PENDING', 'DONE', row.storageKey);
          continue;
        }
        await setItemState(tx, item.seq, 'PENDING', 'MARKED', row.storageKey);
        objects.set(item.seq, [row.storageKey]);
      } else if (PEOPLE[item.kind]) {
        const { ok, objectKeys } = await anonymisePerson(tx, deps, item.targetId, PEOPLE[item.kind]!, at);
        if (!ok) {
          await setItemState(tx, item.seq, 'PENDING', 'SKIPPED');
        } else if (objectKeys.length > 0) {
          // The keys wait on the item like a file's (one per line: keys hold no line breaks).
          await setItemState(tx, item.seq, 'PENDING', 'MARKED', objectKeys.join(KEY_SEPARATOR));
          objects.set(item.seq, objectKeys);
        } else {
          await setItemState(tx, item.seq, 'PENDING', 'DONE');
        }
      }
    }
    return objects;
  });
}

/** Removes the objects of MARKED items, then marks them DONE (one short transaction each). */
async function finishMarked(deps: ExecutorDeps, items: ReadonlyArray<{ seq: number; keys: string[] }>): Promise<void> {
  for (const { seq, keys } of items) {
    for (const key of keys) await deps.storage.delete(key);
    await deps.db.transaction(async (tx) => {
      await setItemState(tx, seq, 'MARKED', 'DONE');
    });
  }
}

/** Done and skipped items per kind of a run, from its items. */
export async function tallyOf(db: Db, runId: string): Promise<{ done: Record<string, number>; skipped: number; left: number }> {
  const done: Record<string, number> = {};
  let skipped = 0;
  let left = 0;
  for (const row of await itemTally(db, [runId])) {
    if (row.state === 'DONE') done[row.kind] = (done[row.kind] ?? 0) + row.n;
    else if (row.state === 'SKIPPED') skipped += row.n;
    else left += row.n;
  }
  return { done, skipped, left };
}

/**
 * Runs (or resumes) a QUEUED/RUNNING run to its end. Idempotent: a DONE run is left alone.
 */
export async function executeRun(deps: ExecutorDeps, runId: string, ctx: ExecuteContext = {}): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? 50;
  const run = await runById(deps.db, runId);
  if (!run || run.status === 'DONE' || run.status === 'DISCARDED' || run.status === 'PLANNED') return;
  if (run.status !== 'RUNNING') await deps.db.transaction(async (tx) => updateRun(tx, runId, { status: 'RUNNING', startedAt: run.startedAt ?? now(), lastError: null }));
  const total = Object.values(run.counts).reduce((a, b) => a + b, 0);
  let committed = 0;

  // A kill after a batch's commit: its files' rows are gone, their objects maybe not.
  for (;;) {
    const marked = await itemsInState(deps.db, runId, 'MARKED', batchSize);
    if (marked.length === 0) break;
    await finishMarked(
      deps,
      marked.map((m) => ({ seq: m.seq, keys: m.storageKey ? m.storageKey.split(KEY_SEPARATOR) : [] })),
    );
  }
  for (;;) {
    if (ctx.signal?.aborted) throw ctx.signal.reason ?? new Error('aborted');
    const batch = await itemsInState(deps.db, runId, 'PENDING', batchSize);
    if (batch.length === 0) break;
    const objects = await runBatch(deps, batch, now());
    committed += batch.length;
    await deps.checkpoint?.('marked', committed);
    await finishMarked(
      deps,
      [...objects].map(([seq, keys]) => ({ seq, keys })),
    );
    await deps.checkpoint?.('done', committed);
    const tally = await tallyOf(deps.db, runId);
    await ctx.progress?.(total - tally.left, total);
  }

  const tally = await tallyOf(deps.db, runId);
  await deps.db.transaction(async (tx) => {
    const at = now();
    await updateRun(tx, runId, { status: 'DONE', finishedAt: at, done: tally.done, skipped: tally.skipped });
    const summary = Object.entries(tally.done)
      .map(([k, n]) => `${RETENTION_KIND_LABELS[k as RetentionKind] ?? k} ${n}`)
      .join('，');
    if (run.source === 'REQUEST' && run.requestId) {
      await updateRequest(tx, run.requestId, { status: 'DONE', doneAt: at, waitReason: null });
    }
    if (run.startedBy) {
      await recordOperation(tx, { auth: { accountId: run.startedBy, realm: 'ADMIN', username: run.startedByName ?? '' } }, {
        action: run.source === 'REQUEST' ? 'data-request:decide' : 'retention:run',
        targetType: 'retention_run',
        targetId: runId,
        summary: `数据保留任务完成：${summary || '无'}${tally.skipped ? `；跳过 ${tally.skipped} 项（已不存在）` : ''}`,
      });
    }
  });
}

/** Records why a run stopped (the job retries it; the history shows the last error meanwhile). */
export async function noteRunError(db: Db, runId: string, err: unknown): Promise<void> {
  const message = String(err instanceof Error ? err.message : err).slice(0, 1000);
  await db.transaction(async (tx) => updateRun(tx, runId, { lastError: message }));
}

export async function failRun(db: Db, runId: string, err: unknown): Promise<void> {
  const message = String(err instanceof Error ? err.message : err).slice(0, 1000);
  await db.transaction(async (tx) => updateRun(tx, runId, { status: 'FAILED', lastError: message, finishedAt: new Date() }));
}

/** Attempts of a retention run before it is marked FAILED (each failed attempt is noted on the run). */
export const RUN_MAX_ATTEMPTS = 5;

/**
 * The `retention.run` job (docs/retention.md, "Crash safety"): executes the run's plan; a failed
 * attempt is noted on the run, the last one marks it FAILED. Registered by retention.module.ts and
 * by the kill -9 test's worker process, so both run the same code.
 */
export function retentionRunJob(deps: ExecutorDeps): JobHandler {
  return async (job, ctx) => {
    const runId = String(job.payload.runId);
    try {
      await executeRun(deps, runId, ctx);
    } catch (err) {
      if (job.attempts >= RUN_MAX_ATTEMPTS) await failRun(deps.db, runId, err);
      else await noteRunError(deps.db, runId, err);
      throw err;
    }
  };
}
