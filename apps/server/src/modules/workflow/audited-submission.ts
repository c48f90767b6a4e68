import {
  ADMIN_MSG,
  AUDIT_ACTION,
  TEAM_EXPORT_MAX_ROWS,
  type AdminAuditInput,
  type BatchAuditInput,
  type BatchResult,
  type QueueNext,
  type RemindInput,
  type RemindResult,
  type TemplateEventCode,
  type WorkflowDef,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { Reminders } from './reminders.js';
import { decideEach, type Notice, type WorkflowService } from './workflow.service.js';

type Outcome = AdminAuditInput['outcome'];
type AuditAction = (typeof AUDIT_ACTION)[Outcome];

/** A record of an audited submission: owned by a participant, with a status machine and a version. */
export interface SubmissionRow<S extends string> {
  id: string;
  ownerId: string;
  status: S;
  version: number;
}

/** What the engine needs of the owning module's repository (its own table only). */
export interface SubmissionRepository<S extends string, Row extends SubmissionRow<S>, Values> {
  byId(id: string): Promise<Row | undefined>;
  lockById(id: string, tx: Db): Promise<Row | undefined>;
  update(tx: Db, id: string, values: Partial<Values>): Promise<Row>;
  /** null when a concurrent first save won the insert. */
  insert(tx: Db, values: Values): Promise<Row | null>;
  nextSubmitted(exclude: readonly string[]): Promise<{ id: string | null | undefined; remaining: number }>;
  draftOwners(ids: readonly string[] | 'all'): Promise<{ id: string; ownerId: string }[]>;
}

/**
 * One submission the participant drafts and submits and staff audit (docs/rules/team.md and
 * docs/rules/prelim.md: the team's sign-up and its preliminary materials share this shape).
 * Each is a declaration: its workflow, its repository, its notices, texts and operation codes.
 */
export interface SubmissionDeps {
  db: Db;
  workflow: WorkflowService;
  reminders: Reminders;
  /** Runs after a transaction that may have queued SMS or email notices (the outbox's kick). */
  afterCommit: () => void;
}

/** What a submission's service factory takes (createTeamService, createPrelimService). */
export interface SubmissionServiceDeps<Repo, Contest> extends Omit<SubmissionDeps, 'afterCommit'> {
  repo: Repo;
  contest: Contest;
  /** Runs after a transaction that may have queued SMS or email notices (the outbox's kick). */
  afterCommit?: () => void;
}

export interface AuditedSubmissionSpec<S extends string, A extends string, Row extends SubmissionRow<S>, Values, Detail> {
  def: WorkflowDef<S, A>;
  repo: SubmissionRepository<S, Row, Values>;
  notFoundMessage: string;
  /** The record's name in notices (under `nameKey`), batch results and operation summaries. */
  nameOf(row: Row): string;
  nameKey: string;
  statusLabels: Record<S, string>;
  /** The audit's operation code, target type and what the summary calls the record (审核报名「…」). */
  audit: { action: string; targetType: string; what: string };
  remind: { action: string; what: string };
  /** The console's detail of a record. */
  adminDetail(row: Row): Promise<Detail>;
}

export function createAuditedSubmission<S extends string, A extends string, Row extends SubmissionRow<S>, Values, Detail>(
  deps: SubmissionDeps,
  spec: AuditedSubmissionSpec<S, A, Row, Values, Detail>,
) {
  const { db, workflow } = deps;
  const { repo } = spec;
  // Notice events are named after the workflow's subject (TEAM_APPROVED, PRELIM_DRAFT_REMIND; texts:
  // TEMPLATE_EVENTS); SUBMISSION_EVENTS_EXIST below fails to compile when one is missing.
  const eventOf = (what: Outcome | 'DRAFT_REMIND') => `${spec.def.subject}_${what}` as TemplateEventCode;

  /** One audit decision through the workflow core (history, notice, operation record in one transaction). */
  async function decide(actor: OperationActor, id: string, input: { outcome: Outcome; reason: string; version?: number }) {
    const reason = input.reason ? input.reason : null;
    const result = await db.transaction((tx) =>
      workflow.transition(tx, {
        workflow: spec.def,
        action: AUDIT_ACTION[input.outcome] as AuditAction & A,
        actor,
        reason,
        expectedVersion: input.version,
        notFoundMessage: spec.notFoundMessage,
        lock: (t) => repo.lockById(id, t),
        apply: (t, row, to, at) =>
          repo.update(t, row.id, { status: to, auditReason: to === ('APPROVED' as S) ? null : reason, auditedAt: at, updatedAt: at } as unknown as Partial<Values>),
        subjectId: (row) => row.id,
        notice: (row, to) => ({
          code: eventOf(input.outcome),
          ownerId: row.ownerId,
          vars: { [spec.nameKey]: spec.nameOf(row), status: spec.statusLabels[to], reason: reason ?? '' },
        }),
        operation: (row, to) => ({
          action: spec.audit.action,
          targetType: spec.audit.targetType,
          targetId: row.id,
          summary: `审核${spec.audit.what}「${spec.nameOf(row)}」：${spec.statusLabels[to]}${reason ? `；意见：${reason}` : ''}`,
        }),
      }),
    );
    deps.afterCommit();
    return result;
  }

  return {
    /**
     * The participant's own draft save or submission, inside the caller's transaction: locks the
     * current record, takes the workflow's step (SAVE or SUBMIT), updates or inserts, and writes the
     * history row and, on submission, the owner's notice. `recheck` refuses before the step.
     */
    async write(
      tx: Db,
      input: {
        actor: OperationActor;
        submit: boolean;
        lock: (tx: Db) => Promise<Row | undefined>;
        recheck?: (current: Row | undefined) => void;
        /** The form's columns; the engine adds status, updatedAt and, on submission, submittedAt. */
        values: Partial<Values>;
        insertValues: Omit<Partial<Values>, 'status' | 'createdAt'>;
        /** Refusal when a concurrent first save won the insert. */
        lostInsert: string;
        at: Date;
        historyFrom?: string;
        submitted: (row: Row) => Notice;
      },
    ): Promise<Row> {
      const current = await input.lock(tx);
      input.recheck?.(current);
      const from = current?.status ?? null;
      const to = workflow.check(spec.def, (input.submit ? 'SUBMIT' : 'SAVE') as A, from, input.actor);
      const submitted = input.submit ? { submittedAt: input.at, auditReason: null } : {};
      const values = { ...input.values, updatedAt: input.at, ...submitted, status: to } as Partial<Values>;
      let row: Row;
      if (current) {
        row = await repo.update(tx, current.id, values);
      } else {
        const inserted = await repo.insert(tx, { ...values, ...input.insertValues, status: to, createdAt: input.at } as unknown as Values);
        // A concurrent first save won the insert: refuse rather than overwrite it blindly.
        if (!inserted) throw badRequest(input.lostInsert);
        row = inserted;
      }
      await workflow.record(tx, {
        workflow: spec.def,
        subjectId: row.id,
        from,
        historyFrom: input.historyFrom,
        to,
        actor: input.actor,
        notice: input.submit ? input.submitted(row) : undefined,
      });
      return row;
    },

    async adminDetail(id: string): Promise<Detail> {
      const row = await repo.byId(id);
      if (!row) throw notFound(spec.notFoundMessage);
      return spec.adminDetail(row);
    },

    /** The drafts page's detail: only a DRAFT (the page shows nothing else). */
    async draftDetail(id: string): Promise<Detail> {
      const row = await repo.byId(id);
      if (!row || row.status !== ('DRAFT' as S)) throw notFound(spec.notFoundMessage);
      return spec.adminDetail(row);
    },

    async queueNext(exclude: readonly string[]): Promise<QueueNext<Detail>> {
      const { id, remaining } = await repo.nextSubmitted(exclude);
      const row = id ? await repo.byId(id) : undefined;
      return { detail: row ? await spec.adminDetail(row) : null, remaining };
    },

    async audit(actor: OperationActor, id: string, input: AdminAuditInput): Promise<Detail> {
      const { row } = await decide(actor, id, input);
      return spec.adminDetail(row);
    },

    /**
     * Per row, each in its own transaction (docs/decisions.md): one record changed underneath
     * fails alone, with its reason, and the others are decided.
     */
    async batchAudit(actor: OperationActor, input: BatchAuditInput): Promise<BatchResult> {
      return decideEach(
        input.items,
        async (item) => (await decide(actor, item.id, { outcome: input.outcome, reason: input.reason, version: item.version })).row,
        (row) => ({ status: row.status, name: spec.nameOf(row) }),
      );
    },

    /** Reminds the owners of drafts: once per record per Beijing day. */
    async remind(actor: OperationActor, input: RemindInput): Promise<RemindResult> {
      const targets = await repo.draftOwners(input.all ? 'all' : (input.ids ?? []));
      const result = await deps.reminders.remind(db, {
        subjectType: spec.def.subject,
        targets,
        actor,
        notice: { code: eventOf('DRAFT_REMIND'), vars: {} },
        operation: { action: spec.remind.action, targetType: spec.audit.targetType, what: spec.remind.what },
      });
      deps.afterCommit();
      return result;
    },

    /** Refuses an export over the row cap, then records it as an operation before the first byte. */
    async recordExport(actor: OperationActor, total: number, operation: { action: string; summary: string }): Promise<void> {
      if (total > TEAM_EXPORT_MAX_ROWS) throw badRequest(ADMIN_MSG.exportTooLarge);
      await db.transaction((tx) => recordOperation(tx, actor, { action: operation.action, targetType: spec.audit.targetType, summary: operation.summary }));
    },
  };
}
export type AuditedSubmission = ReturnType<typeof createAuditedSubmission>;

/** The subjects built on this engine; every event the engine names for them must be in the catalogue. */
type SubmissionSubject = 'TEAM' | 'PRELIM';
export const SUBMISSION_EVENTS_EXIST: `${SubmissionSubject}_${Outcome | 'DRAFT_REMIND'}` extends TemplateEventCode ? true : never = true;
