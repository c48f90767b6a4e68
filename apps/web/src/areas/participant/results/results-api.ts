/** The team's own results and appeals (docs/api-results.md, "Participant"). */
import type { AppealCreate, MyAppeal, MyResults, RoundSlug } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MY_RESULTS_QUERY_KEY = ['results', 'mine'] as const;

// Silent: the card simply stays away when the call fails; the dialog shows its own refusals.
export const fetchMyResults = () => dataOf(api.get<MyResults>('/results/mine', { silent: true }));
export const submitAppeal = (slug: RoundSlug, body: AppealCreate) =>
  dataOf(api.post<MyAppeal>(`/results/${slug}/appeal`, body, { silent: true }));
