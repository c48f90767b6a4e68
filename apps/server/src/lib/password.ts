import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MSG } from '@contest/shared';
import { AppError } from './errors.js';

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes): ~30 ms here.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Seconds a refused caller is told to wait (Retry-After) before it tries again. */
export const PASSWORD_BUSY_RETRY_SECONDS = 2;

/**
 * Password hashing runs on threads of its own with a bounded line (docs/performance.md,
 * "Sign-in bursts"). On libuv's pool (what the library's async calls use) a burst of sign-ins
 * took all four threads that file reads and writes also need, and each sign-in waited behind the
 * whole burst: 15 s at the 99th percentile in the deadline rush. Here at most `threads` hashes run
 * at once, and a sign-in is admitted (`admit()`, before anything of the attempt is used up, such
 * as the captcha's nonce) only while at most `maxWaiting` others wait (about a second); beyond
 * that it is refused at once with 503 `data.reason = 'BUSY'` and Retry-After, which the web client
 * waits out and retries. A hash or a check already admitted is never refused (a registration has
 * used its SMS code by the time it hashes). Administrators' bulk work (expert imports, the seed)
 * waits behind the sign-ins.
 */
export interface PasswordPoolOptions {
  /** Hashes computed at once, each on its own thread. */
  threads: number;
  /** Interactive calls that may wait for a thread before `admit()` refuses (0: refuse unless a thread is free). */
  maxWaiting: number;
}

export interface PasswordPool {
  /** Throws `passwordBusy()` when the line is full: call it before the attempt uses anything up. */
  admit(): void;
  hash(plain: string, opts?: { bulk?: boolean }): Promise<string>;
  verify(stored: string, plain: string): Promise<boolean>;
  /** Calls running and waiting now (for tests and the health report). */
  load(): { running: number; waiting: number };
  /** Ends the threads; calls still waiting are refused. */
  close(): Promise<void>;
}

type Op = { op: 'hash'; plain: string } | { op: 'verify'; stored: string; plain: string };
type Job = Op & { bulk: boolean; resolve(value: string | boolean): void; reject(err: Error): void };
type Answer = { id: number; value?: string | boolean; error?: string };

