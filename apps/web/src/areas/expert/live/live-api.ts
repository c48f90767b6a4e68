/**
 * Calls of the judge's phone (docs/live-final.md, "Judges (expert area)"). The submit goes out
 * with `fetch`, not the app's HTTP client: a phone that lost the network keeps its score and
 * resends quietly (no toast per attempt); a refusal of the session itself (401/409) is handed
 * to the client by re-reading the state, so its usual handling runs.
 */
import {
  API_BASE,
  TOKEN_KEYS,
  type ApiEnvelope,
  type LiveJudgeSessionRow,
  type LiveJudgeState,
  type LiveScoreBody,
  type LiveSubmitResult,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';
import { describeRefusal } from '../../../components/admin-kit/refusal-text';

export const LIVE_JUDGE_KEYS = {
  sessions: ['expert', 'live', 'sessions'] as const,
};

export const judgeEventsPath = (sessionId: string) => `/expert/live/sessions/${encodeURIComponent(sessionId)}/events`;

export const fetchJudgeSessions = () => dataOf(api.get<LiveJudgeSessionRow[]>('/expert/live/sessions'));

/** The GET matching the stream (quiet: the page shows what went wrong). */
export const fetchJudgeState = (sessionId: string) =>
  dataOf(api.get<LiveJudgeState>(`/expert/live/sessions/${encodeURIComponent(sessionId)}`, { quietStatuses: [400, 403, 404] }));

export type SendOutcome =
  | { kind: 'ok'; result: LiveSubmitResult }
  /** No answer (network, server down, busy): the score stays and is sent again. */
  | { kind: 'offline' }
  /** An answer that refuses: not sent again with this key. */
  | { kind: 'refused'; status: number; message: string; reason: string | null };

/** Statuses that are "try again later", not a refusal of the score. */
const RETRY_STATUSES = new Set([0, 408, 429, 500, 502, 503, 504]);

export async function sendLiveScore(sessionId: string, projectId: string, body: LiveScoreBody, fetchImpl: typeof fetch = fetch): Promise<SendOutcome> {
  const token = window.localStorage.getItem(TOKEN_KEYS.EXPERT);
  let response: Response;
  try {
    response = await fetchImpl(`${API_BASE}/expert/live/sessions/${encodeURIComponent(sessionId)}/projects/${encodeURIComponent(projectId)}/score`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      credentials: 'include',
      cache: 'no-store',
    });
  } catch {
    return { kind: 'offline' };
  }
  let envelope: ApiEnvelope<unknown> | null = null;
  try {
    envelope = (await response.json()) as ApiEnvelope<unknown>;
  } catch {
    envelope = null;
  }
  if (!envelope || typeof envelope.status !== 'number') return { kind: 'offline' };
  if (envelope.status === 200) return { kind: 'ok', result: envelope.data as LiveSubmitResult };
  if (RETRY_STATUSES.has(envelope.status)) return { kind: 'offline' };
  const reason = (envelope.data as { reason?: unknown } | null)?.reason;
  return {
    kind: 'refused',
    status: envelope.status,
    message: describeRefusal(envelope) || envelope.message,
    reason: typeof reason === 'string' ? reason : null,
  };
}

/** A v4 UUID; `crypto.randomUUID` needs a secure context, a venue's plain-http address may not be one. */
export function newScoreKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
