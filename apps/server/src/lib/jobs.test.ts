import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { createJobRunner, enqueueJob, readJob, type JobRow } from './jobs.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
/** A kind of its own per test: runners claim only the kinds they have handlers for. */
const kindOf = (name: string) => `test.${name}.${randomBytes(4).toString('hex')}`;
const rowOf = async (id: string) => (await db().select().from(jobs).where(eq(jobs.id, id)))[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('jobs: one clock (docs/decisions.md, "One clock for jobs")', () => {
  // PostgreSQL only: PGlite reads the process's own clock, so moving Node's moves the database's too.
  const onPostgres = () => t.database.kind === 'postgres';

  it('runs a job enqueued this instant on an instance whose clock is behind the database', async ({ skip }) => {
    if (!onPostgres()) skip();
    // run_at is stamped by the database; an instance claiming by its own clock, 5 s behind (another
    // host, or Node's milliseconds against PostgreSQL's microseconds in small), found it not due.
    const kind = kindOf('skew');
    const id = await enqueueJob(db(), { kind });
    const runner = createJobRunner({ db: db() });
    const ran = vi.fn();
    runner.register(kind, async () => ran());
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 5_000 });
    try {
      expect(await runner.runDue()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    expect(ran).toHaveBeenCalledOnce();
    expect((await rowOf(id)).status).toBe('DONE');
  });

  it('runs jobs enqueued and claimed within the same millisecond', async () => {
    const kind = kindOf('same-ms');
    const runner = createJobRunner({ db: db() });
    let runs = 0;
    runner.register(kind, async () => {
      runs++;
    });
    for (let i = 0; i < 30; i++) {
      await enqueueJob(db(), { kind });
      expect(await runner.runDue()).toBe(1);
    }
    expect(runs).toBe(30);
  });

  it('stamps heartbeat, end and retry times from the database clock too', async ({ skip }) => {
    if (!onPostgres()) skip();
    const kind = kindOf('stamps');
    const id = await enqueueJob(db(), { kind });
    const runner = createJobRunner({ db: db(), backoffMs: () => 60_000 });
    runner.register(kind, async () => {
      throw new Error('down');
    });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3_600_000 });
    try {
      await runner.runDue();
    } finally {
      vi.useRealTimers();
    }
    const row = await rowOf(id);
    const { rows } = (await db().execute(sql`select now() as "dbNow"`)) as unknown as { rows: [{ dbNow: string | Date }] };
    const dbNow = rows[0].dbNow;
    // The retry is a minute after the database's now, not after the instance's clock an hour behind.
    expect(Math.abs(row.runAt.getTime() - (new Date(dbNow).getTime() + 60_000))).toBeLessThan(10_000);
    expect(Math.abs(row.heartbeatAt!.getTime() - new Date(dbNow).getTime())).toBeLessThan(10_000);
  });
});

