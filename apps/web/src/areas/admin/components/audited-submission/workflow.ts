import type { ParseKeys } from 'i18next';
import type { QueryKey } from '@tanstack/react-query';
import type { AuditOutcome, BatchAuditInput, ButtonCode, BatchResult, Page, QueueNext, RemindInput, RemindResult } from '@contest/shared';
import type { SendAudit } from './use-submission-audit';

/** A text of the admin namespace, translated by the shared pages. */
export type AdminKey = ParseKeys<'admin'>;

/**
 * One audited workflow of the console (the sign-ups of 报名管理, the materials of 初赛管理): what the
 * shared pages need of it. Each area declares one; its pages add their columns, filters and views.
 */
export interface AuditedWorkflow<R, D> {
  /** The field that names a record, and its words: column title, no name, load failed, retry. */
  nameField: string;
  words: { name: AdminKey; untitled: AdminKey; loadFailed: AdminKey; reload: AdminKey };
  /** Class of the name links, and of the detail pages' section. */
  classes: { link: string; detail: string };
  /** Test ids of the list, drafts, detail and draft-detail pages. */
  testIds: { list: string; drafts: string; detail: string; draft: string };
  titles: { list: AdminKey; drafts: AdminKey };
  codes: { audit: ButtonCode[]; export: ButtonCode[]; remind: ButtonCode[] };
  paths: { list: string; queue: string; detail(id: string): string; draft(id: string): string };
  keys: {
    list: readonly unknown[];
    /** What a decision on the list invalidates. */
    refresh: readonly unknown[];
    drafts: readonly unknown[];
    detail(id: string): QueryKey;
    draft(id: string): QueryKey;
  };
  api: {
    list(params: object): Promise<Page<R>>;
    drafts(params: object): Promise<Page<R>>;
    one(id: string): Promise<D>;
    draft(id: string): Promise<D>;
    next(exclude: readonly string[]): Promise<QueueNext<D>>;
    audit: SendAudit;
    batch(body: BatchAuditInput): Promise<BatchResult>;
    remind(body: RemindInput): Promise<RemindResult>;
    exportUrl: string;
  };
  /** Only SUBMITTED records are audited. */
  auditable(row: { status: string }): boolean;
  audit: {
    /** 审核 on a row and on the detail; the toast of a decision. */
    label: AdminKey;
    done: AdminKey;
    /** 开始审核 (and its test id, where it has one), the export's file name, the batch bar's buttons. */
    start: AdminKey;
    startTestId?: string;
    exportName: AdminKey;
    outcome(outcome: AuditOutcome): AdminKey;
    /** A row's name in the batch result, for answers that carry none. */
    nameOf?(row: R): string;
    /** Where 审核 opens: a dialog on the page (titled with the row's name) or the audit page. */
    where: { dialog: { title: AdminKey; nameOf(row: R): string } } | { page(id: string): string };
  };
  /** The audit queue's page: its test id, 返回列表, the done message (`count`: how many were skipped), 审核跳过的. */
  queue: { testId: string; back: AdminKey; done: AdminKey; doneSkipped: AdminKey; reviewSkipped: AdminKey; reviewSkippedTestId: string };
  remind: { remind: AdminKey; remindAll: AdminKey; remindSelected: AdminKey; confirmAll: AdminKey };
}
