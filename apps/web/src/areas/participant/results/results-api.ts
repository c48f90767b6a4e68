/** The team's own results and appeals (docs/api-results.md, "Participant"). */
import type { AppealCreate, MyAppeal, MyResults, RoundSlug, ScoreReceipt } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MY_RESULTS_QUERY_KEY = ['results', 'mine'] as const;

// Silent: the card simply stays away when the call fails; the dialog shows its own refusals.
export const fetchMyResults = () => dataOf(api.get<MyResults>('/results/mine', { silent: true }));
export const submitAppeal = (slug: RoundSlug, body: AppealCreate) =>
  dataOf(api.post<MyAppeal>(`/results/${slug}/appeal`, body, { silent: true }));
/** The team's score-log receipt for the round's current version (docs/security.md, "Checking a receipt by hand"). */
export const fetchReceipt = (slug: RoundSlug) => dataOf(api.get<ScoreReceipt>(`/results/${slug}/receipt`));
