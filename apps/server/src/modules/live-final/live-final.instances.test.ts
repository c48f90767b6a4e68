import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveChairState, LiveDisplayLink, LiveSessionDetail } from '@contest/shared';
import { buildApp } from '../../app.js';
import { loadTestConfig } from '../../config/test-config.js';
import { openDatabase, type Database } from '../../db/client.js';
import { api } from '../../../test/admin-helpers.js';
import { openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, createTestDatabase, deleteRedisPrefix, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { withDatabaseName } from '../../../test/test-database.js';
import { registerIdentity } from '../auth/identity.module.js';
import { registerReview } from '../review/review.module.js';
import { listen, openSse, split, type Listening } from './live-final.fixtures.js';
import { registerLiveFinal, type LiveFinalServices } from './live-final.module.js';

/**
 * How the live final's streams follow a change (docs/live-final.md, "Event stream"): across two
 * instances through Redis, in one instance without it, and one snapshot build per change for all
 * the streams of a kind (the feeds).
 */

const A = '/api/admin/live';
const E = '/api/expert/live';
/** How long a change may take to reach a stream on the other instance. */
const BOUND_MS = 2000;

interface Planned {
  boss: SignedIn;
  judges: SeededExpert[];
  projects: string[];
  sessionId: string;
  token: string;
}

/** A session of `projects` final projects and `judges` judges (one final group), with a display link. */
async function plan(t: TestApp, opts: { judges: number; projects: number }): Promise<Planned> {
  const boss = await signIn(t, { realm: 'ADMIN', buttons: ['live:plan', 'live:chair', 'live:display'] });
  await setSetting(t, 'contest.phases', { finalReview: openWindow() });
  const projects = await seedProjects(t, Array.from({ length: opts.projects }, () => ({ final: true })));
  const judges = await seedExperts(t, opts.judges);
  const groupId = await seedGroup(t, 'FINAL', judges.map((j) => j.accountId), projects);
  const created = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions`, {
    headers: boss.headers,
    body: { name: '实例', venue: '会场', date: '2026-12-01', presentationMinutes: 8, qaMinutes: 5, judgeIds: judges.map((j) => j.accountId) },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
  const sessionId = created.body.data.id;
  expect((await api(t, 'POST', `${A}/sessions/${sessionId}/projects/import`, { headers: boss.headers, body: { groupId } })).statusCode).toBe(200);
  const link = await api<LiveDisplayLink>(t, 'POST', `${A}/sessions/${sessionId}/displays`, { headers: boss.headers, body: {} });
  return { boss, judges, projects, sessionId, token: link.body.data.token };
}

/** A chair action on the instance `t` (with the session's version now). */
async function act(t: TestApp, p: Planned, body: Record<string, unknown>): Promise<LiveChairState> {
  const version = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${p.sessionId}/chair`, { headers: p.boss.headers })).body.data.session.version;
  const r = await api<LiveChairState>(t, 'POST', `${A}/sessions/${p.sessionId}/actions`, { headers: p.boss.headers, body: { ...body, version } });
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const submit = (t: TestApp, p: Planned, judge: SeededExpert, projectId: string, total: number, comment = '陈述清楚') =>
  api(t, 'POST', `${E}/sessions/${p.sessionId}/projects/${projectId}/score`, { headers: judge.headers, body: { scores: split(total), comment, key: randomUUID() } });

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const twoInstances = Boolean(DATABASE_URL?.startsWith('postgres') && REDIS_URL);

/**
 * Two apps on one PostgreSQL database and one Redis prefix, each with its own pool, Redis
 * connections and hub: a change made on A reaches a stream on B only through the Redis channel
 * (A's in-process emitter is A's alone), so this fails if the hub published only in-process.
 * Only in the PostgreSQL pass with Redis (the embedded database is one process's).
 */
