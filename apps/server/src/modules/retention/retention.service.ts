/**
 * 数据保留 (docs/retention.md): the periods and due dates, a dry run that stores its plan, the
 * real run of exactly that plan as a durable job, and the history of runs.
 */
import { sql } from 'drizzle-orm';
import { RETENTION_KIND_LABELS, RETENTION_MSG, RETENTION_PLAN_TTL_MS, type Page, type RetentionKind, type RetentionOverview, type RetentionRunItem, type RetentionRunsQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { enqueueJob } from '../../lib/jobs.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { tallyOf } from './retention.executor.js';
import { buildPlan, contestEndOf, cutoffOf, kindStates } from './retention.plan.js';
import {
  activeRetentionRun,
  discardPlanned,
  insertItems,
  insertRun,
  itemTally,
  listRuns,
  readContestSettings,
  runById,
  updateRun,
  type RetentionRunRow,
} from './retention.repository.js';

export const RETENTION_RUN_JOB = 'retention.run';

/** Serialises plan/execute decisions of periodic runs (two admins at once: one at a time). */
const RUN_LOCK = sql`select pg_advisory_xact_lock(hashtext('retention_runs'))`;

export function presentRun(row: RetentionRunRow, live?: { done: Record<string, number>; skipped: number }): RetentionRunItem {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    dryRun: row.dryRun,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    startedBy: row.startedByName ?? null,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    counts: row.counts as RetentionRunItem['counts'],
    done: (live?.done ?? row.done) as RetentionRunItem['done'],
    skipped: live?.skipped ?? row.skipped,
    samples: row.samples as RetentionRunItem['samples'],
    lastError: row.lastError,
  };
}

export function createRetentionService(deps: { db: Db; kick: () => void; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Done counts of unfinished runs come from their items (the stored ones are written at the end). */
  async function present(rows: RetentionRunRow[]): Promise<RetentionRunItem[]> {
    const live = rows.filter((r) => r.status === 'QUEUED' || r.status === 'RUNNING' || r.status === 'FAILED');
    const tally = await itemTally(
      db,
      live.map((r) => r.id),
    );
    return rows.map((row) => {
      if (!live.includes(row)) return presentRun(row);
      const done: Record<string, number> = {};
      let skipped = 0;
      for (const t of tally.filter((x) => x.runId === row.id)) {
        if (t.state === 'DONE') done[t.kind] = (done[t.kind] ?? 0) + t.n;
        if (t.state === 'SKIPPED') skipped += t.n;
      }
      return presentRun(row, { done, skipped });
    });
  }

  return {
    async overview(): Promise<RetentionOverview> {
      const settings = await readContestSettings(db);
      const end = contestEndOf(settings);
      const active = await activeRetentionRun(db);
      return {
        contestEndsAt: end?.toISOString() ?? null,
        kinds: kindStates(settings, now()),
        active: active ? (await present([active]))[0]! : null,
      };
    },

    /**
     * 预演: the due kinds' items, stored as a PLANNED run (earlier unexecuted plans are discarded),
     * with counts and a masked sample. Nothing else is written.
     */
    async dryRun(actor: OperationActor): Promise<RetentionRunItem> {
      const at = now();
      const settings = await readContestSettings(db);
      if (!contestEndOf(settings)) throw badRequest(RETENTION_MSG.contestNotEnded, { reason: 'CONTEST_NOT_ENDED' });
      const due = new Map<RetentionKind, Date>();
      for (const k of kindStates(settings, at)) if (k.due) due.set(k.kind, cutoffOf(k.kind, k.days, at));
      if (due.size === 0) throw badRequest(RETENTION_MSG.nothingDue, { reason: 'NOTHING_DUE' });
      const row = await db.transaction(async (tx) => {
        await tx.execute(RUN_LOCK);
        // Read inside the lock: a plan is one consistent picture.
        const plan = await buildPlan(tx, due);
        await discardPlanned(tx);
        const run = await insertRun(tx, {
          source: 'RETENTION',
          status: 'PLANNED',
          dryRun: true,
          cutoffs: Object.fromEntries([...due].map(([k, d]) => [k, d.toISOString()])),
          counts: plan.counts,
          samples: plan.samples,
          createdBy: actor.auth.accountId,
          createdByName: actor.auth.username,
          createdAt: at,
        });
        await insertItems(tx, run.id, plan.items);
        await recordOperation(tx, actor, {
          action: 'retention:plan',
          targetType: 'retention_run',
          targetId: run.id,
          summary: `数据保留预演：${Object.entries(plan.counts)
            .map(([k, n]) => `${RETENTION_KIND_LABELS[k as RetentionKind]} ${n}`)
            .join('，')}`,
        });
        return run;
      });
      return presentRun(row);
    },

    /**
     * 执行: exactly the stored plan, as a job. Only a PLANNED run younger than a day (older plans
     * are stale: data came and went since); one periodic run at a time.
     */
    async execute(actor: OperationActor, id: string): Promise<RetentionRunItem> {
      const row = await db.transaction(async (tx) => {
        await tx.execute(RUN_LOCK);
        const run = await runById(tx, id, { lock: true });
        if (!run || run.source !== 'RETENTION') throw notFound(RETENTION_MSG.planNotFound);
        if (run.status !== 'PLANNED') throw badRequest(RETENTION_MSG.planStale, { reason: 'STALE' });
        if (now().getTime() - run.createdAt.getTime() > RETENTION_PLAN_TTL_MS) throw badRequest(RETENTION_MSG.planExpired, { reason: 'EXPIRED' });
        if (await activeRetentionRun(tx)) throw badRequest(RETENTION_MSG.runBusy, { reason: 'BUSY' });
        const total = Object.values(run.counts).reduce((a, b) => a + b, 0);
        const jobId = await enqueueJob(tx, { kind: RETENTION_RUN_JOB, payload: { runId: id }, total, dedupeKey: `${RETENTION_RUN_JOB}:${id}` });
        await updateRun(tx, id, { status: 'QUEUED', dryRun: false, jobId, startedBy: actor.auth.accountId, startedByName: actor.auth.username, version: run.version + 1 });
        await recordOperation(tx, actor, {
          action: 'retention:run',
          targetType: 'retention_run',
          targetId: id,
          summary: `执行数据保留计划（${total} 项）`,
        });
        return (await runById(tx, id))!;
      });
      deps.kick();
      return presentRun(row);
    },

    async runs(q: RetentionRunsQuery): Promise<Page<RetentionRunItem>> {
      const { rows, total } = await listRuns(db, q.page, q.size);
      return { list: await present(rows), page: q.page, size: q.size, total };
    },

    async run(id: string): Promise<RetentionRunItem> {
      const row = await runById(db, id);
      if (!row) throw notFound(RETENTION_MSG.planNotFound);
      return (await present([row]))[0]!;
    },

    /** The items of a run as stored (tests compare a dry run's plan with what the run did). */
    tally: (id: string) => tallyOf(db, id),
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;