describe('jobs: claiming', () => {
  it('runs each job exactly once when two runners race for them', async () => {
    const kind = kindOf('race');
    const ids = await db().transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 12; i++) out.push(await enqueueJob(tx, { kind, payload: { i } }));
      return out;
    });
    const runs: Array<{ id: string; by: string }> = [];
    // Two runners stand for two instances of the server.
    const runners = ['a', 'b'].map((name) => {
      const r = createJobRunner({ db: db(), instanceId: `instance-${name}` });
      r.register(kind, async (job) => {
        runs.push({ id: job.id, by: name });
        await sleep(5);
      });
      return r;
    });
    const counts = await Promise.all([runners[0]!.runDue(), runners[1]!.runDue(), runners[0]!.runDue()]);
    expect(runs.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(counts[0]! + counts[1]!).toBe(12);
    const rows = await db().select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows.every((r) => r.status === 'DONE' && r.attempts === 1 && r.finishedAt && r.lockedBy === null)).toBe(true);
    // Nothing is due any more: a further pass runs nothing.
    expect(await runners[1]!.runDue()).toBe(0);
    expect(runs).toHaveLength(12);
  });

  it('leaves kinds it has no handler for to the runners that do', async () => {
    const kind = kindOf('foreign');
    const id = await enqueueJob(db(), { kind });
    const other = createJobRunner({ db: db() });
    other.register(kindOf('other'), async () => {});
    expect(await other.runDue()).toBe(0);
    expect((await rowOf(id)).status).toBe('QUEUED');
  });

  it('retries a throwing handler with growing backoff, then leaves it FAILED with the error', async () => {
    const kind = kindOf('flaky');
    let clock = Date.now();
    const now = () => new Date(clock);
    const id = await enqueueJob(db(), { kind, runAt: now() });
    let calls = 0;
    const runner = createJobRunner({ db: db(), now, maxAttempts: 3 });
    runner.register(kind, async () => {
      calls++;
      throw new Error(`gateway down ${calls}`);
    });

    await runner.runDue();
    let row = await rowOf(id);
    expect(row).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: 'gateway down 1', lockedBy: null });
    expect(row.runAt.getTime()).toBe(clock + 30_000);
    // Not due yet: nothing runs.
    await runner.runDue();
    expect(calls).toBe(1);

    clock += 30_000;
    await runner.runDue();
    row = await rowOf(id);
    expect(row).toMatchObject({ status: 'QUEUED', attempts: 2, lastError: 'gateway down 2' });
    expect(row.runAt.getTime()).toBe(clock + 60_000);

    clock += 60_000;
    await runner.runDue();
    row = await rowOf(id);
    expect(row).toMatchObject({ status: 'FAILED', attempts: 3, lastError: 'gateway down 3', lockedBy: null });
    expect(row.finishedAt?.getTime()).toBe(clock);

    clock += 3_600_000;
    await runner.runDue();
    expect(calls).toBe(3);
  });

  it('takes over a RUNNING job whose instance stopped beating, and completes it', async () => {
    const kind = kindOf('orphan');
    const at = Date.now();
    // What a kill -9 leaves behind: RUNNING, locked by a dead instance, the heartbeat minutes old.
    const [orphan] = await db()
      .insert(jobs)
      .values({ kind, status: 'RUNNING', lockedBy: 'dead-instance', heartbeatAt: new Date(at - 5 * 60_000), attempts: 1, payload: { n: 1 }, total: 4, done: 2 })
      .returning();
    // One beating a few seconds ago is alive elsewhere: left alone.
    const [alive] = await db()
      .insert(jobs)
      .values({ kind, status: 'RUNNING', lockedBy: 'live-instance', heartbeatAt: new Date(at - 5_000), attempts: 1 })
      .returning();
    const seen: JobRow[] = [];
    const runner = createJobRunner({ db: db(), instanceId: 'rescuer', now: () => new Date(at) });
    runner.register(kind, async (job, ctx) => {
      seen.push(job);
      await ctx.progress(4);
    });
    expect(await runner.runDue()).toBe(1);
    expect(seen.map((j) => j.id)).toEqual([orphan!.id]);
    expect(seen[0]).toMatchObject({ status: 'RUNNING', lockedBy: 'rescuer', attempts: 2, payload: { n: 1 } });
    expect(await rowOf(orphan!.id)).toMatchObject({ status: 'DONE', attempts: 2, done: 4, total: 4 });
    expect(await rowOf(alive!.id)).toMatchObject({ status: 'RUNNING', lockedBy: 'live-instance' });
  });

  it('fails a job whose instance died on every attempt instead of running it forever', async () => {
    const kind = kindOf('killer');
    const [row] = await db()
      .insert(jobs)
      .values({ kind, status: 'RUNNING', lockedBy: 'dead', heartbeatAt: new Date(Date.now() - 3_600_000), attempts: 2 })
      .returning();
    const handler = vi.fn(async () => {});
    const runner = createJobRunner({ db: db(), maxAttempts: 2 });
    runner.register(kind, handler);
    await runner.runDue();
    expect(handler).not.toHaveBeenCalled();
    expect(await rowOf(row!.id)).toMatchObject({ status: 'FAILED', lastError: expect.stringContaining('heartbeat lost') });
  });
});

describe('jobs: progress, heartbeat and stopping', () => {
  it('records progress while the handler runs', async () => {
    const kind = kindOf('progress');
    const id = await enqueueJob(db(), { kind, total: 10 });
    const during: Array<{ done: number; total: number } | null> = [];
    const runner = createJobRunner({ db: db() });
    runner.register(kind, async (job, ctx) => {
      await ctx.progress(3);
      const a = await readJob(db(), job.id);
      during.push(a && { done: a.done, total: a.total });
      await ctx.progress(7, 12);
      const b = await readJob(db(), job.id);
      during.push(b && { done: b.done, total: b.total });
      await ctx.progress(12);
    });
    await runner.runDue();
    expect(during).toEqual([
      { done: 3, total: 10 },
      { done: 7, total: 12 },
    ]);
    expect(await readJob(db(), id)).toMatchObject({ status: 'DONE', done: 12, total: 12, attempts: 1, lastError: null });
  });

  it('beats while a long handler runs, so no other instance takes the job over', async () => {
    const kind = kindOf('long');
    const id = await enqueueJob(db(), { kind });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const runner = createJobRunner({ db: db(), heartbeatMs: 20, staleMs: 200 });
    const other = createJobRunner({ db: db(), staleMs: 200 });
    const ran = vi.fn();
    runner.register(kind, async () => gate);
    other.register(kind, async () => ran());
    const first = runner.runDue();
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('RUNNING'));
    await sleep(400);
    // Twice the stale limit has passed, but the heartbeat kept the job alive.
    expect(await other.runDue()).toBe(0);
    release();
    await first;
    expect(ran).not.toHaveBeenCalled();
    expect((await rowOf(id)).status).toBe('DONE');
  });

  it('stop() aborts a running handler and puts its job back without counting the attempt', async () => {
    const kind = kindOf('stop');
    const id = await enqueueJob(db(), { kind });
    const runner = createJobRunner({ db: db(), pollMs: 60_000 });
    let aborted = false;
    runner.register(kind, (_job, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          reject(ctx.signal.reason);
        });
      }),
    );
    await runner.start();
    await vi.waitFor(async () => expect((await rowOf(id)).status).toBe('RUNNING'));
    await runner.stop();
    expect(aborted).toBe(true);
    expect(await rowOf(id)).toMatchObject({ status: 'QUEUED', attempts: 0, lockedBy: null });
    // A stopped runner ignores kicks.
    runner.kick();
    await sleep(50);
    expect((await rowOf(id)).status).toBe('QUEUED');
    // The next instance runs it.
    const next = createJobRunner({ db: db() });
    next.register(kind, async () => {});
    await next.runDue();
    expect(await rowOf(id)).toMatchObject({ status: 'DONE', attempts: 1 });
  });
});

