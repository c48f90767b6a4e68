import type { Realm } from '../enums.js';

/**
 * One description for every status machine of the contest (sign-up, materials, final-round
 * entry; later score sheets, appeals). A workflow is data: its states and the transitions
 * between them, each named by an action, with who may take it and whether a reason is needed.
 * Which admin button code a step needs is the route's check alone (docs/decisions.md, "Workflow
 * transitions carry no permission").
 * The server applies them in one place (modules/workflow), the web reads them to decide which
 * buttons to show, and tests walk them.
 */
export interface TransitionDef<S extends string = string, A extends string = string> {
  action: A;
  /** States the action starts from; null = the record does not exist yet. */
  from: readonly (S | null)[];
  /** The resulting state; `'SAME'` keeps the current one (a draft save). */
  to: S | 'SAME';
  /** Realms that may take the action. */
  by: readonly Realm[];
  /** A reason must be given (return, reject, removal). */
  reasonRequired?: boolean;
}

export interface WorkflowDef<S extends string = string, A extends string = string> {
  /** Subject type written to the status history (TEAM, PRELIM, FINAL, ...). */
  subject: string;
  states: readonly S[];
  transitions: readonly TransitionDef<S, A>[];
  /** What a refused action says, by action (falls back to `refused`). */
  refusals: Partial<Record<A, string>>;
  refused: string;
}

export function defineWorkflow<const S extends string, const A extends string>(def: WorkflowDef<S, A>): WorkflowDef<S, A> {
  // Catch a typo in the declaration at load time rather than at the first refused audit.
  for (const t of def.transitions) {
    for (const f of t.from) if (f !== null && !def.states.includes(f)) throw new Error(`${def.subject}: unknown from-state ${f}`);
    if (t.to !== 'SAME' && !def.states.includes(t.to)) throw new Error(`${def.subject}: unknown to-state ${t.to}`);
  }
  return def;
}

export type WorkflowStep<S extends string> = { ok: true; from: S | null; to: S } | { ok: false; message: string; reason: 'NOT_ALLOWED' | 'FORBIDDEN' };

/** Whether `realm` may take `action` from `from`, and where it leads. Pure: no I/O. */
export function stepOf<S extends string, A extends string>(wf: WorkflowDef<S, A>, action: A, from: S | null, realm: Realm): WorkflowStep<S> {
  const t = wf.transitions.find((x) => x.action === action && x.from.includes(from));
  if (!t) return { ok: false, reason: 'NOT_ALLOWED', message: wf.refusals[action] ?? wf.refused };
  if (!t.by.includes(realm)) return { ok: false, reason: 'FORBIDDEN', message: wf.refusals[action] ?? wf.refused };
  const to = t.to === 'SAME' ? from : t.to;
  if (to === null) return { ok: false, reason: 'NOT_ALLOWED', message: wf.refusals[action] ?? wf.refused };
  return { ok: true, from, to };
}

export function transitionOf<S extends string, A extends string>(wf: WorkflowDef<S, A>, action: A, from: S | null): TransitionDef<S, A> | undefined {
  return wf.transitions.find((x) => x.action === action && x.from.includes(from));
}

/** Actions `realm` may take now (the console shows these buttons). */
export function actionsFrom<S extends string, A extends string>(wf: WorkflowDef<S, A>, from: S | null, realm: Realm): A[] {
  return wf.transitions.filter((t) => t.from.includes(from) && t.by.includes(realm)).map((t) => t.action);
}
