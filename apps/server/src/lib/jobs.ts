/**
 * Durable background jobs (docs/decisions.md, "Jobs, templates and email") on the `jobs` table, with no job library: PGlite has one
 * connection and no LISTEN between processes, and the maintained PostgreSQL job libraries need
 * either (docs/decisions.md, "Jobs, templates and email").
 *
 * - A job is a row. `enqueueJob` inserts it in the caller's transaction, so it exists exactly when
 *   the change asking for it does; `dedupeKey` keeps one live (QUEUED or RUNNING) job per key.
 * - A runner claims one due job at a time in a short transaction (`FOR UPDATE SKIP LOCKED`): a
 *   QUEUED job whose `runAt` has come, or a RUNNING one whose heartbeat stopped (its instance
 *   died). It marks it RUNNING with its instance id, commits, and only then runs the handler, with
 *   a heartbeat timer. No transaction is ever held across a handler (on PGlite that would block
 *   every other query of the process).
 * - Success: DONE. A throw: QUEUED again after a backoff, until the kind's maximum of attempts,
 *   then FAILED with the error. A claim counts as an attempt, so a job that keeps killing its
 *   instance fails too instead of looping forever.
 * - Handlers must be idempotent: a job whose instance died is run again from the start, and
 *   resumes from its own records (e.g. notice_outbox's unique batch + recipient + channel).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { readModel } from '../db/read-model.js';
import { jobs } from '../db/schema/lib.js';

export type JobRow = typeof jobs.$inferSelect;

/** The jobs table as modules read it (docs/architecture.md, "Database"): job state changes only through this file. */
export const jobsView = readModel(jobs, 'jobs_view');
export type JobStatus = JobRow['status'];

export interface EnqueueJobInput {
  kind: string;
  payload?: Record<string, unknown>;
  /** Units of work, when known up front (recipients, rows). */
  total?: number;
  /** One live job per key: a second enqueue while one is QUEUED or RUNNING returns that one's id. */
  dedupeKey?: string;
  /** Not before this time (default: the database's now(), the clock runners claim by). */
  runAt?: Date | SQL;
}

/**
 * Queues a job in the caller's transaction and returns its id; with a `dedupeKey` that already
 * has a live job, nothing is inserted and the live job's id is returned. Wake a runner with
 * `kick()` after the commit.
 */
export async function enqueueJob(tx: Db, input: EnqueueJobInput): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await tx
      .insert(jobs)
      .values({
        kind: input.kind,
        payload: input.payload ?? {},
        total: input.total ?? 0,
        dedupeKey: input.dedupeKey ?? null,
        ...(input.runAt ? { runAt: input.runAt } : {}),
      })
      // The only unique index besides the key is the partial one on live dedupe keys.
      .onConflictDoNothing()
      .returning({ id: jobs.id });
    if (row) return row.id;
    const [live] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.dedupeKey, input.dedupeKey!), inArray(jobs.status, ['QUEUED', 'RUNNING'])))
      .limit(1);
    if (live) return live.id;
    // The live job finished between the insert and the read: the insert now succeeds.
  }
  throw new Error(`could not enqueue job ${input.kind} (${input.dedupeKey})`);
}

/** A job's progress as a page shows it (bulk sends, exports). */
export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  done: number;
  total: number;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export async function readJob(db: Db, id: string): Promise<JobView | null> {
  const [row] = await db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      status: jobs.status,
      done: jobs.done,
      total: jobs.total,
      attempts: jobs.attempts,
      lastError: jobs.lastError,
      createdAt: jobs.createdAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(eq(jobs.id, id))
    .limit(1);
  return row ?? null;
}

export interface JobContext {
  /** The database (not a transaction): open short transactions of your own. */
  db: Db;
  /** Records progress (and beats the heart): `done` of `total` units (total unchanged when omitted). */
  progress(done: number, total?: number): Promise<void>;
  /**
   * Aborted when this instance stops or lost the job (its heartbeat was late and another
   * instance took it over): stop at the next safe point; the job runs again elsewhere.
   */
  signal: AbortSignal;
}

export type JobHandler = (job: JobRow, ctx: JobContext) => Promise<unknown>;

