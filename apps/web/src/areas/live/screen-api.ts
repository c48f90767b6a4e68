import { API_BASE, type LiveDisplayState } from '@contest/shared';

export const displayEventsPath = (token: string) => `/live/display/${encodeURIComponent(token)}/events`;

/**
 * GET /api/live/display/:token with plain fetch: no login, and a revoked link is an answer the
 * page shows full screen rather than a toast. Rejects on anything but a 200 envelope.
 */
export async function fetchDisplayState(token: string, fetchImpl: typeof fetch = fetch): Promise<LiveDisplayState> {
  const response = await fetchImpl(`${API_BASE}/live/display/${encodeURIComponent(token)}`, { cache: 'no-store' });
  const body = (await response.json()) as { status: number; data: LiveDisplayState };
  if (body.status !== 200) throw new Error(`display ${body.status}`);
  return body.data;
}
