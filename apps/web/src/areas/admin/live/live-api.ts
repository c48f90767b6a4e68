/**
 * Calls of the console's live-final pages (docs/live-final.md, "Calls"; shapes in
 * packages/shared/src/live-final/api.ts). Writes are silent: the pages show their refusals
 * themselves (in a dialog or a toast in the page's language), never twice.
 */
import type {
  LiveActionBody,
  LiveCandidates,
  LiveChairState,
  LiveDisplayBody,
  LiveDisplayLink,
  LiveImportBody,
  LiveProjectsBody,
  LiveRunningOrder,
  LiveSessionBody,
  LiveSessionDetail,
  LiveSessionListQuery,
  LiveSessionRow,
  Page,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const LIVE_QUERY_KEYS = {
  all: ['admin', 'live'] as const,
  list: ['admin', 'live', 'sessions'] as const,
  candidates: ['admin', 'live', 'candidates'] as const,
  session: (id: string) => ['admin', 'live', 'session', id] as const,
  displays: (id: string) => ['admin', 'live', 'session', id, 'displays'] as const,
  runningOrder: (id: string) => ['admin', 'live', 'session', id, 'running-order'] as const,
  chair: (id: string) => ['admin', 'live', 'session', id, 'chair'] as const,
};

const SILENT = { silent: true } as const;
const BASE = '/admin/live/sessions';

export const fetchSessions = (query: Partial<LiveSessionListQuery> & Record<string, unknown>) =>
  dataOf(api.get<Page<LiveSessionRow>>(BASE, { params: query }));
export const fetchCandidates = () => dataOf(api.get<LiveCandidates>('/admin/live/candidates'));
export const fetchSession = (id: string) => dataOf(api.get<LiveSessionDetail>(`${BASE}/${id}`));
export const createSession = (body: LiveSessionBody) => dataOf(api.post<LiveSessionDetail>(BASE, body, SILENT));
export const updateSession = (id: string, body: LiveSessionBody & { version?: number }) =>
  dataOf(api.put<LiveSessionDetail>(`${BASE}/${id}`, body, SILENT));
export const deleteSession = (id: string) => dataOf(api.delete<null>(`${BASE}/${id}`, SILENT));
export const setProjects = (id: string, body: LiveProjectsBody) => dataOf(api.put<LiveSessionDetail>(`${BASE}/${id}/projects`, body, SILENT));
export const importProjects = (id: string, body: LiveImportBody) =>
  dataOf(api.post<LiveSessionDetail>(`${BASE}/${id}/projects/import`, body, SILENT));
export const fetchRunningOrder = (id: string) => dataOf(api.get<LiveRunningOrder>(`${BASE}/${id}/running-order`));

export const fetchDisplays = (id: string) => dataOf(api.get<LiveDisplayLink[]>(`${BASE}/${id}/displays`));
export const createDisplay = (id: string, body: LiveDisplayBody) => dataOf(api.post<LiveDisplayLink>(`${BASE}/${id}/displays`, body, SILENT));
export const revokeDisplay = (id: string, linkId: string) => dataOf(api.delete<null>(`${BASE}/${id}/displays/${linkId}`, SILENT));

/** The chair's snapshot; `silent` for the background refreshes (a failed poll shows as offline, not a toast each time). */
export const fetchChair = (id: string, silent = false) =>
  dataOf(api.get<LiveChairState>(`${BASE}/${id}/chair`, silent ? SILENT : undefined));
export const postAction = (id: string, body: LiveActionBody) => dataOf(api.post<LiveChairState>(`${BASE}/${id}/actions`, body, SILENT));
export const CHAIR_EVENTS_PATH = (id: string) => `/api${BASE}/${id}/events`;
