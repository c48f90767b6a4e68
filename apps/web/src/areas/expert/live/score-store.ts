/**
 * The judge's filled-in score on this device (docs/live-final.md, "Offline and resends"): kept
 * in localStorage per session and project, so a reload or a dead battery loses nothing. `key`
 * is set when the judge presses submit and stays until the server answers: every resend uses it.
 */
export interface StoredScore {
  scores: Record<string, number>;
  comment: string;
  /** The submit's UUID; null = still being filled in. */
  key: string | null;
}

const storeKey = (sessionId: string, projectId: string) => `live-score:${sessionId}:${projectId}`;

export function readStoredScore(sessionId: string, projectId: string): StoredScore | null {
  try {
    const raw = window.localStorage.getItem(storeKey(sessionId, projectId));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredScore>;
    if (typeof value !== 'object' || value === null) return null;
    const scores: Record<string, number> = {};
    for (const [k, v] of Object.entries(value.scores ?? {})) if (typeof v === 'number' && Number.isFinite(v)) scores[k] = v;
    return { scores, comment: typeof value.comment === 'string' ? value.comment : '', key: typeof value.key === 'string' ? value.key : null };
  } catch {
    return null;
  }
}

export function writeStoredScore(sessionId: string, projectId: string, value: StoredScore): void {
  try {
    window.localStorage.setItem(storeKey(sessionId, projectId), JSON.stringify(value));
  } catch {
    // Storage full or blocked (private mode): the page still holds the values.
  }
}

export function clearStoredScore(sessionId: string, projectId: string): void {
  try {
    window.localStorage.removeItem(storeKey(sessionId, projectId));
  } catch {
    // As above.
  }
}
