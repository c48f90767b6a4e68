/**
 * The multi-file uploader's engine, free of React (docs/uploader.md): checks picked files, queues them, uploads at most two files at once in
 * 5 MB pieces with up to five pieces of a file in flight, reports progress, and resumes a
 * retried file from the pieces the server already holds. A piece the server is too busy to take
 * (429) is sent again after the wait it names: the file stays "uploading", its progress holds;
 * and the queue then sends fewer pieces at once, growing back as pieces are taken (AIMD,
 * congestion-window.ts), so a crowd of uploads does not keep sending bodies only to be refused.
 */
import {
  DIRECT_PART_SIZE,
  UPLOAD_CONCURRENT_FILES,
  UPLOAD_PIECES_IN_FLIGHT,
  UPLOAD_PIECE_SIZE,
  UPLOAD_RESTART_REASON,
  fileExtensionOf,
  type AttachmentOrigin,
  type DirectPartLink,
} from '@contest/shared';
import { ApiError } from '../../api';
import { CongestionWindow, SLOW_START_PIECES, WINDOW_GROWTH_SUCCESSES } from './congestion-window';
import { rejectionOf, type FileLimits } from './file-checks';
import { hashFile, partSha256 } from './file-hash';
import { fileFingerprint, type ResumeRegistry } from './resume-registry';
import { createUploadId } from './upload-id';
import {
  DirectUnavailableError,
  PartLinkExpiredError,
  PartsMissingError,
  UploadBusyError,
  type DirectTransport,
  type StoredFile,
  type UploadEntry,
  type UploadStatus,
  type UploadTransport,
} from './upload-types';

/** Progress shown while the server has not yet answered with the stored file. */
export const PROGRESS_CAP = 99;
/** Longest wait before sending a refused piece again: the server asks at most 60 s. */
export const BUSY_WAIT_CAP_MS = 60_000;
/**
 * A piece refused as busy for this long in all gives the file up (上传失败!, retry possible): only
 * a server that never frees a place gets there, a crowd of uploads clears long before.
 */
export const BUSY_GIVE_UP_MS = 15 * 60_000;
/** Part links asked for in one call: few enough that the last is sent well before its link expires. */
export const DIRECT_SIGN_BATCH = 20;
/** A part link this close to its expiry is signed again before the part is sent. */
export const LINK_RENEW_MARGIN_MS = 30_000;
/** Times one part's link is signed again after the store said it expired, before the file fails. */
export const LINK_RENEWALS = 3;
/** Rounds of "parts missing" at completion before the file fails. */
export const MISSING_ROUNDS = 3;

export interface UploadQueueOptions extends FileLimits {
  transport: UploadTransport;
  origin: AttachmentOrigin;
  /** How many files the form value holds now; they count towards maxCount. */
  valueCount(): number;
  /** A file was stored; the owner adds it to the value. The entry leaves the queue's list. */
  onUploaded(entry: UploadEntry, stored: StoredFile): void;
  /** Null disables resuming (every attempt gets a fresh upload id). */
  resume?: ResumeRegistry | null;
  pieceSize?: number;
  piecesInFlight?: number;
  concurrentFiles?: number;
  /** Pieces the queue sends at once before any is taken (slow start, congestion-window.ts); default 2. */
  slowStartPieces?: number;
  now?: () => number;
  createUid?: () => string;
  /** Waits `ms`, rejecting when `signal` aborts (tests pass their own clock). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** 0..1, for spreading the waits of refused pieces. */
  random?: () => number;
  /** Part links asked for in one call (direct upload); default DIRECT_SIGN_BATCH. */
  signBatch?: number;
}

interface Run {
  controller: AbortController;
}

/** Thrown inside a run that was aborted, so the abort is not mistaken for an upload failure. */
class RunAborted extends Error {}

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new RunAborted());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The wait before sending a refused piece again: what the server asked (capped), plus up to half
 * as much again at random, so the pieces refused together do not all come back together.
 */
export function busyDelayMs(retryAfterMs: number, random: number): number {
  const base = Math.min(Math.max(retryAfterMs, 0), BUSY_WAIT_CAP_MS);
  return Math.round(base + base * 0.5 * random);
}

