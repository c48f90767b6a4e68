import { Worker } from 'node:worker_threads';

/**
 * Running SHA-256 hashes of file ranges, computed on a worker thread. Hashing an upload costs
 * about 0.75 s of CPU per GB plus reading the bytes back; on the event loop that time is taken
 * from every other request of the instance (sign-ins, page loads, the pieces' own bookkeeping),
 * so the pieces are hashed where they wait on nothing but the disk.
 *
 * Each hash is named by a key. `feed` must continue exactly where the hash stands (a new key
 * starts at 0): a hash the worker no longer holds (it was dropped, or the worker was replaced
 * after a crash) is refused rather than silently restarted, so a caller can never digest a hash
 * that missed bytes.
 */
export interface RangeHasher {
  /**
   * Feeds hash `key` up to `length` bytes of the file at `path` from `start` (fewer at its end).
   * Resolves with the bytes fed and the file's identity (device:inode), so a caller can tell
   * whether the bytes came from the file it expected.
   */
  feed(key: string, path: string, start: number, length: number): Promise<{ fed: number; file: string }>;
  /** The hex digest of hash `key`, which ends it. */
  digest(key: string): Promise<string>;
  /** Forgets hash `key` (no answer; unknown keys are ignored). */
  drop(key: string): void;
}

type Message =
  | { op: 'feed'; key: string; path: string; start: number; length: number }
  | { op: 'digest'; key: string }
  | { op: 'drop'; key: string };
type Request = Message & { id: number };
type Answer = { id: number; fed?: number; file?: string; hex?: string; error?: string };

// The worker's source, plain JavaScript inline: the same code runs under tsx, vitest and the
// esbuild bundle, with no second entry point to ship and nothing a bundler could rename.
const WORKER_SOURCE = `
const { createHash } = require('node:crypto');
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
const hashes = new Map(); // key -> { hash, at }
const buf = Buffer.allocUnsafe(1 << 20);

function handle(msg) {
  if (msg.op === 'drop') {
    hashes.delete(msg.key);
    return null;
  }
  const state = hashes.get(msg.key);
  if (msg.op === 'digest') {
    if (!state) return { error: 'no hash ' + msg.key };
    hashes.delete(msg.key);
    return { hex: state.hash.digest('hex') };
  }
  const at = state ? state.at : 0;
  if (msg.start !== at) return { error: 'hash ' + msg.key + ' stands at ' + at + ', not ' + msg.start };
  const current = state || { hash: createHash('sha256'), at: 0 };
  hashes.set(msg.key, current);
  let fd;
  try {
    fd = openSync(msg.path, 'r');
    const s = fstatSync(fd, { bigint: true });
    let fed = 0;
    while (fed < msg.length) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, msg.length - fed), msg.start + fed);
      if (n === 0) break;
      current.hash.update(buf.subarray(0, n));
      fed += n;
    }
    current.at += fed;
    return { fed, file: s.dev + ':' + s.ino };
  } catch (err) {
    // Part of the range may be in the hash: it cannot be trusted any more.
    hashes.delete(msg.key);
    return { error: String((err && err.message) || err) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

parentPort.on('message', (msg) => {
  const answer = handle(msg);
  if (answer) parentPort.postMessage(Object.assign({ id: msg.id }, answer));
});
`;

/** A hasher on its own worker thread, restarted on demand if the thread dies (its hashes are then refused, see above). */
export function createThreadHasher(): RangeHasher {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();

  function start(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    // Never what keeps a process alive: idle, it waits for nothing.
    w.unref();
    w.on('message', (answer: Answer) => {
      const entry = waiting.get(answer.id);
      if (!entry) return;
      waiting.delete(answer.id);
      entry.resolve(answer);
    });
    const fail = (err: Error) => {
      if (worker !== w) return;
      worker = null;
      for (const [id, entry] of waiting) {
        waiting.delete(id);
        entry.reject(err);
      }
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`hash worker exited with ${code}`)));
    return w;
  }

  function ask(msg: Message): Promise<Answer> {
    worker ??= start();
    const id = ++seq;
    const w = worker;
    return new Promise<Answer>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      // Only while answers are awaited does the thread keep the process alive.
      if (waiting.size === 1) w.ref();
      w.postMessage({ ...msg, id });
    }).finally(() => {
      if (waiting.size === 0 && worker === w) w.unref();
    });
  }

  return {
    async feed(key, path, start, length) {
      const answer = await ask({ op: 'feed', key, path, start, length });
      if (answer.error !== undefined) throw new Error(answer.error);
      return { fed: answer.fed!, file: answer.file! };
    },
    async digest(key) {
      const answer = await ask({ op: 'digest', key });
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.hex!;
    },
    drop(key) {
      if (worker) worker.postMessage({ id: 0, op: 'drop', key } satisfies Request);
    },
  };
}

let shared: RangeHasher | null = null;
/** One hashing thread per process, started on first use. */
export function processHasher(): RangeHasher {
  shared ??= createThreadHasher();
  return shared;
}