export interface JobKindOptions {
  /** Attempts before FAILED (default: the runner's). */
  maxAttempts?: number;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  db: Db;
  log?: JobLogger;
  /**
   * Tests move the clock: all job times are then written and compared from it (enqueue such
   * tests' jobs with `runAt` from it too). Without it every time is the database's now(), for
   * stamping and claiming alike (docs/decisions.md, "One clock for jobs").
   */
  now?: () => Date;
  /** Written to `lockedBy`; default host:pid:random. */
  instanceId?: string;
  /** Poll interval while started (default 5 s). */
  pollMs?: number;
  /** Heartbeat interval of a running job (default 10 s). */
  heartbeatMs?: number;
  /** A RUNNING job whose heartbeat is older than this is taken over (default 60 s). */
  staleMs?: number;
  /** Attempts before FAILED (default 5). */
  maxAttempts?: number;
  /** Delay before attempt n+1 after n failed attempts (default 30 s doubling, at most 1 h). */
  backoffMs?: (attempts: number) => number;
  /** Jobs this instance runs at once (default 2). */
  concurrency?: number;
  /** How long `stop()` waits for running handlers after aborting them (default 5 s). */
  stopWaitMs?: number;
}

export interface ScheduleOptions {
  kind: string;
  /** The next run is queued this long after one finishes (DONE or FAILED). */
  everyMs: number;
  /** Default: the kind. */
  dedupeKey?: string;
  payload?: Record<string, unknown>;
}

const defaultBackoff = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
/** How often a started runner re-queues a schedule whose chain was lost (a kill between two runs). */
const SCHEDULE_CHECK_MS = 10 * 60_000;

const errorText = (err: unknown) => String(err instanceof Error ? err.message || err.name : err).slice(0, 1000);