describe.skipIf(!twoInstances)('two instances with Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let serverB: Listening;
  let second: Database;
  let drop: () => Promise<void>;
  const prefix = `test:${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    const config = loadTestConfig({ REDIS_PREFIX: prefix });
    const created = await createTestDatabase(config, { migrated: true });
    drop = created.drop;
    const [{ name }] = ((await created.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: [{ name: string }] }).rows;
    second = await openDatabase({ databaseUrl: withDatabaseName(config.databaseUrl!, name), dataDir: config.dataDir });
    a = { app: await buildApp(config, { database: created.database }), config, database: created.database, close: async () => {} };
    b = { app: await buildApp(config, { database: second }), config, database: second, close: async () => {} };
    expect(a.app.deps.redis).not.toBeNull();
    serverB = await listen(b);
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.app.close();
    await second?.close();
    await drop?.();
    await deleteRedisPrefix(REDIS_URL!, prefix);
  });

  it('a start, a submit and a reveal on A reach the screen, judge and chair streams on B in time; a client connecting to B then gets the state at once', async () => {
    const p = await plan(a, { judges: 3, projects: 2 });
    const [p0] = p.projects;
    const [j1, j2, j3] = p.judges;
    const screen = await openSse(serverB, `/api/live/display/${p.token}/events`);
    const chair = await openSse(serverB, `${A}/sessions/${p.sessionId}/events`, p.boss.headers);
    const judge1 = await openSse(serverB, `${E}/sessions/${p.sessionId}/events`, j1!.headers);
    const judge2 = await openSse(serverB, `${E}/sessions/${p.sessionId}/events`, j2!.headers);
    const streams = [screen, chair, judge1, judge2];
    /** Every stream on B shows `pred` within the bound. */
    const allSee = (pred: (data: any) => boolean) => Promise.all(streams.map((s) => s.next((e) => e.event === 'state' && pred(e.data), BOUND_MS)));
    try {
      await Promise.all(streams.map((s) => s.next(() => true)));

      await act(a, p, { action: 'OPEN' });
      await allSee((d) => d.session.status === 'LIVE' && d.current?.projectId === p0);
      await act(a, p, { action: 'START', projectId: p0 });
      const [, , mine] = await allSee((d) => d.current?.state === 'PRESENTING');
      expect(mine!.data.current).toMatchObject({ judging: true, canScore: true, own: null });

      // A judge's submit on A: B's chair and screen count it, sealed; only that judge's own stream carries the total.
      expect((await submit(a, p, j1!, p0!, 93.5, '独特评语QX')).statusCode).toBe(200);
      const [onScreen, onChair, own, other] = await allSee((d) => d.current?.submitted === 1);
      expect(own!.data.current.own).toMatchObject({ status: 'SUBMITTED', total: 93.5 });
      for (const e of [onScreen!, onChair!, other!]) expect(JSON.stringify(e.data)).not.toMatch(/93\.5|独特评语QX/);
      expect(onChair!.data.current.judges.every((j: { total: number | null }) => j.total === null)).toBe(true);

      await act(a, p, { action: 'SCORE', projectId: p0 });
      expect((await submit(a, p, j2!, p0!, 80)).statusCode).toBe(200);
      expect((await submit(a, p, j3!, p0!, 71.5)).statusCode).toBe(200);
      await allSee((d) => d.current?.state === 'CLOSED');
      await act(a, p, { action: 'REVEAL', projectId: p0 });
      const [revealed] = await allSee((d) => d.current?.state === 'REVEALED');
      expect(revealed!.data.current.result.score).toBeCloseTo((93.5 + 80 + 71.5) / 3, 1);
      expect(revealed!.data.ranking).toEqual([expect.objectContaining({ projectId: p0, rank: 1 })]);
      expect(JSON.stringify(revealed!.data)).not.toMatch(/93\.5|"total"/);

      // Connecting to B after the change: the first event is the whole current state.
      const late = await openSse(serverB, `/api/live/display/${p.token}/events`);
      const lateChair = await openSse(serverB, `${A}/sessions/${p.sessionId}/events`, p.boss.headers);
      try {
        const first = await late.next(() => true, BOUND_MS);
        expect(first.data).toMatchObject({ session: { status: 'LIVE' }, current: { projectId: p0, state: 'REVEALED', result: { rank: 1 } }, ranking: [expect.objectContaining({ projectId: p0 })] });
        const firstChair = await lateChair.next(() => true, BOUND_MS);
        expect(firstChair.data.current).toMatchObject({ projectId: p0, state: 'REVEALED' });
        expect(firstChair.data.current.judges.map((j: { total: number }) => j.total).sort()).toEqual([71.5, 80, 93.5]);
      } finally {
        late.close();
        lateChair.close();
      }
    } finally {
      for (const s of streams) s.close();
    }
  });
});

/**
 * One instance without Redis (every pass): the in-process path, and the feeds. The module is
 * registered on a bare app here so the test holds its service and can count the snapshot builds.
 */
describe('one instance without Redis', () => {
  let t: TestApp;
  let live: LiveFinalServices;
  let server: Listening;

  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: undefined }, { bare: true });
    await t.app.register(
      async (scope: FastifyInstance) => {
        const identity = await registerIdentity(scope, t.app.deps);
        live = await registerLiveFinal(scope, t.app.deps, await registerReview(scope, t.app.deps, identity));
      },
      { prefix: '/api' },
    );
    await t.app.ready();
    expect(t.app.deps.redis).toBeNull();
    server = await listen(t);
  });
  afterAll(async () => t?.close());

  it('a change reaches the streams in-process; N streams of a kind cost one snapshot build per change', async () => {
    const p = await plan(t, { judges: 2, projects: 2 });
    const [p0] = p.projects;
    const [j1, j2] = p.judges;
    const screens = await Promise.all(Array.from({ length: 5 }, () => openSse(server, `/api/live/display/${p.token}/events`)));
    const chairs = await Promise.all(Array.from({ length: 2 }, () => openSse(server, `${A}/sessions/${p.sessionId}/events`, p.boss.headers)));
    // One judge on two phones, another on one: a snapshot per judge.
    const judges = [
      await openSse(server, `${E}/sessions/${p.sessionId}/events`, j1!.headers),
      await openSse(server, `${E}/sessions/${p.sessionId}/events`, j1!.headers),
      await openSse(server, `${E}/sessions/${p.sessionId}/events`, j2!.headers),
    ];
    const streams = [...screens, ...chairs, ...judges];
    const allSee = (pred: (data: any) => boolean) => Promise.all(streams.map((s) => s.next((e) => e.event === 'state' && pred(e.data))));
    const display = vi.spyOn(live.service, 'displayState');
    const chair = vi.spyOn(live.service, 'chair');
    const judge = vi.spyOn(live.service, 'judgeState');
    try {
      await Promise.all(streams.map((s) => s.next(() => true)));
      // Each stream's first snapshot is its own; from here on only the feeds build.
      const version = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${p.sessionId}/chair`, { headers: p.boss.headers })).body.data.session.version;
      for (const spy of [display, chair, judge]) spy.mockClear();

      const r = await api(t, 'POST', `${A}/sessions/${p.sessionId}/actions`, { headers: p.boss.headers, body: { action: 'OPEN', version } });
      expect(r.statusCode).toBe(200);
      await allSee((d) => d.session.status === 'LIVE' && d.current?.projectId === p0);
      expect(display).toHaveBeenCalledTimes(1);
      expect(chair).toHaveBeenCalledTimes(1);
      expect(judge.mock.calls.map(([, expertId]) => expertId).sort()).toEqual([j1!.accountId, j2!.accountId].sort());

      // The same text to every stream of a kind.
      const last = (s: (typeof streams)[number]) => JSON.stringify(s.events.at(-1)!.data);
      expect(new Set(screens.map(last)).size).toBe(1);
      expect(new Set(chairs.map(last)).size).toBe(1);
      expect(last(judges[0]!)).toBe(last(judges[1]!));

      // A submit: still one build per kind (and judge) for the change, and sealing per kind.
      await api(t, 'POST', `${A}/sessions/${p.sessionId}/actions`, { headers: p.boss.headers, body: { action: 'START', projectId: p0, version: version + 1 } });
      await allSee((d) => d.current?.state === 'PRESENTING');
      for (const spy of [display, chair, judge]) spy.mockClear();
      expect((await submit(t, p, j1!, p0!, 88.5)).statusCode).toBe(200);
      await allSee((d) => d.current?.submitted === 1);
      expect(display).toHaveBeenCalledTimes(1);
      expect(chair).toHaveBeenCalledTimes(1);
      expect(judge.mock.calls.map(([, expertId]) => expertId).sort()).toEqual([j1!.accountId, j2!.accountId].sort());
      for (const s of judges.slice(0, 2)) expect(s.events.at(-1)!.data.current.own).toMatchObject({ total: 88.5 });
      for (const s of [...screens, ...chairs, judges[2]!]) expect(JSON.stringify(s.events.at(-1)!.data)).not.toContain('88.5');
    } finally {
      display.mockRestore();
      chair.mockRestore();
      judge.mockRestore();
      for (const s of streams) s.close();
    }
  });
});
