import { CONTEST_MSG, stepOf, transitionOf, type BatchResult, type BatchRowResult, type WorkflowDef } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { statusHistory } from '../../db/schema/workflow.js';
import { accountsView } from '../auth/auth.read-model.js';
import { eq } from 'drizzle-orm';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor, type OperationEntry } from '../audit/operation-log.js';
import { notifyEvent, type EventNotice } from '../notices/notify.js';

/**
 * The notice of a change to the record's owner: an event of the template catalogue and its
 * variables (never texts), sent by notifyEvent on every channel its template and the settings
 * allow. `sms` / `email` override the settings (demo data passes false).
 */
export interface Notice extends Pick<EventNotice, 'code' | 'vars' | 'sms' | 'email'> {
  ownerId: string;
}

export interface RecordInput<S extends string> {
  workflow: WorkflowDef<S, string>;
  subjectId: string;
  from: S | null;
  to: S;
  /** What the history shows as the starting state when it differs (materials: NOT_FILLED for no row). */
  historyFrom?: string | null;
  reason?: string | null;
  actor: OperationActor;
  notice?: Notice;
  operation?: OperationEntry;
  /** When it happened (demo data replays a past); now by default. */
  at?: Date;
  /** The name the history shows when the actor's account has none (a team's appeal: the team's name). */
  actorName?: string;
}

/** One record's step of a batch written by `recordMany` (a version's result lines, resolved appeals). */
export interface BatchStep<S extends string> {
  subjectId: string;
  from: S | null;
  to: S;
  reason?: string | null;
}

export interface RecordManyInput<S extends string> {
  workflow: WorkflowDef<S, string>;
  actor: OperationActor;
  steps: readonly BatchStep<S>[];
  at?: Date;
  /** Also a history row for a step that keeps its state (a result line whose rank or score moved). */
  keepSame?: boolean;
}

export interface TransitionInput<S extends string, A extends string, R extends { status: S; version: number }> {
  workflow: WorkflowDef<S, A>;
  action: A;
  actor: OperationActor;
  reason?: string | null;
  /** The version the caller saw; a different current version is refused as STALE. */
  expectedVersion?: number;
  notFoundMessage: string;
  /** Reads the record FOR UPDATE inside the transaction. */
  lock(tx: Db): Promise<R | undefined>;
  /** Extra checks on the locked record (400 with its message to refuse). */
  guard?(row: R): void;
  /** Writes the new state; must raise `version`. */
  apply(tx: Db, row: R, to: S, at: Date): Promise<R>;
  subjectId(row: R): string;
  notice?(row: R, to: S): Notice | undefined;
  operation?(row: R, to: S): OperationEntry | undefined;
}

/**
 * The one place where contest records change state (docs/architecture.md, "Workflow core").
 * `transition` locks the record, refuses what the workflow does not allow (400 with the state's
 * message, data.reason NOT_ALLOWED) or a record changed since the caller read it (400 已被他人处理,
 * data.reason STALE), writes the new state, and in the same transaction the history row, the
 * operation record and the owner's notice (notifyEvent: in-site, SMS and email through the outbox;
 * the caller kicks the outbox after the commit).
 */
