/**
 * Admission of upload pieces on one instance (issue 15). Beyond the limit a piece is refused with
 * a Retry-After taken from what this instance measures, so refused clients come back about when a
 * place is likely to be free: a fixed 1-3 s was shorter than a piece takes under load, and every
 * refused piece's body (5 MB) is still sent and discarded, so short waits fed the refusals.
 */

/** Retry-After bounds, seconds. */
export const RETRY_AFTER_MIN_S = 1;
export const RETRY_AFTER_MAX_S = 60;
/** Refusals counted over this window feed the wait. */
export const REFUSAL_WINDOW_MS = 10_000;
/** Weight of the newest piece in the moving average of piece durations. */
export const PIECE_AVERAGE_WEIGHT = 0.2;

/**
 * The wait for a refused piece: the average piece takes avgPieceSeconds, and each `limit`
 * refusals of the last window queue up about one more round of pieces ahead of this one.
 * `random` (0..1) spreads it by up to half again, so refused clients do not all come back together.
 */
export function retryAfterSeconds(avgPieceSeconds: number, refusedRecently: number, limit: number, random: number): number {
  const base = Math.max(0, avgPieceSeconds) * (1 + Math.max(0, refusedRecently) / Math.max(1, limit));
  const jitter = 1 + 0.5 * Math.min(1, Math.max(0, random));
  const seconds = Math.ceil(base * jitter);
  return Math.min(RETRY_AFTER_MAX_S, Math.max(RETRY_AFTER_MIN_S, Number.isFinite(seconds) ? seconds : RETRY_AFTER_MAX_S));
}

export type Admission = { admitted: true; leave: () => void } | { admitted: false; retryAfter: number };

export interface AdmissionOptions {
  limit: number;
  now?: () => number;
  random?: () => number;
}

export function createAdmission(options: AdmissionOptions) {
  const { limit } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  /** Start times of the admitted pieces still in flight. */
  const inFlight = new Set<{ at: number }>();
  let avgMs: number | null = null;
  // Refusals per second of the window, as a ring (a flood of refusals costs no memory).
  const seconds = Math.ceil(REFUSAL_WINDOW_MS / 1000);
  const buckets = new Array<number>(seconds).fill(0);
  const bucketSecond = new Array<number>(seconds).fill(-1);

  function refusedRecently(at: number): number {
    const second = Math.floor(at / 1000);
    let total = 0;
    for (let i = 0; i < seconds; i++) if (second - bucketSecond[i]! < seconds) total += buckets[i]!;
    return total;
  }

  function countRefusal(at: number): void {
    const second = Math.floor(at / 1000);
    const i = second % seconds;
    if (bucketSecond[i] !== second) {
      bucketSecond[i] = second;
      buckets[i] = 0;
    }
    buckets[i]!++;
  }

  /** The average piece duration; before any piece has ended, the age of the oldest one running. */
  function pieceSeconds(at: number): number {
    if (avgMs !== null) return avgMs / 1000;
    let oldest = at;
    for (const piece of inFlight) oldest = Math.min(oldest, piece.at);
    return (at - oldest) / 1000;
  }

  return {
    /** Takes a place, or says how long to wait for one. `leave` ends the turn (idempotent). */
    admit(): Admission {
      const at = now();
      if (inFlight.size >= limit) {
        countRefusal(at);
        return { admitted: false, retryAfter: retryAfterSeconds(pieceSeconds(at), refusedRecently(at), limit, random()) };
      }
      const piece = { at };
      inFlight.add(piece);
      let left = false;
      return {
        admitted: true,
        leave: () => {
          if (left) return;
          left = true;
          inFlight.delete(piece);
          const ms = Math.max(0, now() - piece.at);
          avgMs = avgMs === null ? ms : avgMs + PIECE_AVERAGE_WEIGHT * (ms - avgMs);
        },
      };
    },
    /** For tests and diagnostics. */
    stats(): { inFlight: number; avgPieceSeconds: number | null; refusedRecently: number } {
      return { inFlight: inFlight.size, avgPieceSeconds: avgMs === null ? null : avgMs / 1000, refusedRecently: refusedRecently(now()) };
    },
  };
}