// The worker's source, plain JavaScript inline (as in modules/files/range-hasher.ts): the same code
// runs under tsx, vitest and the bundle. The library is required by its resolved path, so the
// thread finds it wherever the process was started from. The synchronous calls keep the work on
// this thread instead of handing it to libuv's shared pool.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
parentPort.on('message', (msg) => {
  let answer;
  try {
    if (msg.op === 'hash') answer = { id: msg.id, value: argon2.hashSync(msg.plain, workerData.options) };
    else {
      let ok = false;
      try { ok = argon2.verifySync(msg.stored, msg.plain); } catch { ok = false; }
      answer = { id: msg.id, value: ok };
    }
  } catch (err) {
    answer = { id: msg.id, error: String((err && err.message) || err) };
  }
  parentPort.postMessage(answer);
});
`;

const ARGON2_PATH = createRequire(import.meta.url).resolve('@node-rs/argon2');

export const passwordBusy = () => new AppError('SERVICE_UNAVAILABLE', MSG.busy, { reason: 'BUSY', retryAfterSeconds: PASSWORD_BUSY_RETRY_SECONDS });

export function createPasswordPool(options: PasswordPoolOptions): PasswordPool {
  const threads = Math.max(1, Math.floor(options.threads));
  const maxWaiting = Math.max(0, Math.floor(options.maxWaiting));
  type Slot = { worker: Worker | null; job: (Job & { id: number }) | null };
  const slots: Slot[] = Array.from({ length: threads }, () => ({ worker: null, job: null }));
  const interactive: Job[] = [];
  const bulk: Job[] = [];
  let seq = 0;
  let closed = false;

  function start(slot: Slot): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2: ARGON2_PATH, options: OPTIONS } });
    // Idle, a thread keeps nothing alive (a test process or a CLI ends when its work is done).
    w.unref();
    w.on('message', (answer: Answer) => {
      const job = slot.job;
      if (!job || job.id !== answer.id) return;
      slot.job = null;
      w.unref();
      if (answer.error !== undefined) job.reject(new Error(answer.error));
      else job.resolve(answer.value!);
      dispatch();
    });
    const fail = (err: Error) => {
      if (slot.worker !== w) return;
      // The next job starts a new thread; the one in hand is lost with this one.
      slot.worker = null;
      const job = slot.job;
      slot.job = null;
      job?.reject(err);
      dispatch();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`password worker exited with ${code}`)));
    return w;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.job) continue;
      const next = interactive.shift() ?? bulk.shift();
      if (!next) return;
      const job = Object.assign(next, { id: ++seq });
      slot.worker ??= start(slot);
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.op === 'hash' ? { id: job.id, op: job.op, plain: job.plain } : { id: job.id, op: job.op, stored: job.stored, plain: job.plain });
    }
  }

  function run<T extends string | boolean>(op: Op, isBulk: boolean): Promise<T> {
    if (closed) return Promise.reject(passwordBusy());
    return new Promise<T>((resolve, reject) => {
      const job = { ...op, bulk: isBulk, resolve: resolve as Job['resolve'], reject } as Job;
      (isBulk ? bulk : interactive).push(job);
      dispatch();
    });
  }

  return {
    admit() {
      if (closed) throw passwordBusy();
      if (slots.some((s) => !s.job)) return;
      if (interactive.length >= maxWaiting) throw passwordBusy();
    },
    hash: (plain, opts) => run<string>({ op: 'hash', plain }, opts?.bulk === true),
    verify: (stored, plain) => run<boolean>({ op: 'verify', stored, plain }, false),
    load: () => ({ running: slots.filter((s) => s.job).length, waiting: interactive.length + bulk.length }),
    async close() {
      closed = true;
      for (const job of [...interactive.splice(0), ...bulk.splice(0)]) job.reject(passwordBusy());
      await Promise.all(
        slots.map(async (slot) => {
          const w = slot.worker;
          slot.worker = null;
          slot.job?.reject(passwordBusy());
          slot.job = null;
          if (w) await w.terminate();
        }),
      );
    },
  };
}

/** The process's pool: one thread and a line of 32 until the app configures it from its settings. */
let pool: PasswordPool | null = null;
let poolOptions: PasswordPoolOptions = { threads: 1, maxWaiting: 32 };

/** Sets the process's pool (at start, from config: PASSWORD_THREADS, PASSWORD_MAX_WAITING). */
export function configurePasswordPool(options: PasswordPoolOptions): void {
  if (pool && options.threads === poolOptions.threads && options.maxWaiting === poolOptions.maxWaiting) return;
  const old = pool;
  pool = null;
  poolOptions = options;
  // Calls already taken by the old pool finish there.
  void old?.close();
}

function current(): PasswordPool {
  return (pool ??= createPasswordPool(poolOptions));
}

/** A sign-in's admission: throws 503 BUSY when the line is full (see PasswordPoolOptions). */
export function admitPasswordCheck(): void {
  current().admit();
}

/** `bulk`: an administrator's batch (imports, the seed): runs after the sign-ins waiting. */
export function hashPassword(plain: string, opts?: { bulk?: boolean }): Promise<string> {
  return current().hash(plain, opts);
}

/** False for a wrong password or a malformed stored hash. */
export function verifyPassword(stored: string, plain: string): Promise<boolean> {
  return current().verify(stored, plain);
}

const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIALS = '@$!%*?&';

/** A random password that satisfies the portal's rule (letter, digit, special, 8-16). */
export function generatePassword(length = 14): string {
  const pick = (set: string) => set[randomInt(set.length)]!;
  const all = LETTERS + DIGITS + SPECIALS;
  const chars = [pick(LETTERS), pick(DIGITS), pick(SPECIALS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
