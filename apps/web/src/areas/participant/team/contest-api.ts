/**
 * The participant's own calls of the sign-up and preliminary-materials pages
 * (docs/api-contest.md). Shapes and rules come from @contest/shared, written with the server;
 * what admin and expert pages need too (dictionary names, upload values, downloads) is in
 * components/contest.
 */
import type {
  ContestPublic,
  PrelimBrief,
  PrelimDetail,
  PrelimFormInput,
  TeamBrief,
  TeamDetail,
  TeamFormInput,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const CONTEST_QUERY_KEYS = {
  team: ['contest', 'team'] as const,
  teamBrief: ['contest', 'team-brief'] as const,
  prelim: ['contest', 'prelim'] as const,
  prelimBrief: ['contest', 'prelim-brief'] as const,
  schedule: ['contest', 'public'] as const,
};

// The form calls are silent: the page shows a refusal above the form and under its field,
// which reads better than a toast that disappears while the user looks for the mistake.
const SILENT = { silent: true } as const;

export const fetchTeamBrief = () => dataOf(api.get<TeamBrief>('/team/my-brief'));
export const fetchMyTeam = () => dataOf(api.get<TeamDetail | null>('/team/my'));
export const saveTeamDraft = (body: TeamFormInput) => dataOf(api.put<TeamDetail>('/team/my', body, SILENT));
export const submitTeam = (body: TeamFormInput) => dataOf(api.post<TeamDetail>('/team/my/submit', body, SILENT));

/** The phase windows (GET /contest/public): when a closed sign-up opens. Silent: the form still shows without it. */
export const fetchContestSchedule = () => dataOf(api.get<ContestPublic>('/contest/public', { silent: true }));

export const fetchPrelimBrief = () => dataOf(api.get<PrelimBrief>('/prelim-doc/my-brief'));
export const fetchMyPrelim = () => dataOf(api.get<PrelimDetail | null>('/prelim-doc/my'));
export const savePrelimDraft = (body: PrelimFormInput) => dataOf(api.put<PrelimDetail>('/prelim-doc/my', body, SILENT));
export const submitPrelim = (body: PrelimFormInput) => dataOf(api.post<PrelimDetail>('/prelim-doc/my/submit', body, SILENT));

/** Where the commitment-letter template downloads from (a public document found by code). */
export const COMMITMENT_TEMPLATE_CODE = 'COMMITMENT_LETTER';
export const templateUrl = (code: string) => `/api/template/public?code=${encodeURIComponent(code)}`;