/** The server dropped the upload (its join was cut off): resuming its id would find nothing. */
function mustStartOver(err: unknown): boolean {
  const data = (err as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && (data as { reason?: unknown }).reason === UPLOAD_RESTART_REASON;
}

export class UploadQueue {
  private list: readonly UploadEntry[] = [];
  private readonly files = new Map<string, File>();
  private readonly runs = new Map<string, Run>();
  private readonly listeners = new Set<() => void>();
  private destroyed = false;
  /** Pieces of all the queue's files in flight at once, shrunk by refusals (AIMD). */
  private readonly window: CongestionWindow;

  constructor(private options: UploadQueueOptions) {
    const files = options.concurrentFiles ?? UPLOAD_CONCURRENT_FILES;
    const pieces = options.piecesInFlight ?? UPLOAD_PIECES_IN_FLIGHT;
    this.window = new CongestionWindow(files * pieces, WINDOW_GROWTH_SUCCESSES, options.slowStartPieces ?? SLOW_START_PIECES);
  }

  /** Pieces the queue sends at once now (its congestion window). */
  piecesWindow(): number {
    return this.window.limit;
  }

  /** The rows, oldest first; a new array after every change (usable with useSyncExternalStore). */
  entries(): readonly UploadEntry[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Later option changes (accept, sizes, origin) apply to files picked from then on. */
  setOptions(options: Partial<UploadQueueOptions>): void {
    this.options = { ...this.options, ...options };
  }

  /** Files in the value plus those waiting or uploading: what maxCount limits. */
  occupied(): number {
    return this.options.valueCount() + this.list.filter((e) => e.status === 'waiting' || e.status === 'uploading').length;
  }

  isFull(): boolean {
    const { maxCount } = this.options;
    return Boolean(maxCount) && this.occupied() >= maxCount!;
  }

  /** Checks each file in order (a refused one does not take a place) and queues the rest. */
  add(files: Iterable<File>): void {
    if (this.destroyed) return;
    const now = this.options.now ?? Date.now;
    const added: UploadEntry[] = [];
    for (const file of files) {
      const occupied = this.occupied() + added.filter((e) => e.status === 'waiting').length;
      const rejection = rejectionOf(file, this.options, occupied);
      const uid = (this.options.createUid ?? createUploadId)();
      added.push({
        uid,
        fileName: file.name,
        fileType: fileExtensionOf(file.name),
        fileSize: file.size,
        status: rejection ?? 'waiting',
        percent: 0,
        uploadTimestamp: now(),
        file,
      });
      if (!rejection) this.files.set(uid, file);
    }
    if (added.length === 0) return;
    this.list = [...this.list, ...added];
    this.emit();
    this.pump();
  }

  /** Aborts a running upload: 已取消!. */
  cancel(uid: string): void {
    if (this.entry(uid)?.status !== 'uploading') return;
    this.stop(uid, 'error_cancel');
  }

  /**
   * Removes a file the user no longer wants. A waiting (or running) file is marked deleted
   * and leaves the queue; a row already in an error state is dropped from the list.
   */
  remove(uid: string): void {
    const entry = this.entry(uid);
    if (!entry) return;
    if (entry.status === 'waiting' || entry.status === 'uploading') {
      this.stop(uid, 'error_deleted');
      return;
    }
    this.files.delete(uid);
    this.list = this.list.filter((e) => e.uid !== uid);
    this.emit();
  }

  /** Shows a file removed from the value as a 已删除! row (it cannot be retried). */
  markDeleted(item: { uid: string; fileName: string; fileSize: number }): void {
    if (this.destroyed) return;
    const now = this.options.now ?? Date.now;
    this.list = [
      ...this.list.filter((e) => e.uid !== item.uid),
      {
        uid: item.uid,
        fileName: item.fileName,
        fileType: fileExtensionOf(item.fileName),
        fileSize: item.fileSize,
        status: 'error_deleted',
        percent: 0,
        uploadTimestamp: now(),
      },
    ];
    this.emit();
  }

  /** Puts a failed or cancelled file back in the queue; it resumes from the server's pieces. */
  retry(uid: string): void {
    const entry = this.entry(uid);
    const file = this.files.get(uid);
    if (!entry || !file || (entry.status !== 'error_upload' && entry.status !== 'error_cancel')) return;
    const { maxCount } = this.options;
    const status: UploadStatus = maxCount && this.occupied() >= maxCount ? 'error_exceedUploadMaxNum' : 'waiting';
    this.update(uid, { status, percent: 0 });
    this.pump();
  }

  canRetry(uid: string): boolean {
    const entry = this.entry(uid);
    return this.files.has(uid) && (entry?.status === 'error_upload' || entry?.status === 'error_cancel');
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Leaving the screen: active uploads are aborted, nothing starts or reports any more. */
  destroy(): void {
    // Flag first: stopping a run would otherwise start the next waiting file.
    this.destroyed = true;
    this.listeners.clear();
    for (const uid of [...this.runs.keys()]) this.stop(uid, 'error_cancel');
  }

  // -------------------------------------------------------------------------------------

  private entry(uid: string): UploadEntry | undefined {
    return this.list.find((e) => e.uid === uid);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  private update(uid: string, patch: Partial<UploadEntry>): void {
    this.list = this.list.map((e) => (e.uid === uid ? { ...e, ...patch } : e));
    this.emit();
  }

  private stop(uid: string, status: UploadStatus): void {
    const run = this.runs.get(uid);
    if (run) {
      // The slot is free at once; the aborted run's late settling no longer touches state.
      this.runs.delete(uid);
      run.controller.abort();
    }
    if (status === 'error_deleted') this.files.delete(uid);
    this.update(uid, { status });
    this.pump();
  }

  /** Starts waiting files, oldest first, while fewer than the allowed number run. */
  private pump(): void {
    if (this.destroyed) return;
    const limit = this.options.concurrentFiles ?? UPLOAD_CONCURRENT_FILES;
    while (this.runs.size < limit) {
      const next = this.list.find((e) => e.status === 'waiting');
      if (!next) return;
      this.start(next);
    }
  }

  private start(entry: UploadEntry): void {
    const file = this.files.get(entry.uid);
    if (!file) {
      this.update(entry.uid, { status: 'error_upload' });
      return;
    }
    const run: Run = { controller: new AbortController() };
    this.runs.set(entry.uid, run);
    this.update(entry.uid, { status: 'uploading', percent: 0 });

    const live = () => this.runs.get(entry.uid) === run && !this.destroyed;
    const fingerprint = fileFingerprint(this.options.origin, file);
    this.upload(file, run, live, fingerprint, (percent) => {
      if (live() && this.entry(entry.uid)?.percent !== percent) this.update(entry.uid, { percent });
    }).then(
      (stored) => {
        if (!live()) return;
        this.runs.delete(entry.uid);
        this.options.resume?.finish(fingerprint);
        this.files.delete(entry.uid);
        const done: UploadEntry = { ...this.entry(entry.uid)!, status: 'ok', percent: 100 };
        this.list = this.list.filter((e) => e.uid !== entry.uid);
        this.options.onUploaded(done, stored);
        this.emit();
        this.pump();
      },
      (err: unknown) => {
        if (!live()) return;
        this.runs.delete(entry.uid);
        // A retry then sends the whole file under a new id.
        if (mustStartOver(err)) this.options.resume?.finish(fingerprint);
        this.update(entry.uid, { status: 'error_upload' });
        this.pump();
      },
    );
  }

  private async upload(
    file: File,
    run: Run,
    live: () => boolean,
    fingerprint: string,
    report: (percent: number) => void,
  ): Promise<StoredFile> {
    const direct = this.options.transport.direct;
    const resume = this.options.resume ?? null;
    if (direct) {
      const known = resume?.direct(fingerprint) ?? null;
      // A file begun in pieces goes on in pieces: the server holds them.
      if (known || (direct.offered() && !resume?.hasPieces(fingerprint))) {
        try {
          return await this.uploadDirect(direct, file, run, live, fingerprint, report, known?.id ?? null);
        } catch (err) {
          if (!(err instanceof DirectUnavailableError)) throw err;
          // The store is the disk (or out of the page's reach): pieces, silently, for this file and
          // (offered() now false) the next ones.
          resume?.finish(fingerprint);
          if (!live()) throw new RunAborted();
          // A failed part aborted its siblings through the run's signal; the pieces need a live one.
          if (run.controller.signal.aborted) run.controller = new AbortController();
        }
      }
    }
    return this.uploadPieces(file, run, live, fingerprint, report);
  }

  /** What both paths share: progress that never goes back, the window, and the waits of busy answers. */
  private sender(file: File, sizeOf: (chunk: number) => number, run: Run, live: () => boolean, report: (percent: number) => void) {
    const { signal } = run.controller;
    const sent = new Map<number, number>();
    // Never shown going back: a refused piece's bytes are counted again when it is sent again.
    let shown = 0;
    const show = () => {
      let bytes = 0;
      for (const value of sent.values()) bytes += value;
      const percent = file.size === 0 ? 0 : Math.min(PROGRESS_CAP, Math.floor((bytes / file.size) * 100));
      shown = Math.max(shown, percent);
      report(shown);
    };
    const sleep = this.options.sleep ?? sleepFor;
    const random = this.options.random ?? Math.random;
    const window = this.window;

    /** Runs `call` again after each busy answer (429; for the store also 5xx and lost connections), as often as asked. */
    const whileBusy = async <T>(call: () => Promise<T>, onBusy: () => void = () => {}): Promise<T> => {
      let waited = 0;
      for (;;) {
        try {
          return await call();
        } catch (err) {
          if (!(err instanceof UploadBusyError) || waited >= BUSY_GIVE_UP_MS) throw err;
          if (!live()) throw new RunAborted();
          onBusy();
          const delay = busyDelayMs(err.retryAfterMs, random());
          waited += delay;
          await sleep(delay, signal);
          if (!live()) throw new RunAborted();
        }
      }
    };

    type Post = (chunk: number, onProgress: (fraction: number) => void) => Promise<StoredFile | null>;
    /** Sends one chunk: a place in the queue's window, handed back with its outcome; busy answers wait and go again. */
    const send = (chunk: number, post: Post): Promise<StoredFile | null> =>
      whileBusy(
        async () => {
          const ticket = await window.acquire(signal, () => new RunAborted());
          try {
            const stored = await post(chunk, (fraction) => {
              sent.set(chunk, Math.max(0, Math.min(1, fraction)) * sizeOf(chunk));
              show();
            });
            window.release(ticket, 'taken');
            return stored;
          } catch (err) {
            window.release(ticket, err instanceof UploadBusyError ? 'busy' : 'other');
            throw err;
          }
        },
        () => sent.set(chunk, 0),
      );

    /**
     * Sends the chunks of `pending` (taken from its front), `inFlight` at a time. One failed chunk
     * fails the file: its siblings stop rather than upload in vain. Resolves a stored file an
     * answer carried, else null.
     */
    const sendAll = async (pending: number[], inFlight: number, post: Post): Promise<StoredFile | null> => {
      let failed = false;
      const worker = async () => {
        while (pending.length > 0 && !failed) {
          const chunk = pending.shift()!;
          try {
            const stored = await send(chunk, post);
            if (stored) return stored;
            sent.set(chunk, sizeOf(chunk));
            show();
          } catch (err) {
            failed = true;
            throw err;
          }
        }
        return null;
      };
      try {
        const results = await Promise.all(Array.from({ length: Math.min(inFlight, pending.length) }, worker));
        return results.find((r) => r !== null) ?? null;
      } catch (err) {
        run.controller.abort();
        throw err;
      }
    };

    return { sent, show, whileBusy, send, sendAll };
  }

  private async uploadPieces(
    file: File,
    run: Run,
    live: () => boolean,
    fingerprint: string,
    report: (percent: number) => void,
  ): Promise<StoredFile> {
    const { transport, origin } = this.options;
    const pieceSize = this.options.pieceSize ?? UPLOAD_PIECE_SIZE;
    const inFlight = this.options.piecesInFlight ?? UPLOAD_PIECES_IN_FLIGHT;
    const { signal } = run.controller;
    const ticket = this.options.resume?.take(fingerprint) ?? { uploadId: createUploadId(), resumed: false };

    // An empty file is still one (empty) piece, so the server creates it.
    const chunks = Math.max(1, Math.ceil(file.size / pieceSize));
    const sizeOf = (chunk: number) => Math.min(pieceSize, file.size - chunk * pieceSize);
    const last = chunks - 1;

    let received = new Set<number>();
    if (ticket.resumed) {
      try {
        received = new Set(await transport.receivedPieces(ticket.uploadId, signal));
      } catch {
        // Unknown to the server (or the check failed): upload everything again.
      }
    }
    if (!live()) throw new RunAborted();

    const { sent, show, send, sendAll } = this.sender(file, sizeOf, run, live, report);
    for (const chunk of received) if (chunk !== last && chunk >= 0 && chunk < chunks) sent.set(chunk, sizeOf(chunk));
    show();

    const post = (chunk: number, onProgress: (fraction: number) => void) =>
      transport.uploadPiece(
        {
          origin,
          uploadId: ticket.uploadId,
          chunks,
          chunk,
          name: file.name,
          blob: file.slice(chunk * pieceSize, chunk * pieceSize + sizeOf(chunk)),
        },
        { signal, onProgress },
      );

    // Every piece but the last, up to `inFlight` at a time. The last one goes alone at the
    // end, so the answer that completes the upload (and carries the stored file) is its own.
    const pending = Array.from({ length: last }, (_, i) => i).filter((chunk) => !received.has(chunk));
    const early = await sendAll(pending, inFlight, post);
    if (!live()) throw new RunAborted();
    // A server that already joined the file on an earlier piece has answered with it.
    if (early) return early;

    const stored = await send(last, post);
    if (!stored) throw new Error('The last piece was accepted but no stored file came back');
    return stored;
  }

  /**
   * Direct upload to the store (docs/uploader.md, "Direct upload"): the whole file's SHA-256, a
   * start, part links signed in batches, each part PUT to the store, then the completion. A
   * remembered upload (`knownId`) resumes from the parts the store holds.
   */
  private async uploadDirect(
    direct: DirectTransport,
    file: File,
    run: Run,
    live: () => boolean,
    fingerprint: string,
    report: (percent: number) => void,
    knownId: string | null,
  ): Promise<StoredFile> {
    const { origin } = this.options;
    const resume = this.options.resume ?? null;
    const partSize = this.options.pieceSize ?? DIRECT_PART_SIZE;
    const inFlight = this.options.piecesInFlight ?? UPLOAD_PIECES_IN_FLIGHT;
    const signBatch = this.options.signBatch ?? DIRECT_SIGN_BATCH;
    const now = this.options.now ?? Date.now;
    const { signal } = run.controller;
    const chunks = Math.max(1, Math.ceil(file.size / partSize));
    const sizeOf = (chunk: number) => Math.min(partSize, file.size - chunk * partSize);
    const blobOf = (chunk: number) => file.slice(chunk * partSize, chunk * partSize + sizeOf(chunk));
    const { sent, show, whileBusy, sendAll } = this.sender(file, sizeOf, run, live, report);
    const hashes = new Map<number, string>();

    let id: string | null = null;
    let received: number[] = [];
    if (knownId) {
      try {
        const state = await whileBusy(() => direct.status(knownId, signal));
        if (state.stored) return state.stored;
        id = knownId;
        received = state.received;
      } catch (err) {
        if (err instanceof DirectUnavailableError || err instanceof RunAborted) throw err;
        if (mustStartOver(err) || (err instanceof ApiError && err.status === 404)) {
          // The server dropped the upload (refused, swept): the file starts over.
          resume?.finish(fingerprint);
        } else {
          // The check failed: every part goes again (a part sent again replaces the store's copy).
          id = knownId;
        }
      }
    }
    if (!live()) throw new RunAborted();
    if (id === null) {
      // Until a start has answered, one file at a time: on a disk store only the first is hashed in vain.
      const done = await direct.begin();
      try {
        if (!live()) throw new RunAborted();
        if (!direct.offered()) throw new DirectUnavailableError();
        const whole = await hashFile(file, partSize, signal, () => new RunAborted());
        whole.parts.forEach((hash, chunk) => hashes.set(chunk, hash));
        if (!live()) throw new RunAborted();
        const state = await whileBusy(() => direct.start({ origin, name: file.name, size: file.size, sha256: whole.sha256 }, signal));
        if (!live()) throw new RunAborted();
        id = state.id;
        resume?.rememberDirect(fingerprint, id);
      } finally {
        done();
      }
    }
    const uploadId = id;
    for (const chunk of received) if (chunk >= 0 && chunk < chunks) sent.set(chunk, sizeOf(chunk));
    show();

    // Links are signed in batches: the chunk asked for and the next of the round's unsent ones without a fresh link.
    let pending: number[] = [];
    let unsent = new Set<number>();
    const links = new Map<number, DirectPartLink>();
    const signing = new Map<number, Promise<DirectPartLink>>();
    const fresh = (link: DirectPartLink | undefined) => link !== undefined && link.expiresAt - now() > LINK_RENEW_MARGIN_MS;
    const hashOf = async (chunk: number) => {
      let hash = hashes.get(chunk);
      if (hash === undefined) {
        hash = await partSha256(blobOf(chunk));
        hashes.set(chunk, hash);
      }
      return hash;
    };
    const linkFor = (chunk: number, stale?: DirectPartLink): Promise<DirectPartLink> => {
      const cached = links.get(chunk);
      if (cached !== stale && fresh(cached)) return Promise.resolve(cached!);
      const ongoing = signing.get(chunk);
      if (ongoing) return ongoing;
      const batch = [chunk];
      for (const next of unsent) {
        if (batch.length >= signBatch) break;
        if (next !== chunk && !signing.has(next) && !fresh(links.get(next))) batch.push(next);
      }
      const call = (async () => {
        const parts: { chunk: number; sha256: string }[] = [];
        for (const part of batch) parts.push({ chunk: part, sha256: await hashOf(part) });
        for (const link of await direct.sign(uploadId, parts, signal)) links.set(link.chunk, link);
      })();
      for (const part of batch) {
        const promise = call.then(() => {
          const link = links.get(part);
          if (!link) throw new Error(`No link came back for part ${part}`);
          return link;
        });
        signing.set(part, promise);
        const clear = () => {
          if (signing.get(part) === promise) signing.delete(part);
        };
        promise.then(clear, clear);
      }
      return signing.get(chunk)!;
    };
    const post = async (chunk: number, onProgress: (fraction: number) => void): Promise<null> => {
      let link = await linkFor(chunk);
      for (let renewed = 0; ; renewed++) {
        try {
          await direct.putPart(link, blobOf(chunk), { signal, onProgress });
          unsent.delete(chunk);
          return null;
        } catch (err) {
          if (!(err instanceof PartLinkExpiredError) || renewed >= LINK_RENEWALS) throw err;
          if (!live()) throw new RunAborted();
          onProgress(0);
          link = await linkFor(chunk, link);
        }
      }
    };

    const have = new Set(received);
    pending = Array.from({ length: chunks }, (_, i) => i).filter((chunk) => !have.has(chunk));
    for (let round = 0; ; round++) {
      unsent = new Set(pending);
      await sendAll(pending, inFlight, post);
      if (!live()) throw new RunAborted();
      try {
        return await whileBusy(() => direct.complete(uploadId, file.name, file.size, signal));
      } catch (err) {
        if (!(err instanceof PartsMissingError) || round >= MISSING_ROUNDS) throw err;
        if (!live()) throw new RunAborted();
        // The store lacks parts (one lost, or sent by another tab): send those, complete again.
        const held = new Set(err.received);
        pending = Array.from({ length: chunks }, (_, i) => i).filter((chunk) => !held.has(chunk));
      }
    }
  }
}
