import { FINAL_WORKFLOW, type FinalEntryStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import type { OperationActor, OperationEntry } from '../audit/operation-log.js';
import type { Notice, WorkflowService } from '../workflow/workflow.service.js';
import { createFinalEntriesRepository, type FinalEntriesRepository, type FinalEntryRow } from './final-entries.repository.js';

export interface FinalMove {
  prelimId: string;
  action: 'ADD' | 'REMOVE';
  /** The entry's state as the caller locked it (`lock`); null = no entry yet. */
  from: FinalEntryStatus | null;
  reason: string;
  actor: OperationActor;
  /** When it happened (the entry's updatedAt and the history row); the workflow's now by default. */
  at?: Date;
  notice?: Notice;
  operation?: OperationEntry;
}

/**
 * The one owner of the final round's entries (FINAL workflow): 决赛项目管理 (prelim), the
 * promotion confirm (review) and a corrected preliminary version (results) all move an entry
 * through `move`, which checks the step, writes the entry and records history, operation and
 * notice on the workflow core in the caller's transaction. Callers lock the materials row first,
 * then the entry (`lock`), in id order: the one lock order of every writer.
 */
export function createFinalEntriesService({ workflow }: { workflow: Pick<WorkflowService, 'check' | 'record' | 'now'> }, repo: FinalEntriesRepository = createFinalEntriesRepository()) {
  return {
    find: (db: Db, prelimId: string) => repo.find(db, prelimId),
    lock: (tx: Db, prelimId: string) => repo.lock(tx, prelimId),
    async move(tx: Db, input: FinalMove): Promise<{ entry: FinalEntryRow; from: FinalEntryStatus | null; to: FinalEntryStatus }> {
      const to = workflow.check(FINAL_WORKFLOW, input.action, input.from, input.actor, input.reason);
      const at = input.at ?? workflow.now();
      const entry = await repo.write(tx, input.prelimId, to, input.reason, at);
      await workflow.record(tx, {
        workflow: FINAL_WORKFLOW,
        subjectId: input.prelimId,
        from: input.from,
        to,
        reason: input.reason,
        actor: input.actor,
        notice: input.notice,
        operation: input.operation,
        at,
      });
      return { entry, from: input.from, to };
    },
  };
}
export type FinalEntriesService = ReturnType<typeof createFinalEntriesService>;
