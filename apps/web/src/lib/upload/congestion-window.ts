/**
 * How many pieces one upload queue sends at once (docs/uploader.md, "Concurrency"): additive increase, multiplicative
 * decrease, as TCP does. Each piece refused as busy (429) means the server has more pieces than it
 * can take, and every refused piece's body has been sent for nothing, so the queue halves what it
 * sends at once (down to 1); after every few pieces taken it sends one more, back up to its normal
 * concurrency. Pieces beyond the window wait their turn here, in order.
 *
 * Slow start, also as TCP: a window may start small and grow by one for every piece taken (so it
 * doubles each round) until its normal size or the first refusal. A queue that meets a crowd then
 * learns it from two pieces, not from a burst of ten whose bodies are all sent for nothing; a lone
 * uploader reaches full speed after a few pieces.
 */

/** Pieces taken in a row before the window grows by one (after slow start). */
export const WINDOW_GROWTH_SUCCESSES = 3;

/** What an upload queue's window starts at (slow start). */
export const SLOW_START_PIECES = 2;

/** A place in the window, handed back with the piece's outcome. */
export interface WindowTicket {
  /** The window's decrease count when the piece was sent. */
  readonly epoch: number;
}

export type PieceOutcome = 'taken' | 'busy' | 'other';

interface Waiter {
  resolve(ticket: WindowTicket): void;
  reject(err: unknown): void;
  signal: AbortSignal;
  onAbort(): void;
}

export class CongestionWindow {
  private size: number;
  private active = 0;
  private epoch = 0;
  private successes = 0;
  /** Still in slow start: no refusal yet, growing by one per piece taken. */
  private slowStart: boolean;
  private readonly waiters: Waiter[] = [];

  constructor(
    /** The normal concurrency: what the window grows to (and starts at, without slow start). */
    readonly max: number,
    private readonly growthSuccesses = WINDOW_GROWTH_SUCCESSES,
    /** Where slow start begins (default: no slow start, the window starts at max). */
    initial = max,
  ) {
    this.max = Math.max(1, Math.floor(max));
    this.size = Math.min(this.max, Math.max(1, Math.floor(initial)));
    this.slowStart = this.size < this.max;
  }

  /** Pieces allowed in flight now. */
  get limit(): number {
    return this.size;
  }

  /** Pieces in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Waits for a place; rejects with `aborted()` if the signal aborts first. */
  acquire(signal: AbortSignal, aborted: () => unknown = () => new Error('aborted')): Promise<WindowTicket> {
    if (signal.aborted) return Promise.reject(aborted());
    if (this.waiters.length === 0 && this.active < this.size) return Promise.resolve(this.take());
    return new Promise<WindowTicket>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(aborted());
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * Hands a place back. A refusal halves the window once per round: the pieces sent before the
   * last halving were refused by the same crowd, and counting each of them would drop the window
   * to 1 on one burst.
   */
  release(ticket: WindowTicket, outcome: PieceOutcome): void {
    this.active = Math.max(0, this.active - 1);
    if (outcome === 'busy') {
      this.slowStart = false;
      if (ticket.epoch === this.epoch) {
        this.size = Math.max(1, Math.floor(this.size / 2));
        this.epoch++;
      }
      this.successes = 0;
    } else if (outcome === 'taken' && this.size < this.max && this.slowStart) {
      this.size++;
    } else if (outcome === 'taken' && this.size < this.max) {
      this.successes++;
      if (this.successes >= this.growthSuccesses) {
        this.size++;
        this.successes = 0;
      }
    }
    this.drain();
  }

  private take(): WindowTicket {
    this.active++;
    return { epoch: this.epoch };
  }

  private drain(): void {
    while (this.active < this.size && this.waiters.length > 0) {
      const waiter = this.waiters.shift()!;
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.take());
    }
  }
}