/**
 * The worker side of the jobs: `register` handlers per kind, `start()` with the app (polls every
 * `pollMs`), `kick()` after an enqueue, `stop()` on close. `runDue()` runs everything due now and
 * resolves when done (tests drive runners with it). A runner only claims kinds it has handlers
 * for, so instances of different versions never run each other's work.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { db, log } = options;
  const testClock = options.now;
  /**
   * The time of a claim or a stamp: the database's now() (one clock for every instance and for
   * enqueueJob's default run_at; a Node clock a little behind it, or truncated to the
   * millisecond where the database keeps microseconds, left a job just enqueued not yet due).
   */
  const now = (): Date | SQL => (testClock ? testClock() : sql`now()`);
  /** `now()` moved by `ms` (negative: earlier). */
  const nowPlus = (ms: number): Date | SQL =>
    testClock ? new Date(testClock().getTime() + ms) : sql`(now() + ${ms}::double precision * interval '1 millisecond')`;
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const pollMs = options.pollMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const staleMs = options.staleMs ?? 60_000;
  const defaultMax = options.maxAttempts ?? 5;
  const backoff = options.backoffMs ?? defaultBackoff;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const stopWaitMs = options.stopWaitMs ?? 5_000;

  const handlers = new Map<string, { handler: JobHandler; maxAttempts: number }>();
  const schedules = new Map<string, ScheduleOptions & { dedupeKey: string }>();
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();

  let started = false;
  let stopping = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let scheduleTimer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;

  const maxOf = (kind: string) => handlers.get(kind)?.maxAttempts ?? defaultMax;

  /** The next run of a scheduled kind, in the transaction that finished the last one. */
  async function queueNext(tx: Db, kind: string): Promise<void> {
    const schedule = schedules.get(kind);
    if (!schedule) return;
    await enqueueJob(tx, { kind, payload: schedule.payload, dedupeKey: schedule.dedupeKey, runAt: nowPlus(schedule.everyMs) });
  }

  async function ensureSchedules(): Promise<void> {
    if (schedules.size === 0) return;
    await db.transaction(async (tx) => {
      for (const s of schedules.values()) await enqueueJob(tx, { kind: s.kind, payload: s.payload, dedupeKey: s.dedupeKey, runAt: now() });
    });
  }

  /** One due job, claimed and marked RUNNING in a short transaction; null when none is due. */
  async function claim(): Promise<JobRow | null> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return null;
    for (;;) {
      const outcome = await db.transaction(async (tx): Promise<JobRow | null | 'again'> => {
        const at = now();
        const [row] = await tx
          .select()
          .from(jobs)
          .where(
            and(
              inArray(jobs.kind, kinds),
              or(
                and(eq(jobs.status, 'QUEUED'), lte(jobs.runAt, at)),
                and(eq(jobs.status, 'RUNNING'), or(isNull(jobs.heartbeatAt), lt(jobs.heartbeatAt, nowPlus(-staleMs)))),
              ),
            ),
          )
          .orderBy(asc(jobs.runAt), asc(jobs.createdAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!row) return null;
        if (row.status === 'RUNNING' && row.attempts >= maxOf(row.kind)) {
          // Its instance died on every attempt: stop trying.
          await tx
            .update(jobs)
            .set({ status: 'FAILED', lastError: `instance ${row.lockedBy ?? '?'} stopped while running it (heartbeat lost)`, lockedBy: null, finishedAt: at })
            .where(eq(jobs.id, row.id));
          await queueNext(tx, row.kind);
          log?.error({ jobId: row.id, kind: row.kind, attempts: row.attempts }, 'job failed: its instance stopped on every attempt');
          return 'again';
        }
        if (row.status === 'RUNNING') log?.warn({ jobId: row.id, kind: row.kind, lockedBy: row.lockedBy }, 'job taken over: its instance stopped beating');
        const [claimed] = await tx
          .update(jobs)
          .set({ status: 'RUNNING', lockedBy: instanceId, heartbeatAt: at, attempts: sql`${jobs.attempts} + 1` })
          .where(eq(jobs.id, row.id))
          .returning();
        return claimed ?? null;
      });
      if (outcome !== 'again') return outcome;
    }
  }

  /** Updates of a job this instance holds: nothing when it was taken over meanwhile. */
  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, instanceId), eq(jobs.status, 'RUNNING'));

  async function execute(job: JobRow): Promise<void> {
    const entry = handlers.get(job.kind)!;
    const controller = new AbortController();
    const lost = () => {
      if (!controller.signal.aborted) controller.abort(new Error('job lease lost'));
    };
    const beat = async (values: Partial<Pick<JobRow, 'done' | 'total'>> = {}) => {
      const rows = await db
        .update(jobs)
        .set({ heartbeatAt: now(), ...values })
        .where(mine(job.id))
        .returning({ id: jobs.id });
      if (rows.length === 0) lost();
    };
    const heartbeat = setInterval(() => {
      beat().catch((err: unknown) => log?.warn({ jobId: job.id, err: errorText(err) }, 'job heartbeat failed'));
    }, heartbeatMs);
    heartbeat.unref();

    const ctx: JobContext = {
      db,
      signal: controller.signal,
      progress: async (done, total) => {
        await beat(total === undefined ? { done } : { done, total });
        // Embedded PGlite answers in microtasks: a job walking slices back to back would never let
        // the event loop reach incoming requests or the heartbeat timer (the bench saw the whole
        // server stall ~6 s during a 50,000-recipient send). One macrotask turn per slice.
        await yieldToEventLoop();
      },
    };
    let finish: () => void = () => {};
    inFlight.set(job.id, { controller, done: new Promise<void>((resolve) => (finish = resolve)) });
    try {
      let failure: unknown = null;
      try {
        await entry.handler(job, ctx);
      } catch (err) {
        failure = err;
      }
      clearInterval(heartbeat);
      await db.transaction(async (tx) => {
        const at = now();
        if (failure === null) {
          const [row] = await tx.update(jobs).set({ status: 'DONE', finishedAt: at, lockedBy: null, lastError: null }).where(mine(job.id)).returning({ id: jobs.id });
          if (row) await queueNext(tx, job.kind);
          return;
        }
        if (stopping && controller.signal.aborted) {
          // Interrupted by this instance's shutdown, not failed: back in the queue at once, the attempt not counted.
          await tx
            .update(jobs)
            .set({ status: 'QUEUED', runAt: at, lockedBy: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)` })
            .where(mine(job.id));
          return;
        }
        const message = errorText(failure);
        if (job.attempts >= entry.maxAttempts) {
          const [row] = await tx.update(jobs).set({ status: 'FAILED', lastError: message, finishedAt: at, lockedBy: null }).where(mine(job.id)).returning({ id: jobs.id });
          if (row) await queueNext(tx, job.kind);
          log?.error({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed');
        } else {
          await tx
            .update(jobs)
            .set({ status: 'QUEUED', lastError: message, lockedBy: null, runAt: nowPlus(backoff(job.attempts)) })
            .where(mine(job.id));
          log?.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed; retried later');
        }
      });
    } catch (err) {
      // The database went away (shutdown): the job stays RUNNING and is taken over once stale.
      log?.warn({ jobId: job.id, err: errorText(err) }, 'could not record the end of a job');
    } finally {
      clearInterval(heartbeat);
      inFlight.delete(job.id);
      finish();
    }
  }

  async function worker(): Promise<number> {
    let count = 0;
    while (!stopping) {
      const job = await claim();
      if (!job) break;
      await execute(job);
      count++;
    }
    return count;
  }

  async function runOnce(): Promise<number> {
    const counts = await Promise.all(Array.from({ length: concurrency }, () => worker()));
    return counts.reduce((a, b) => a + b, 0);
  }

  const runner = {
    instanceId,

    /** One handler per kind; register before `start()`. */
    register(kind: string, handler: JobHandler, opts: JobKindOptions = {}): void {
      if (handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
      handlers.set(kind, { handler, maxAttempts: opts.maxAttempts ?? defaultMax });
    },

    /**
     * A recurring job (the daily upload sweep): queued at start when no live one exists (so a
     * fresh install runs it at once), then again `everyMs` after each run ends. The dedupe key
     * keeps one live job per schedule however many instances start.
     */
    schedule(schedule: ScheduleOptions): void {
      if (!handlers.has(schedule.kind)) throw new Error(`job kind ${schedule.kind} has no handler`);
      schedules.set(schedule.kind, { ...schedule, dedupeKey: schedule.dedupeKey ?? schedule.kind });
    },

    /** Runs every due job (shared by concurrent callers, with one more pass if asked meanwhile). */
    runDue(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await runOnce();
        } while (again && !stopping);
        return total;
      })().finally(() => {
        running = null;
      });
      return running;
    },

    /** After a commit that queued a job: run soon, never failing the caller. Ignored unless started. */
    kick(): void {
      if (!started || stopping) return;
      setImmediate(() => {
        if (!started || stopping) return;
        runner.runDue().catch((err: unknown) => log?.error({ err: errorText(err) }, 'job run failed'));
      });
    },

    async start(): Promise<void> {
      if (started) return;
      started = true;
      stopping = false;
      await ensureSchedules().catch((err: unknown) => log?.error({ err: errorText(err) }, 'could not queue scheduled jobs'));
      pollTimer = setInterval(() => runner.kick(), pollMs);
      pollTimer.unref();
      if (schedules.size) {
        scheduleTimer = setInterval(() => {
          if (started && !stopping) ensureSchedules().catch((err: unknown) => log?.warn({ err: errorText(err) }, 'could not queue scheduled jobs'));
        }, SCHEDULE_CHECK_MS);
        scheduleTimer.unref();
      }
      runner.kick();
    },

    /**
     * Stops polling, aborts running handlers and waits for them (at most `stopWaitMs`). A job
     * interrupted this way goes back to the queue; one still running after the wait stays
     * RUNNING and is taken over by another instance once its heartbeat is stale.
     */
    async stop(): Promise<void> {
      if (!started) return;
      stopping = true;
      started = false;
      if (pollTimer) clearInterval(pollTimer);
      if (scheduleTimer) clearInterval(scheduleTimer);
      pollTimer = scheduleTimer = null;
      for (const { controller } of inFlight.values()) controller.abort(new Error('instance stopping'));
      const pending = [...inFlight.values()].map((f) => f.done);
      if (running) pending.push(running.then(() => undefined, () => undefined));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(pending),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, stopWaitMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    },
  };
  return runner;
}
export type JobRunner = ReturnType<typeof createJobRunner>;
