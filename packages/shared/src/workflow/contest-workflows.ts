import { REVIEW_MSG } from '../review/messages.js';
import { CONTEST_MSG as M } from '../contest/messages.js';
import { TEAM_STATUSES } from '../enums.js';
import { defineWorkflow } from './workflow.js';

/** The audit outcomes of the console, as workflow actions. */
export const AUDIT_ACTION = { APPROVED: 'APPROVE', REVISING: 'RETURN', REJECTED: 'REJECT' } as const;

/** docs/rules/team.md: null -> DRAFT -> SUBMITTED -> APPROVED | REVISING | REJECTED; REVISING -> SUBMITTED. */
export const TEAM_WORKFLOW = defineWorkflow({
  subject: 'TEAM',
  states: TEAM_STATUSES,
  transitions: [
    { action: 'SAVE', from: [null], to: 'DRAFT', by: ['USER'] },
    { action: 'SAVE', from: ['DRAFT', 'REVISING'], to: 'SAME', by: ['USER'] },
    { action: 'SUBMIT', from: [null, 'DRAFT', 'REVISING'], to: 'SUBMITTED', by: ['USER'] },
    { action: 'APPROVE', from: ['SUBMITTED'], to: 'APPROVED', by: ['ADMIN'] },
    { action: 'RETURN', from: ['SUBMITTED'], to: 'REVISING', by: ['ADMIN'], reasonRequired: true },
    { action: 'REJECT', from: ['SUBMITTED'], to: 'REJECTED', by: ['ADMIN'], reasonRequired: true },
  ],
  refusals: {
    SAVE: M.teamNotEditable,
    SUBMIT: M.teamNotSubmittable,
    APPROVE: M.auditOnlySubmitted,
    RETURN: M.auditOnlySubmitted,
    REJECT: M.auditOnlySubmitted,
  },
  refused: M.auditOnlySubmitted,
});

/** docs/rules/prelim.md: NOT_FILLED (no row) -> DRAFT -> SUBMITTED -> APPROVED | REVISING | REJECTED; REVISING -> SUBMITTED. */
export const PRELIM_WORKFLOW = defineWorkflow({
  subject: 'PRELIM',
  states: TEAM_STATUSES,
  transitions: [
    { action: 'SAVE', from: [null], to: 'DRAFT', by: ['USER'] },
    { action: 'SAVE', from: ['DRAFT', 'REVISING'], to: 'SAME', by: ['USER'] },
    { action: 'SUBMIT', from: [null, 'DRAFT', 'REVISING'], to: 'SUBMITTED', by: ['USER'] },
    { action: 'APPROVE', from: ['SUBMITTED'], to: 'APPROVED', by: ['ADMIN'] },
    { action: 'RETURN', from: ['SUBMITTED'], to: 'REVISING', by: ['ADMIN'], reasonRequired: true },
    { action: 'REJECT', from: ['SUBMITTED'], to: 'REJECTED', by: ['ADMIN'], reasonRequired: true },
  ],
  refusals: {
    SAVE: M.prelimNotEditable,
    SUBMIT: M.prelimNotSubmittable,
    APPROVE: M.auditOnlySubmitted,
    RETURN: M.auditOnlySubmitted,
    REJECT: M.auditOnlySubmitted,
  },
  refused: M.auditOnlySubmitted,
});

/**
 * A project's place in the final round (the final-projects page). Promotion by ranking comes
 * with the review work; an admin may add or remove a project by hand now, with a reason.
 */
export const FINAL_ENTRY_STATUSES = ['IN', 'OUT'] as const;
export type FinalEntryStatus = (typeof FINAL_ENTRY_STATUSES)[number];

export const FINAL_WORKFLOW = defineWorkflow({
  subject: 'FINAL',
  states: FINAL_ENTRY_STATUSES,
  transitions: [
    { action: 'ADD', from: [null, 'OUT'], to: 'IN', by: ['ADMIN'], reasonRequired: true },
    { action: 'REMOVE', from: ['IN'], to: 'OUT', by: ['ADMIN'], reasonRequired: true },
  ],
  refusals: { ADD: M.finalAlreadyIn, REMOVE: M.finalNotIn },
  refused: M.finalNotIn,
});

export const SHEET_STATUSES = ['DRAFT', 'SUBMITTED', 'RETURNED', 'ABSTAINED'] as const;
export type SheetStatus = (typeof SHEET_STATUSES)[number];

/**
 * A score sheet (one expert, one project, one round): the expert saves drafts and submits; an
 * admin returns a submitted sheet with a reason (the submitted version is kept as a revision);
 * the expert then saves and submits again. Before submitting (no sheet yet, a draft, a returned
 * sheet) the expert may abstain with a reason (docs/rules/review.md, "Abstaining"): ABSTAINED is
 * final for that expert and project; the project then needs another scorer.
 */
export const SHEET_WORKFLOW = defineWorkflow({
  subject: 'SHEET',
  states: SHEET_STATUSES,
  transitions: [
    { action: 'SAVE', from: [null, 'DRAFT', 'RETURNED'], to: 'DRAFT', by: ['EXPERT'] },
    { action: 'SUBMIT', from: [null, 'DRAFT', 'RETURNED'], to: 'SUBMITTED', by: ['EXPERT'] },
    { action: 'RETURN', from: ['SUBMITTED'], to: 'RETURNED', by: ['ADMIN'], reasonRequired: true },
    { action: 'ABSTAIN', from: [null, 'DRAFT', 'RETURNED'], to: 'ABSTAINED', by: ['EXPERT'], reasonRequired: true },
  ],
  refusals: { SAVE: REVIEW_MSG.sheetLocked, SUBMIT: REVIEW_MSG.sheetLocked, RETURN: REVIEW_MSG.sheetNotSubmitted, ABSTAIN: REVIEW_MSG.sheetNotAbstainable },
  refused: REVIEW_MSG.sheetLocked,
});

/** Every workflow by the subject type written to the history. */
export const WORKFLOWS = { TEAM: TEAM_WORKFLOW, PRELIM: PRELIM_WORKFLOW, FINAL: FINAL_WORKFLOW, SHEET: SHEET_WORKFLOW } as const;
export type WorkflowSubject = keyof typeof WORKFLOWS;
