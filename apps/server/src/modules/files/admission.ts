/**
 * Admission of upload pieces on one instance (docs/files.md, docs/performance.md). At most `limit` pieces are read at once.
 * A piece beyond it first waits, unread, in a FIFO line of at most `maxWaiting` for up to
 * `maxWaitMs`: its body stays in the client's and the kernel's buffers (Node stops reading a
 * socket whose request nobody consumes), so a waiting piece costs a connection and no CPU. Only a
 * piece that finds the line full, or waits too long, is refused, with a Retry-After taken from
 * what this instance measures, so refused clients come back about when a place is likely to be
 * free. Refusals are what the line is for: a refused piece's body (5 MB) is still sent and read
 * off the wire to be discarded (docs/files.md), and with a thousand uploaders refusing at once
 * made the server read more bytes it threw away than it kept (docs/performance.md).
 *
 * The places themselves follow the event loop (adjust): while requests wait for the loop longer
 * than `lagTargetMs`, fewer pieces are read at once (halved, down to `minPlaces`); while the loop
 * is idle enough, one more at a time, back to `limit`. Uploads then slow down under load, and the
 * pages (sign-in, drafts, submit), which need the same loop, do not.
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
  /** Pieces that may wait for a place (0: refuse at once). */
  maxWaiting?: number;
  /** How long a piece waits at most before it is refused. */
  maxWaitMs?: number;
  /** Event-loop delay (p99, ms) above which fewer pieces are read at once; 0 keeps `limit` fixed. */
  lagTargetMs?: number;
  /** Pieces read at once however busy the loop (default 2). */
  minPlaces?: number;
  now?: () => number;
  random?: () => number;
}

/** Default longest wait in the line: a few rounds of pieces under load, well within browsers' patience. */
export const PIECE_WAIT_MS = 30_000;

interface Waiter {
  grant(admission: Admission): void;
  timer: ReturnType<typeof setTimeout>;
}

export function createAdmission(options: AdmissionOptions) {
  const { limit } = options;
  const maxWaiting = options.maxWaiting ?? 0;
  const maxWaitMs = options.maxWaitMs ?? PIECE_WAIT_MS;
  const now = options.now ?? Date.now;
  const line: Waiter[] = [];
  const lagTargetMs = options.lagTargetMs ?? 0;
  const minPlaces = Math.min(limit, options.minPlaces ?? 2);
  /** Places open now (adjust moves it between minPlaces and limit). */
  let places = limit;
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

  function refusal(at: number): Admission {
    countRefusal(at);
    return { admitted: false, retryAfter: retryAfterSeconds(pieceSeconds(at), refusedRecently(at), places, random()) };
  }

  /** A turn starting now; its `leave` hands the place to the first piece in line. */
  function turn(): Admission {
    const piece = { at: now() };
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
        fill();
      },
    };
  }

  /** Hands free places to the pieces in line, first come first. */
  function fill(): void {
    while (inFlight.size < places && line.length > 0) {
      const next = line.shift()!;
      clearTimeout(next.timer);
      next.grant(turn());
    }
  }

  return {
    /** Takes a place, or says how long to wait for one. `leave` ends the turn (idempotent). */
    admit(): Admission {
      return inFlight.size < places ? turn() : refusal(now());
    },

    /** The loop's recent delay (p99, ms): fewer places while it is high, more while it is low. */
    adjust(lagMs: number): void {
      if (lagTargetMs <= 0) return;
      if (lagMs > lagTargetMs) places = Math.max(minPlaces, Math.ceil(places / 2));
      else if (lagMs < lagTargetMs / 2 && places < limit) {
        places++;
        fill();
      }
    },

    /** Whether enter() now would wait in line (every place taken, the line not full). */
    wouldWait(): boolean {
      return (inFlight.size >= places || line.length > 0) && line.length < maxWaiting;
    },

    /**
     * Takes a place, waiting in line for one when all are taken; refused when the line is full,
     * after maxWaitMs, or (retryAfter 0, nothing counted) when `signal` aborts: the client left.
     */
    enter(signal?: AbortSignal): Promise<Admission> {
      if (inFlight.size < places && line.length === 0) return Promise.resolve(turn());
      if (line.length >= maxWaiting || signal?.aborted) return Promise.resolve(signal?.aborted ? { admitted: false, retryAfter: 0 } : refusal(now()));
      return new Promise<Admission>((resolve) => {
        const leaveLine = () => {
          const i = line.indexOf(waiter);
          if (i >= 0) line.splice(i, 1);
        };
        const onAbort = () => {
          clearTimeout(waiter.timer);
          leaveLine();
          resolve({ admitted: false, retryAfter: 0 });
        };
        const waiter: Waiter = {
          grant: (admission) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(admission);
          },
          timer: setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            leaveLine();
            resolve(refusal(now()));
          }, maxWaitMs),
        };
        // A line never keeps a process alive that is otherwise done.
        waiter.timer.unref?.();
        signal?.addEventListener('abort', onAbort, { once: true });
        line.push(waiter);
      });
    },

    /** For tests and diagnostics. */
    stats(): { inFlight: number; places: number; waiting: number; avgPieceSeconds: number | null; refusedRecently: number } {
      return { inFlight: inFlight.size, places, waiting: line.length, avgPieceSeconds: avgMs === null ? null : avgMs / 1000, refusedRecently: refusedRecently(now()) };
    },
  };
}
