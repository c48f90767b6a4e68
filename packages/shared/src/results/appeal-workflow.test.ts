import { describe, expect, it } from 'vitest';
import { actionsFrom, stepOf } from '../workflow/workflow.js';
import type { Realm } from '../enums.js';
import { APPEAL_STATUSES } from './api.js';
import { APPEAL_WORKFLOW, appealWindowOpen, type AppealAction } from './appeal-workflow.js';
import { RESULTS_MSG as M } from './messages.js';

const REALMS: Realm[] = ['USER', 'ADMIN', 'EXPERT'];
const ACTIONS: AppealAction[] = ['FILE', 'REJECT', 'ACCEPT', 'RESOLVE'];

/** Every step the appeal machine allows: [action, from, realm, to]. Anything else is refused. */
const ALLOWED: [AppealAction, string | null, Realm, string][] = [
  ['FILE', null, 'USER', 'SUBMITTED'],
  ['REJECT', 'SUBMITTED', 'ADMIN', 'REJECTED'],
  ['ACCEPT', 'SUBMITTED', 'ADMIN', 'ACCEPTED'],
  ['RESOLVE', 'ACCEPTED', 'ADMIN', 'RESOLVED'],
];

describe('the appeal workflow', () => {
  it('allows exactly its steps, for exactly their realm, and refuses every other with the action’s text', () => {
    for (const from of [null, ...APPEAL_STATUSES]) {
      for (const action of ACTIONS) {
        for (const realm of REALMS) {
          const step = stepOf(APPEAL_WORKFLOW, action, from, realm);
          const allowed = ALLOWED.find(([a, f, r]) => a === action && f === from && r === realm);
          if (allowed) {
            expect(step, `${action} from ${from} by ${realm}`).toEqual({ ok: true, from, to: allowed[3] });
          } else {
            expect(step.ok, `${action} from ${from} by ${realm}`).toBe(false);
            if (!step.ok) expect(step.message).toBe(action === 'FILE' ? M.appealAlready : M.appealDecided);
          }
        }
      }
    }
  });

  it('one appeal per team and round: filing from any existing appeal is refused as already appealed', () => {
    for (const status of APPEAL_STATUSES) {
      expect(stepOf(APPEAL_WORKFLOW, 'FILE', status, 'USER')).toMatchObject({ ok: false, reason: 'NOT_ALLOWED', message: M.appealAlready });
    }
  });

  it('a decided appeal is final: the console offers decisions only on a submitted one', () => {
    expect(actionsFrom(APPEAL_WORKFLOW, 'SUBMITTED', 'ADMIN').sort()).toEqual(['ACCEPT', 'REJECT']);
    for (const status of ['REJECTED', 'RESOLVED'] as const) expect(actionsFrom(APPEAL_WORKFLOW, status, 'ADMIN')).toEqual([]);
    expect(actionsFrom(APPEAL_WORKFLOW, 'ACCEPTED', 'ADMIN')).toEqual(['RESOLVE']);
    expect(actionsFrom(APPEAL_WORKFLOW, 'SUBMITTED', 'USER')).toEqual([]);
    // Decisions need a reply (the appeal:decide button is the route's check, docs/decisions.md).
    for (const t of APPEAL_WORKFLOW.transitions.filter((x) => x.action === 'REJECT' || x.action === 'ACCEPT')) {
      expect(t).toMatchObject({ reasonRequired: true });
      expect(t).not.toHaveProperty('permission');
    }
  });

  it('the window’s edges: open until the last millisecond before its end, closed from the end on', () => {
    const end = new Date('2025-10-05T10:00:00.000Z');
    expect(appealWindowOpen(new Date(end.getTime() - 1), end)).toBe(true);
    expect(appealWindowOpen(end, end)).toBe(false);
    expect(appealWindowOpen(new Date(end.getTime() + 1), end)).toBe(false);
  });
});
