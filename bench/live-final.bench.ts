/**
 * Live final: screens in step (docs/performance.md, "Live final: screens in step (bench:live)").
 * One final session on site (docs/live-final.md) run through its real calls and server-sent-event
 * streams over HTTP on a listening port: the chair's stream, --judges (30) judge streams (each
 * judge's own session), --screens (50) big screens (a display link each) and --spectators (500)
 * spectator screens (display-link streams too, all on one shared link, as a link passed around
 * the audience would be). Then --projects (10) projects one after another: NEXT (from the
 * second), START, SCORE, every judge submits at once over HTTP as the phones do (POST
 * .../score with a key), the last submit closes the project, and once every stream shows it
 * CLOSED the chair REVEALs.
 *
 * Figures:
 * - reveal: from the start of the REVEAL call to each stream receiving the state in which the
 *   project is REVEALED (p50/p95/p99/max over all streams and reveals, per kind of stream, and
 *   screens + spectators together: the product's target is p99 <= 0.5 s on one instance);
 * - the burst of submits: each submit's latency (the phone's wait), and from the burst's start
 *   to each screen showing the project CLOSED (30 changes in a row, each a new snapshot for
 *   every stream);
 * - memory per connection: the server's RSS and V8 heap (after a full gc) before the streams
 *   connect and once all are connected and have their first state, the difference divided by
 *   the number of streams;
 * - the server's CPU seconds over the projects.
 *
 * The server is the app (buildApp, every plugin) in a child process of this one (bench/support/
 * child.ts, run through tsx: nothing to build first), so its memory is its own and the clients
 * here read the streams as the browsers would. The child seeds, straight into its database, an
 * admin with the live buttons, the judges (experts with a session each, agreement accepted),
 * the final projects, one FINAL review group of all of them, and an open final review window
 * (the review test helpers: apps/server/test/review-helpers.ts). The session, its import and the
 * display links go through the API.
 *
 * The client (this process) is one Node event loop for every stream: the time a stream "receives"
 * is when this loop reads the chunk that completes the event (a string test, JSON parsed only
 * for the event looked for). On the 2 shared cores the clients and the server compete: the
 * figures are an upper bound of what the server alone does.
 *
 *   npm run bench:live                                         (embedded PGlite, one instance)
 *   npm run bench:live -- --db pg --redis                      (PostgreSQL, signals through Redis)
 *   npm run bench:live -- --judges 30 --screens 50 --spectators 500 --projects 10
 *
 * --db pg: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), where a database
 * bench_live_<time> is created and dropped. --redis: REDIS_URL (default redis://127.0.0.1:6379),
 * keys under a prefix of the run's own, deleted at the end.
 *
 * The figures are those of one machine at one moment: the load average is printed with them.
 */
import { randomUUID } from 'node:crypto';
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Criterion, LiveChairState, LiveDisplayLink, LiveJudgeState, LiveSessionDetail } from '@contest/shared';
import { forkServer, serveParent } from './support/child.js';
import { cpuSecondsOf, MB } from './support/memory.js';
import { load, markdown } from './support/report.js';
import { runMain } from './support/run.js';

const { values: opts } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'serve'),
  options: {
    judges: { type: 'string', default: '30' },
    screens: { type: 'string', default: '50' },
    spectators: { type: 'string', default: '500' },
    projects: { type: 'string', default: '10' },
    db: { type: 'string', default: 'pglite' },
    redis: { type: 'boolean', default: false },
  },
});
const JUDGES = Number(opts.judges);
const SCREENS = Number(opts.screens);
const SPECTATORS = Number(opts.spectators);
const PROJECTS = Number(opts.projects);
/** The product's target: a revealed score on every screen within this, p99, one instance. */
const TARGET_MS = 500;
/** Streams opened at once while connecting (each waits for its first state). */
const CONNECT_BATCH = 50;
/**
 * How long a stream may take to show a state before it counts as missed: long, so that every
 * stream has caught up with the submits before the reveal is timed (on PGlite under load a burst
 * of 30 submits took minutes).
 */
const WAIT_MS = 600_000;

// ---- The server (child process) --------------------------------------------------------------

interface Ready {
  origin: string;
  kind: string;
  admin: string;
  /** The judges' session tokens and account ids, in the same order. */
  judges: string[];
  judgeIds: string[];
  projects: string[];
  groupId: string;
}

interface ServerMemory {
  rss: number;
  heapUsed: number;
  external: number;
}

