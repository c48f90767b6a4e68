import type { ParseKeys } from 'i18next';
import type { QueryKey } from '@tanstack/react-query';
import type { PrelimDocStatus, StatusHistoryEntry, TeamStatus } from '@contest/shared';

/** A text of the signup namespace, translated by the shared form and detail. */
export type SignupKey = ParseKeys<'signup'>;

/** What the shared frames read of a sign-up or of materials. */
export interface SubmissionRecord {
  status: TeamStatus | PrelimDocStatus;
  auditReason?: string | null;
  history: readonly StatusHistoryEntry[];
  editable: boolean;
}

/**
 * One of the participant's submissions (the sign-up, docs/rules/team.md; the materials,
 * docs/rules/prelim.md): the record, its calls and keys, its pages and words. The form and
 * detail pages of each bring the fields.
 */
export interface SubmissionFlow<P, D> {
  kind: 'team' | 'prelim';
  /** Test ids: the form page, its form, the detail page and its 修改 button. */
  testIds: { page: string; form: string; detail: string; edit: string };
  paths: { form: string; detail: string };
  /** Where the record is cached, and its brief (re-read after every change). */
  keys: { record: QueryKey; brief: QueryKey };
  api: { fetch(): Promise<D | null>; saveDraft(body: P): Promise<D>; submit(body: P): Promise<D> };
  words: { formTitle: SignupKey; detailTitle: SignupKey; confirmSubmit: SignupKey; closed: SignupKey };
}
