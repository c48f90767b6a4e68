import { defineWorkflow } from '../workflow/workflow.js';
import { RESULT_OUTCOMES } from './api.js';
import { RESULTS_MSG as M } from './messages.js';

const PRELIM_OUTCOMES = ['PROMOTED', 'NOT_PROMOTED'] as const;
const FINAL_OUTCOMES = ['AWARDED', 'NONE'] as const;

/**
 * A project's line in a round's published result (docs/rules/results.md), on the workflow core: each
 * published version gives the line an outcome, named by the action (a preliminary line is
 * promoted or not, a final line awarded or not). Version 1 starts every line from no record;
 * a later version moves a changed line within its round. The history keeps a row for every
 * changed line, also when only its rank or score moved (`recordMany` with keepSame). Who may
 * publish is the route's check (result:publish).
 */
export const RESULT_WORKFLOW = defineWorkflow({
  subject: 'RESULT',
  states: RESULT_OUTCOMES,
  transitions: [
    { action: 'PROMOTED', from: [null, ...PRELIM_OUTCOMES], to: 'PROMOTED', by: ['ADMIN'] },
    { action: 'NOT_PROMOTED', from: [null, ...PRELIM_OUTCOMES], to: 'NOT_PROMOTED', by: ['ADMIN'] },
    { action: 'AWARDED', from: [null, ...FINAL_OUTCOMES], to: 'AWARDED', by: ['ADMIN'] },
    { action: 'NONE', from: [null, ...FINAL_OUTCOMES], to: 'NONE', by: ['ADMIN'] },
  ],
  refusals: {},
  refused: M.outcomeInvalid,
});
