import type { PrelimDocStatus, TeamStatus } from '../enums.js';

/**
 * The two state machines (docs/rules/team.md, docs/rules/prelim.md). A sign-up goes
 * null -> DRAFT -> SUBMITTED -> APPROVED | REVISING | REJECTED, and REVISING -> SUBMITTED again.
 * Preliminary materials go the same way from NOT_FILLED (an approved team without a row).
 */

/** Sign-up states in which the participant may save or submit (the spec's /my-sign guard). */
export const TEAM_EDITABLE_STATUSES = [null, 'DRAFT', 'REVISING'] as const satisfies readonly (TeamStatus | null)[];
/** Material states in which the participant may save or submit (the spec's /material-submission guard). */
export const PRELIM_EDITABLE_STATUSES = [null, 'NOT_FILLED', 'DRAFT', 'REVISING'] as const satisfies readonly (PrelimDocStatus | null)[];

export const teamEditable = (status: TeamStatus | null): boolean => (TEAM_EDITABLE_STATUSES as readonly (TeamStatus | null)[]).includes(status);

/** Preliminary materials are editable in these states, and only for an approved team. */
export const prelimEditable = (status: PrelimDocStatus | null): boolean =>
  status !== null && (PRELIM_EDITABLE_STATUSES as readonly (PrelimDocStatus | null)[]).includes(status);

/** What an administrator may decide about a SUBMITTED record. */
export const AUDIT_OUTCOMES = ['APPROVED', 'REVISING', 'REJECTED'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * prelimDocStatus as participant info shows it: null until the sign-up is approved, then the
 * materials' own status, NOT_FILLED while no materials row exists.
 */
export function prelimDocStatusOf(teamStatus: TeamStatus | null, prelimStatus: TeamStatus | null | undefined): PrelimDocStatus | null {
  if (teamStatus !== 'APPROVED') return null;
  return prelimStatus ?? 'NOT_FILLED';
}

export const PRELIM_DOC_STATUS_LABELS: Record<PrelimDocStatus, string> = {
  NOT_FILLED: '未填写',
  DRAFT: '草稿',
  SUBMITTED: '已提交',
  APPROVED: '形式审查通过',
  REVISING: '退回修改',
  REJECTED: '形式审查不通过',
};
