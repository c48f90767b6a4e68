import type { ContestPublic, PhaseKey } from '@contest/shared';

/**
 * `GET /contest/public` as the site sees it on 2025-06-10: sign-up and the preliminary
 * submission open, the preliminary review scheduled, the final not. One copy for every page test.
 */
export const CONTEST_PUBLIC: ContestPublic = {
  name: '2025全国智慧医保大赛',
  now: '2025-06-10T00:00:00.000Z',
  currentPhase: 'prelimSubmission',
  phases: [
    { key: 'signUp', name: '报名', window: { start: '2025-04-30T16:00:00.000Z', end: '2025-07-31T15:59:59.000Z' }, state: 'OPEN' },
    {
      key: 'prelimSubmission',
      name: '初赛材料提交',
      window: { start: '2025-05-31T16:00:00.000Z', end: '2025-08-31T15:59:59.000Z' },
      state: 'OPEN',
    },
    { key: 'prelimReview', name: '初赛评审', window: { start: '2025-08-31T16:00:00.000Z', end: null }, state: 'NOT_STARTED' },
    { key: 'finalReview', name: '决赛评审', window: null, state: 'UNSCHEDULED' },
  ],
};

/** The same answer with some phases changed (their window, their state). */
export function contestWithPhases(
  patch: Partial<Record<PhaseKey, Partial<ContestPublic['phases'][number]>>>,
  base: ContestPublic = CONTEST_PUBLIC,
): ContestPublic {
  return { ...base, phases: base.phases.map((p) => ({ ...p, ...patch[p.key] })) };
}