describe('jobs: dedupe and schedules', () => {
  it('keeps one live job per dedupe key, and accepts a new one once it finished', async () => {
    const kind = kindOf('dedupe');
    const key = `${kind}:key`;
    const a = await enqueueJob(db(), { kind, dedupeKey: key });
    const b = await enqueueJob(db(), { kind, dedupeKey: key, payload: { other: true } });
    expect(b).toBe(a);
    // Two transactions at once (two instances asking for the same sweep).
    const [c, d] = await Promise.all([
      db().transaction((tx) => enqueueJob(tx, { kind, dedupeKey: key })),
      db().transaction((tx) => enqueueJob(tx, { kind, dedupeKey: key })),
    ]);
    expect([c, d]).toEqual([a, a]);
    expect(await db().select().from(jobs).where(eq(jobs.dedupeKey, key))).toHaveLength(1);

    const runner = createJobRunner({ db: db() });
    runner.register(kind, async () => {});
    await runner.runDue();
    const e = await enqueueJob(db(), { kind, dedupeKey: key });
    expect(e).not.toBe(a);
    expect((await db().select().from(jobs).where(eq(jobs.dedupeKey, key))).map((r) => r.status).sort()).toEqual(['DONE', 'QUEUED']);
    // Without a key, every enqueue is a job.
    expect(await enqueueJob(db(), { kind })).not.toBe(await enqueueJob(db(), { kind }));
  });

  it('runs a scheduled job at start once across instances, then queues the next run', async () => {
    const kind = kindOf('daily');
    const runs = vi.fn(async () => {});
    const make = () => {
      const r = createJobRunner({ db: db(), pollMs: 60_000 });
      r.register(kind, runs);
      r.schedule({ kind, everyMs: 24 * 3600_000 });
      return r;
    };
    const a = make();
    const b = make();
    await Promise.all([a.start(), b.start()]);
    await vi.waitFor(async () => {
      const rows = await db().select().from(jobs).where(eq(jobs.kind, kind));
      expect(rows.map((r) => r.status).sort()).toEqual(['DONE', 'QUEUED']);
    });
    await Promise.all([a.stop(), b.stop()]);
    expect(runs).toHaveBeenCalledTimes(1);
    const rows = await db().select().from(jobs).where(eq(jobs.kind, kind));
    const done = rows.find((r) => r.status === 'DONE')!;
    const next = rows.find((r) => r.status === 'QUEUED')!;
    expect(next.runAt.getTime() - done.finishedAt!.getTime()).toBe(24 * 3600_000);
    expect(next.dedupeKey).toBe(kind);
    // A restart finds the next run queued and does not run the job again early.
    const c = make();
    await c.start();
    await sleep(50);
    await c.stop();
    expect(runs).toHaveBeenCalledTimes(1);
  });
});

describe('jobs: the app', () => {
  it('runs the leftover-upload sweep as a daily job when the app starts, and stops the runner on close', async () => {
    const { FILES_SWEEP_JOB } = await import('../app.js');
    const app = await createTestApp();
    try {
      await app.app.ready();
      await vi.waitFor(async () => {
        const rows = await app.database.db.select().from(jobs).where(eq(jobs.kind, FILES_SWEEP_JOB));
        expect(rows.map((r) => r.status).sort()).toEqual(['DONE', 'QUEUED']);
      });
      const rows = await app.database.db.select().from(jobs).where(eq(jobs.kind, FILES_SWEEP_JOB));
      const done = rows.find((r) => r.status === 'DONE')!;
      const next = rows.find((r) => r.status === 'QUEUED')!;
      expect(next.dedupeKey).toBe(FILES_SWEEP_JOB);
      expect(next.runAt.getTime() - done.finishedAt!.getTime()).toBe(24 * 3600_000);
      expect(app.app.deps.jobs).toBeDefined();
    } finally {
      await app.close();
    }
  });
});