async function serve(): Promise<void> {
  const v8 = await import('node:v8');
  const vm = await import('node:vm');
  // A full collection before each reading, so the heap figures hold live objects only.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const { startBenchApp } = await import('./support/app.js');
  const { settings } = await import('../apps/server/src/db/schema.js');
  const { signIn } = await import('../apps/server/test/sign-in.js');
  const { seedExperts, seedGroup, seedProjects } = await import('../apps/server/test/review-helpers.js');
  const redisPrefix = `bench_live:${Date.now().toString(36)}:`;
  const bench = await startBenchApp({
    database: { ownPrefix: 'bench_live' },
    dirPrefix: 'contest-bench-live-',
    env: process.env.LIVE_REDIS_URL ? { REDIS_URL: process.env.LIVE_REDIS_URL, REDIS_PREFIX: redisPrefix } : { REDIS_URL: '' },
  });
  const t = { app: bench.app, config: bench.config, database: bench.app.deps.database, close: () => bench.close() };
  const admin = await signIn(t, { realm: 'ADMIN', buttons: ['live:plan', 'live:chair', 'live:display'], name: '答辩主持' });
  const projects = await seedProjects(t, Array.from({ length: PROJECTS }, (_, i) => ({ projectName: `现场项目${String(i + 1).padStart(2, '0')}`, final: true })));
  const judges = await seedExperts(t, JUDGES);
  const groupId = await seedGroup(t, 'FINAL', judges.map((j) => j.accountId), projects, '决赛一组');
  const day = 86_400_000;
  const finalReview = { start: new Date(Date.now() - day).toISOString(), end: new Date(Date.now() + day).toISOString() };
  await bench.db
    .insert(settings)
    .values({ key: 'contest.phases', value: { finalReview } })
    .onConflictDoUpdate({ target: settings.key, set: { value: { finalReview } } });
  const origin = await bench.listen();
  const ready: Ready = { origin, kind: bench.kind, admin: admin.token, judges: judges.map((j) => j.token), judgeIds: judges.map((j) => j.accountId), projects, groupId };
  serveParent<Ready>(
    ready,
    {
      memory: (): ServerMemory => {
        gc();
        gc();
        const m = process.memoryUsage();
        return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
      },
    },
    async () => {
      await bench.close();
      if (process.env.LIVE_REDIS_URL) {
        const { deleteRedisPrefix } = await import('../apps/server/test/redis-prefix.js');
        await deleteRedisPrefix(process.env.LIVE_REDIS_URL, redisPrefix);
      }
    },
  );
}

// ---- Streams (this process) ------------------------------------------------------------------

type Kind = 'chair' | 'judge' | 'screen' | 'spectator';

interface Waiter {
  projectId: string;
  state: string;
  resolve(at: number): void;
}

/** One open event stream: splits events, answers the first `state` event showing a project in a state. */
class Stream {
  private buffer = '';
  private waiter: Waiter | null = null;
  private request: ClientRequest | null = null;
  events = 0;
  ended = false;