export function createWorkflowService({ now = () => new Date() }: { now?: () => Date } = {}) {
  async function actorNameOf(tx: Db, actor: OperationActor, fallback = actor.auth.username): Promise<string> {
    const [account] = await tx.select({ name: accountsView.name }).from(accountsView).where(eq(accountsView.id, actor.auth.accountId)).limit(1);
    return account?.name || fallback;
  }

  async function record<S extends string>(tx: Db, input: RecordInput<S>): Promise<void> {
    const at = input.at ?? now();
    if (input.from !== input.to) {
      await tx.insert(statusHistory).values({
        subjectType: input.workflow.subject,
        subjectId: input.subjectId,
        fromStatus: input.historyFrom !== undefined && input.from === null ? input.historyFrom : input.from,
        toStatus: input.to,
        reason: input.reason ?? null,
        actorId: input.actor.auth.accountId,
        actorRealm: input.actor.auth.realm,
        actorName: await actorNameOf(tx, input.actor, input.actorName),
        createdAt: at,
      });
    }
    if (input.notice) {
      const { ownerId, ...notice } = input.notice;
      await notifyEvent(tx, { ...notice, accountIds: [ownerId], senderId: input.actor.auth.realm === 'USER' ? null : input.actor.auth.accountId });
    }
    if (input.operation && input.actor.auth.realm !== 'USER') await recordOperation(tx, input.actor, input.operation);
  }

  /**
   * The history rows of many records changed by one act (a published version), inserted in
   * batches of 500; the act's operation record and notices are the caller's (one for the act).
   */
  async function recordMany<S extends string>(tx: Db, input: RecordManyInput<S>): Promise<void> {
    const steps = input.steps.filter((x) => input.keepSame || x.from !== x.to);
    if (!steps.length) return;
    const at = input.at ?? now();
    const actorName = await actorNameOf(tx, input.actor);
    const rows = steps.map((x) => ({
      subjectType: input.workflow.subject,
      subjectId: x.subjectId,
      fromStatus: x.from,
      toStatus: x.to,
      reason: x.reason ?? null,
      actorId: input.actor.auth.accountId,
      actorRealm: input.actor.auth.realm,
      actorName,
      createdAt: at,
    }));
    for (let i = 0; i < rows.length; i += 500) await tx.insert(statusHistory).values(rows.slice(i, i + 500));
  }

  return {
    now,
    record,
    recordMany,

    /** The step a caller may take now, or the 400/403 refusing it. */
    check<S extends string, A extends string>(workflow: WorkflowDef<S, A>, action: A, from: S | null, actor: OperationActor, reason?: string | null): S {
      const step = stepOf(workflow, action, from, actor.auth.realm);
      if (!step.ok) {
        if (step.reason === 'FORBIDDEN') throw forbidden();
        throw badRequest(step.message, { reason: 'NOT_ALLOWED', status: from });
      }
      if (transitionOf(workflow, action, from)?.reasonRequired && !reason?.trim()) throw badRequest(CONTEST_MSG.reasonRequired, { field: 'reason' });
      return step.to;
    },

    async transition<S extends string, A extends string, R extends { status: S; version: number }>(
      tx: Db,
      input: TransitionInput<S, A, R>,
    ): Promise<{ row: R; from: S; to: S }> {
      const row = await input.lock(tx);
      if (!row) throw notFound(input.notFoundMessage);
      if (input.expectedVersion !== undefined && row.version !== input.expectedVersion) {
        throw badRequest(CONTEST_MSG.stale, { reason: 'STALE', status: row.status, version: row.version });
      }
      const to = this.check(input.workflow, input.action, row.status, input.actor, input.reason);
      input.guard?.(row);
      const updated = await input.apply(tx, row, to, now());
      await record(tx, {
        workflow: input.workflow,
        subjectId: input.subjectId(row),
        from: row.status,
        to,
        reason: input.reason ?? null,
        actor: input.actor,
        notice: input.notice?.(row, to),
        operation: input.operation?.(row, to),
      });
      return { row: updated, from: row.status, to };
    },
  };
}
export type WorkflowService = ReturnType<typeof createWorkflowService>;

/**
 * A batch of decisions, per row (docs/decisions.md): each row goes through `decide` in its own
 * transaction; a refused row is reported with its stable reason and message, the others proceed.
 * Duplicated ids are decided once.
 */
export async function decideEach<R>(
  items: ReadonlyArray<{ id: string; version: number }>,
  decide: (item: { id: string; version: number }) => Promise<R>,
  describe: (row: R) => { status: string; name: string },
): Promise<BatchResult> {
  const results: BatchRowResult[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    try {
      results.push({ id: item.id, ok: true, ...describe(await decide(item)) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const data = (err.data ?? {}) as { reason?: BatchRowResult['reason']; status?: string };
      results.push({ id: item.id, ok: false, reason: err.code === 'NOT_FOUND' ? 'NOT_FOUND' : (data.reason ?? 'NOT_ALLOWED'), message: err.message, status: data.status });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}
