import { defineWorkflow } from '../workflow/workflow.js';
import { APPEAL_STATUSES } from './api.js';
import { RESULTS_MSG as M } from './messages.js';

/**
 * An appeal's status machine on the workflow core (docs/rules/results.md, "Appeals"): a team files it (one per round:
 * a record exists already refuses a second, the database's unique key settles races), an admin
 * with appeal:decide (the route's check) rejects or accepts it with a reply, and the new version
 * published after the re-review resolves it. The server takes every step on `workflow.transition` /
 * `workflow.record`; the console offers the decision only where `actionsFrom` says so.
 */
export const APPEAL_WORKFLOW = defineWorkflow({
  subject: 'APPEAL',
  states: APPEAL_STATUSES,
  transitions: [
    { action: 'FILE', from: [null], to: 'SUBMITTED', by: ['USER'], reasonRequired: true },
    { action: 'REJECT', from: ['SUBMITTED'], to: 'REJECTED', by: ['ADMIN'], reasonRequired: true },
    { action: 'ACCEPT', from: ['SUBMITTED'], to: 'ACCEPTED', by: ['ADMIN'], reasonRequired: true },
    { action: 'RESOLVE', from: ['ACCEPTED'], to: 'RESOLVED', by: ['ADMIN'] },
  ],
  refusals: { FILE: M.appealAlready, REJECT: M.appealDecided, ACCEPT: M.appealDecided, RESOLVE: M.appealDecided },
  refused: M.appealDecided,
});
export type AppealAction = (typeof APPEAL_WORKFLOW.transitions)[number]['action'];

/**
 * Whether the appeal window is open at `now`: from publication up to, not including, its end
 * (an appeal sent at the very end instant is late). The server's refusal and `canAppeal` both
 * use this, so the button and the call agree to the millisecond.
 */
export const appealWindowOpen = (now: Date, appealEndsAt: Date): boolean => now.getTime() < appealEndsAt.getTime();