  constructor(
    readonly kind: Kind,
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Opens the stream; resolves at its first `state` event. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      let first = true;
      this.request = get(this.url, { headers: { accept: 'text/event-stream', ...this.headers }, agent: false }, (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          reject(new Error(`${this.kind} stream ${this.url}: ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          this.buffer += chunk;
          let end: number;
          while ((end = this.buffer.indexOf('\n\n')) >= 0) {
            const block = this.buffer.slice(0, end);
            this.buffer = this.buffer.slice(end + 2);
            if (!block.includes('event: state')) continue;
            this.events++;
            if (first) {
              first = false;
              resolve();
            }
            this.check(block, at);
          }
        });
        res.on('end', () => (this.ended = true));
      });
      this.request.on('error', (err) => {
        this.ended = true;
        reject(err);
      });
    });
  }

  private check(block: string, at: number): void {
    const w = this.waiter;
    if (!w || !block.includes(`"state":"${w.state}"`)) return;
    const data = block.split('\n').find((l) => l.startsWith('data: '));
    if (!data) return;
    const current = (JSON.parse(data.slice(6)) as { current: { projectId: string; state: string } | null }).current;
    if (current?.projectId === w.projectId && current.state === w.state) {
      this.waiter = null;
      w.resolve(at);
    }
  }

  /** Resolves with the time (performance.now) of the first event showing `projectId` in `state`, or null after WAIT_MS. */
  next(projectId: string, state: string): Promise<number | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, WAIT_MS);
      this.waiter = {
        projectId,
        state,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
    });
  }

  close(): void {
    this.request?.destroy();
  }
}

// ---- The run (this process) ------------------------------------------------------------------

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US')) : '-');
const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

function summary(name: string, values: number[], missed = 0): Array<string | number> {
  const s = [...values].sort((a, b) => a - b);
  return [name, s.length, missed, ms(s[0] ?? NaN), ms(quantile(s, 0.5)), ms(quantile(s, 0.95)), ms(quantile(s, 0.99)), ms(s.at(-1) ?? NaN)];
}

async function main(): Promise<void> {
  const pg = opts.db === 'pg';
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: pg ? (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test') : '' };
  if (opts.redis) env.LIVE_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const started = performance.now();
  const child = await forkServer<Ready>(fileURLToPath(import.meta.url), ['serve', ...process.argv.slice(2)], env);
  const { origin, admin, judges, judgeIds, projects, groupId } = child.ready;
  const streams: Stream[] = [];
  try {
    console.log(`server ${child.pid} on ${child.ready.kind}${opts.redis ? ' + Redis' : ''}, seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const call = async <T>(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; data: T; ms: number }> => {
      const t0 = performance.now();
      const res = await fetch(`${origin}/api${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data: T; message: string };
      const took = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${json.message} ${JSON.stringify(json.data)}`);
      return { status: res.status, data: json.data, ms: took };
    };

    // The session, as the console plans it: create with the judges, import the group, links.
    const created = await call<LiveSessionDetail>('POST', '/admin/live/sessions', admin, {
      name: '决赛第一场',
      venue: '一号会议室',
      date: '2026-12-01',
      startTime: '09:00',
      presentationMinutes: 8,
      qaMinutes: 5,
      judgeIds,
    });
    const sessionId = created.data.id;
    const imported = await call<LiveSessionDetail>('POST', `/admin/live/sessions/${sessionId}/projects/import`, admin, { groupId });
    const order = imported.data.projectList.map((p) => p.projectId);
    if (order.length !== projects.length || imported.data.judgeList.length !== JUDGES) throw new Error(`session: ${order.length} projects, ${imported.data.judgeList.length} judges`);
    const links: string[] = [];
    for (let i = 0; i < SCREENS + (SPECTATORS ? 1 : 0); i++) {
      const link = await call<LiveDisplayLink & { token: string }>('POST', `/admin/live/sessions/${sessionId}/displays`, admin, { name: i < SCREENS ? `大屏${i + 1}` : '观众' });
      links.push(link.data.token);
    }
    const chairVersion = async () => (await call<LiveChairState>('GET', `/admin/live/sessions/${sessionId}/chair`, admin)).data.session.version;
    const act = async (body: Record<string, unknown>) => call<LiveChairState>('POST', `/admin/live/sessions/${sessionId}/actions`, admin, { ...body, version: await chairVersion() });
    const judgeState = await call<LiveJudgeState>('GET', `/expert/live/sessions/${sessionId}`, judges[0]!);
    const criteria: Criterion[] = judgeState.data.criteria;
    // Warm every path once (code loaded, statements prepared) before the first memory reading.
    await call('GET', `/live/display/${links[0]}`, null);

    // Streams: memory before and after they connect.
    const before = await child.ask<ServerMemory>('memory');
    streams.push(new Stream('chair', `${origin}/api/admin/live/sessions/${sessionId}/events`, { authorization: `Bearer ${admin}` }));
    for (const token of judges) streams.push(new Stream('judge', `${origin}/api/expert/live/sessions/${sessionId}/events`, { authorization: `Bearer ${token}` }));
    for (let i = 0; i < SCREENS; i++) streams.push(new Stream('screen', `${origin}/api/live/display/${links[i]}/events`));
    for (let i = 0; i < SPECTATORS; i++) streams.push(new Stream('spectator', `${origin}/api/live/display/${links[SCREENS]}/events`));
    const connectStart = performance.now();
    for (let i = 0; i < streams.length; i += CONNECT_BATCH) await Promise.all(streams.slice(i, i + CONNECT_BATCH).map((s) => s.open()));
    const connectMs = performance.now() - connectStart;
    await sleep(500);
    const after = await child.ask<ServerMemory>('memory');
    const connections = streams.length;
    console.log(`${connections} streams connected in ${(connectMs / 1000).toFixed(1)} s`);

    // The projects.
    const reveal: Record<Kind, number[]> = { chair: [], judge: [], screen: [], spectator: [] };
    const closed: number[] = [];
    let revealMissed = 0;
    let closedMissed = 0;
    const submits: number[] = [];
    const revealCalls: number[] = [];
    const displays = streams.filter((s) => s.kind === 'screen' || s.kind === 'spectator');
    const cpuBefore = cpuSecondsOf(child.pid);
    const runStart = performance.now();
    await act({ action: 'OPEN' });
    for (const [i, projectId] of order.entries()) {
      if (i > 0) await act({ action: 'NEXT' });
      const scoring = displays.map((s) => s.next(projectId, 'SCORING'));
      await act({ action: 'START', projectId });
      await act({ action: 'SCORE', projectId });
      await Promise.all(scoring);

      // Every judge submits at once, as the phones do when the chair calls for the scores.
      const closing = displays.map((s) => s.next(projectId, 'CLOSED'));
      const burst = performance.now();
      await Promise.all(
        judges.map(async (token) => {
          const scores = Object.fromEntries(criteria.map((c) => [c.key, Math.round(Math.random() * c.max * 2) / 2]));
          const r = await call('POST', `/expert/live/sessions/${sessionId}/projects/${projectId}/score`, token, { scores, comment: '陈述清楚，答辩流畅', key: randomUUID() });
          submits.push(r.ms);
        }),
      );
      for (const at of await Promise.all(closing)) {
        if (at === null) closedMissed++;
        else closed.push(at - burst);
      }
      await sleep(200);

      // The reveal, timed from the start of the chair's call.
      const version = await chairVersion();
      const revealed = streams.map((s) => s.next(projectId, 'REVEALED').then((at) => [s.kind, at] as const));
      const t0 = performance.now();
      const r = await call<LiveChairState>('POST', `/admin/live/sessions/${sessionId}/actions`, admin, { action: 'REVEAL', projectId, version });
      revealCalls.push(r.ms);
      for (const [kind, at] of await Promise.all(revealed)) {
        if (at === null) {
          if (kind === 'screen' || kind === 'spectator') revealMissed++;
        } else reveal[kind].push(at - t0);
      }
      process.stdout.write(`project ${i + 1}/${order.length}: reveal p99 ${ms(quantile([...reveal.screen, ...reveal.spectator].sort((a, b) => a - b), 0.99))} ms\n`);
    }
    const runSeconds = (performance.now() - runStart) / 1000;
    const cpu = cpuSecondsOf(child.pid) - cpuBefore;
    const dropped = streams.filter((s) => s.ended).length;
    const endMemory = await child.ask<ServerMemory>('memory');

    // Report.
    const onScreens = [...reveal.screen, ...reveal.spectator];
    const p99 = quantile([...onScreens].sort((a, b) => a - b), 0.99);
    console.log(`\nLive final on ${child.ready.kind}${opts.redis ? ' + Redis' : ''}, one instance: ${JUDGES} judges, ${SCREENS} screens, ${SPECTATORS} spectators, 1 chair; ${PROJECTS} projects`);
    console.log(`load average ${load()} (2 cores shared: these figures were taken under that load)\n`);
    console.log(
      markdown(
        ['From the REVEAL call (ms)', 'events', 'missed', 'min', 'p50', 'p95', 'p99', 'max'],
        [
          summary('screens + spectators', onScreens, revealMissed),
          summary('screens', reveal.screen),
          summary('spectators', reveal.spectator),
          summary('judges', reveal.judge),
          summary('chair', reveal.chair),
          summary('the REVEAL call itself', revealCalls),
        ],
      ),
    );
    console.log('');
    console.log(
      markdown(
        [`Burst of ${JUDGES} submits (ms)`, 'count', 'missed', 'min', 'p50', 'p95', 'p99', 'max'],
        [summary('submit latency (the phone)', submits), summary('burst start -> screen shows CLOSED', closed, closedMissed)],
      ),
    );
    const perConn = (a: number, b: number) => `${((b - a) / connections / 1024).toFixed(1)} KB`;
    console.log('');
    console.log(
      markdown(
        ['Server memory (after gc)', 'before streams', `${connections} streams`, 'per stream', `after ${PROJECTS} projects`],
        [
          ['RSS', `${(before.rss / MB).toFixed(1)} MB`, `${(after.rss / MB).toFixed(1)} MB`, perConn(before.rss, after.rss), `${(endMemory.rss / MB).toFixed(1)} MB`],
          ['V8 heap used', `${(before.heapUsed / MB).toFixed(1)} MB`, `${(after.heapUsed / MB).toFixed(1)} MB`, perConn(before.heapUsed, after.heapUsed), `${(endMemory.heapUsed / MB).toFixed(1)} MB`],
          ['external', `${(before.external / MB).toFixed(1)} MB`, `${(after.external / MB).toFixed(1)} MB`, perConn(before.external, after.external), `${(endMemory.external / MB).toFixed(1)} MB`],
        ],
      ),
    );
    const events = streams.reduce((n, s) => n + s.events, 0);
    console.log(
      `\n${PROJECTS} projects in ${runSeconds.toFixed(1)} s; server CPU ${cpu.toFixed(1)} s (${((cpu / runSeconds) * 100).toFixed(0)}% of a core); ` +
        `${events.toLocaleString('en-US')} state events received (${((cpu * 1000) / events).toFixed(2)} ms of server CPU each); streams ended early: ${dropped}`,
    );
    console.log(`target: a revealed score on every screen within ${TARGET_MS} ms p99: ${p99 <= TARGET_MS && revealMissed === 0 ? 'met' : 'NOT met'} (p99 ${ms(p99)} ms, missed ${revealMissed})`);
    console.log(`load average at the end ${load()}`);
  } finally {
    for (const s of streams) s.close();
    await child.stop();
  }
}

runMain(process.argv[2] === 'serve' ? serve : main);
