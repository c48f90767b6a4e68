/**
 * Deadline rush (docs/performance.md, "Deadline rush"): N participants (1,000) who all start within WINDOW seconds (10), each
 * signing in, opening the participant centre (GET /api/user/account), saving a sign-up draft,
 * uploading an S MB certificate (20) in 5 MB pieces through the real chunked API (5 in flight, the
 * last piece alone, as the web uploader does) plus a one-piece commitment letter, then submitting
 * the sign-up. While its upload runs, each participant keeps the page alive: GET /api/user/account
 * every POLL seconds (3) and a draft save every second poll; their latency is the figure that
 * matters (target p99 < 1 s during the rush, 0 errors). A piece refused with 429 (the instance's
 * UPLOAD_MAX_PIECES_IN_FLIGHT) waits its Retry-After and is sent again: counted apart, not as an
 * error. As the web uploader, each participant's pieces go through a congestion window (the web's
 * own CongestionWindow: slow start from 2 pieces, halved on a refusal, one more every 3 pieces taken).
 *
 * The server is the built one (`npm run build -w @contest/server` first): `node
 * apps/server/dist/server.js`, one or two child processes, out of process from this load
 * generator. The accounts are created in the database before the server starts (set-based, one
 * password hash), so the run measures the rush, not registration; login needs no captcha.
 *
 *   npm run bench:rush -- --n 100 --mb 20                        (embedded PGlite, one instance)
 *   npm run bench:rush -- --db pg --instances 2 --n 300 --mb 5   (PostgreSQL + Redis, two instances)
 *   npm run bench:rush -- --db pg --s3 ...                        (files in S3, an s3rver)
 *
 * Options: --n, --mb (at most 20, the TEAM ceiling), --window (s), --poll (s), --db pglite|pg,
 * --instances 1|2 (2 needs pg), --s3 (needs pg), --pieces-in-flight (the servers'
 * UPLOAD_MAX_PIECES_IN_FLIGHT, default theirs: 16), --pieces-waiting (UPLOAD_MAX_PIECES_WAITING,
 * default 256). PostgreSQL: DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), where a database bench_rush_<time> is created and
 * dropped; REDIS_URL (default redis://127.0.0.1:6379), keys under a prefix of the run's own,
 * deleted at the end.
 *
 * Addresses: every participant connects from a loopback address of its own (127.x.y.z, Linux
 * routes all of 127/8 to lo), with connections of its own (a keep-alive agent, 6 sockets, as a
 * browser). With two instances, a round-robin proxy (a child process, like nginx: the request
 * body buffered before it goes upstream, X-Forwarded-For gets the client's address appended) sits
 * in front; with one, the bench sends
 * X-Forwarded-For itself. Either way TRUST_PROXY=1 and the per-address limits see one participant
 * per address, as in production. The proxy (and the s3rver) run in a helper child process so
 * that their CPU is counted apart from the load generator's and the servers'.
 *
 * The generated files: one random 5 MB block shared by everything, sent with a 32-byte stamp
 * (participant, piece) in front, so no file is allocated and no two pieces are the same.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { UPLOAD_CONCURRENT_FILES, UPLOAD_PIECE_SIZE, UPLOAD_PIECES_IN_FLIGHT } from '@contest/shared';
import { deleteRedisPrefix } from '../apps/server/test/redis-prefix.js';
import { startRoundRobinProxy } from '../apps/server/test/round-robin-proxy.js';
import { CongestionWindow, SLOW_START_PIECES, WINDOW_GROWTH_SUCCESSES } from '../apps/web/src/lib/upload/congestion-window.js';
import { forkServer, serveParent, type ServerProcess } from './support/child.js';
import { cpuSecondsOf, MB, peakRssMbOf, sampleMemory } from './support/memory.js';
import { load, markdown } from './support/report.js';
import { runMain } from './support/run.js';
import { BENCH_PASSWORD, seedParticipants } from './support/seed.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_JS = join(ROOT, 'apps/server/dist/server.js');
const MIB = 2 ** 20;
const TEAM_MAX_MB = 20;
const COMMITMENT_BYTES = 200 * 1024;
const BROWSER_SOCKETS = 6;
const S3_BUCKET = 'contest-rush';

const { values: opts } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'aux'),
  options: {
    n: { type: 'string', default: '1000' },
    mb: { type: 'string', default: '20' },
    window: { type: 'string', default: '10' },
    poll: { type: 'string', default: '3' },
    db: { type: 'string', default: 'pglite' },
    instances: { type: 'string', default: '1' },
    s3: { type: 'boolean', default: false },
    /** UPLOAD_MAX_PIECES_IN_FLIGHT of each instance (default: the server's, 16). */
    'pieces-in-flight': { type: 'string', default: '' },
    'pieces-waiting': { type: 'string', default: '' },
  },
  strict: true,
});

// ---- helper child: the round-robin proxy and the s3rver, CPU of their own ------------------------

interface AuxReady {
  proxyPort: number | null;
  s3Port: number | null;
}

type S3rverClass = new (options: {
  port: number;
  address: string;
  directory: string;
  silent: boolean;
  configureBuckets: Array<{ name: string; configs: string[] }>;
}) => { run(): Promise<{ port: number }>; close(): Promise<unknown> };

async function aux(): Promise<void> {
  const ports = (process.env.RUSH_UPSTREAMS ?? '').split(',').filter(Boolean).map(Number);
  const s3Dir = process.env.RUSH_S3_DIR;
  let s3: { close(): Promise<unknown> } | null = null;
  let s3Port: number | null = null;
  if (s3Dir) {
    // The module has no types of its own (the server's declaration is not in the bench's project).
    const specifier = 's3rver';
    const { default: S3rver } = (await import(specifier)) as { default: S3rverClass };
    const server = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: S3_BUCKET, configs: [] }] });
    s3Port = (await server.run()).port;
    s3 = server;
  }
  // As deploy/nginx.conf: uploads (/api/attachment/) stream to the instances (proxy_request_buffering
  // off), so a piece waiting in an instance's line holds the client's body back instead of the
  // proxy's memory; other calls are buffered whole first (nginx's default).
  const proxy = ports.length ? await startRoundRobinProxy({ ports, buffer: (url) => !url.startsWith('/api/attachment/') }) : null;
  serveParent<AuxReady>({ proxyPort: proxy?.port ?? null, s3Port }, {}, async () => {
    proxy?.server.closeAllConnections();
    await new Promise<void>((done) => (proxy ? proxy.server.close(() => done()) : done()));
    await s3?.close();
  });
}

// ---- server processes -----------------------------------------------------------------------------

interface Instance {
  child: ChildProcess;
  pid: number;
  port: number;
  exited: Promise<void>;
}

/** `node apps/server/dist/server.js` on a free port; resolves once it prints where it runs. */
function startInstance(env: NodeJS.ProcessEnv): Promise<Instance> {
  // BENCH_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it exits (bench/support/cpu-profile-top.ts).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, SERVER_JS], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((done, fail) => {
    let out = '';
    const onData = (b: Buffer) => {
      out += b.toString('utf8');
      const m = /running at http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        done({ child, pid: child.pid!, port: Number(m[1]), exited });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
}

// ---- the client --------------------------------------------------------------------------------------

interface Answer {
  status: number;
  retryAfter: number | null;
  body: { status?: number; message?: string; data?: unknown } | null;
}

interface Client {
  /** The uploads' connections (6, as a browser per host over HTTP/1.1). */
  agent: Agent;
  /** The page's own calls: a connection of their own (as over HTTP/2), so their latency is the server's, not a wait for a socket behind 5 MB pieces. */
  pageAgent: Agent;
  address: string;
  token: string;
  /** Pieces sent at once, as the web upload queue's window. */
  window: CongestionWindow;
}

let target = { port: 0, sendForwardedFor: true };

/** One request as the participant's browser sends it; `payload` is written as given (JSON or a raw piece's parts). */
/** Sockets that already ignore late errors (each kept-alive socket gets one listener, not one per request). */
const guardedSockets = new WeakSet<object>();

function send(client: Client, method: string, path: string, payload: { headers: Record<string, string | number>; parts: Buffer[] } | null = null): Promise<Answer> {
  return new Promise((done, fail) => {
    const headers: Record<string, string | number> = { ...payload?.headers };
    if (client.token) headers.authorization = `Bearer ${client.token}`;
    if (target.sendForwardedFor) headers['x-forwarded-for'] = client.address;
    const agent = path.startsWith('/api/attachment/') ? client.agent : client.pageAgent;
    const req = request({ host: '127.0.0.1', port: target.port, method, path, agent, localAddress: client.address, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Answer['body'] = null;
        try {
          body = JSON.parse(text) as Answer['body'];
        } catch {
          body = { message: text.slice(0, 200) };
        }
        const ra = res.headers['retry-after'];
        done({ status: res.statusCode ?? 0, retryAfter: ra === undefined ? null : Number(ra), body });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    // Answered early (a 429 while the body is still going out), the socket may fail after its request let go of it.
    req.on('socket', (socket) => {
      if (guardedSockets.has(socket)) return;
      guardedSockets.add(socket);
      socket.on('error', () => {});
    });
    for (const part of payload?.parts ?? []) req.write(part);
    req.end();
  });
}

const json = (value: unknown) => {
  const buf = Buffer.from(JSON.stringify(value));
  return { headers: { 'content-type': 'application/json', 'content-length': buf.length }, parts: [buf] };
};

// ---- figures ---------------------------------------------------------------------------------------

class Step {
  readonly times: number[] = [];
  errors = 0;
  busy = 0;
  readonly samples: string[] = [];
  constructor(readonly name: string) {}
  error(message: string) {
    this.errors++;
    if (this.samples.length < 3) this.samples.push(message.slice(0, 300));
  }
}

const steps = new Map<string, Step>();
const step = (name: string) => {
  let s = steps.get(name);
  if (!s) steps.set(name, (s = new Step(name)));
  return s;
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

class StepFailed extends Error {}

/** Times one call as `name`; a non-200 answer is that step's error (and ends the participant's run). */
async function timed(name: string, run: () => Promise<Answer>): Promise<Answer> {
  const s = step(name);
  const t0 = performance.now();
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    s.error(err instanceof Error ? err.message : String(err));
    throw new StepFailed(name);
  }
  if (answer.status !== 200 || (answer.body?.status !== undefined && answer.body.status !== 200)) {
    s.error(`${answer.status} ${answer.body?.message ?? ''}`);
    throw new StepFailed(name);
  }
  s.times.push(performance.now() - t0);
  return answer;
}

// ---- the participant ----------------------------------------------------------------------------------

const block = randomBytes(UPLOAD_PIECE_SIZE);
const STAMP = 32;
let uploadedBytes = 0;
let firstPieceAt = Infinity;
let lastPieceAt = 0;
const fileSeconds: number[] = [];

/**
 * A piece as the web uploader sends it: the raw bytes (the stamp, keeping %PDF at the start of
 * piece 0, then the shared block), the form's fields in the query string.
 */
function piecePath(uploadId: string, name: string, chunks: number, chunk: number): string {
  const query = new URLSearchParams({ origin: 'TEAM', id: uploadId, name, chunks: String(chunks), chunk: String(chunk) });
  return `/api/attachment/piece/upload?${query.toString()}`;
}

function pieceParts(who: number, uploadId: string, chunk: number, size: number) {
  const stamp = Buffer.from(`${chunk === 0 ? '%PDF-1.7\n' : ''}${who}:${chunk}:${uploadId}`.padEnd(STAMP, ' ').slice(0, STAMP), 'latin1');
  const parts = [stamp.subarray(0, Math.min(STAMP, size)), block.subarray(STAMP, Math.max(STAMP, size))];
  const length = parts.reduce((n, p) => n + p.length, 0);
  return { headers: { 'content-type': 'application/octet-stream', 'content-length': length }, parts };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const NEVER = new AbortController().signal;
// Every participant's waiting pieces listen on it; none ever fires, so no leak to warn about.
setMaxListeners(Infinity, NEVER);

/** One file in pieces, UPLOAD_PIECES_IN_FLIGHT at a time and the last one alone; its uniqueNo. */
async function uploadFile(client: Client, who: number, name: string, bytes: number, timedAsFile: boolean): Promise<string> {
  const id = randomUUID();
  const chunks = Math.max(1, Math.ceil(bytes / UPLOAD_PIECE_SIZE));
  const started = performance.now();
  const sendPiece = async (chunk: number): Promise<Answer> => {
    const size = Math.min(UPLOAD_PIECE_SIZE, bytes - chunk * UPLOAD_PIECE_SIZE);
    for (;;) {
      const ticket = await client.window.acquire(NEVER);
      firstPieceAt = Math.min(firstPieceAt, performance.now());
      const answer = await timed('piece (5 MB)', async () => {
        const a = await send(client, 'POST', piecePath(id, name, chunks, chunk), pieceParts(who, id, chunk, size));
        // Busy: not an error, not a timed piece; waited out below.
        return a.status === 429 ? { ...a, status: 200, body: { status: 200, data: { busy: a.retryAfter ?? 1 } } } : a;
      }).catch((err: unknown) => {
        client.window.release(ticket, 'other');
        throw err;
      });
      const busy = (answer.body?.data as { busy?: number } | undefined)?.busy;
      client.window.release(ticket, busy !== undefined ? 'busy' : answer.status === 200 ? 'taken' : 'other');
      if (busy !== undefined) {
        const s = step('piece (5 MB)');
        s.times.pop();
        s.busy++;
        // As the web uploader: the wait asked for (at most 60 s), plus up to half as much at random.
        await sleep(Math.min(busy, 60) * 1000 * (1 + Math.random() / 2));
        continue;
      }
      uploadedBytes += size;
      lastPieceAt = performance.now();
      return answer;
    }
  };
  let next = 0;
  const last = chunks - 1;
  const worker = async () => {
    while (next < last) await sendPiece(next++);
  };
  await Promise.all(Array.from({ length: Math.min(UPLOAD_PIECES_IN_FLIGHT, last) }, worker));
  const final = await sendPiece(last);
  const data = final.body?.data as { complete?: boolean; uniqueNo?: string } | undefined;
  if (!data?.complete || !data.uniqueNo) {
    step('upload (whole file)').error(`last piece did not complete: ${JSON.stringify(final.body).slice(0, 200)}`);
    throw new StepFailed('upload');
  }
  const ms = performance.now() - started;
  if (timedAsFile) {
    step('upload (whole file)').times.push(ms);
    fileSeconds.push(ms / 1000);
  }
  return data.uniqueNo;
}

const draftOf = (who: number, files: { certificate: string | null; commitment: string | null }) => ({
  orgName: `冲刺医院${who}`,
  orgType: 'ENTERPRISE',
  creditCode: '91350100M000100Y43',
  region: 'P01',
  city: '北京',
  track: 'SMART_SUPERVISION',
  teamName: `冲刺队${who}`,
  leader: { name: '张明', phone: '13800000001', email: 'zhang@example.com', title: 'SENIOR' },
  members: [{ name: '李华', organization: '示例医院', title: 'INTERMEDIATE', phone: '13800000002', email: 'li@example.com', role: 'DEVELOPER' }],
  advisor: null,
  certificate: files.certificate,
  commitment: files.commitment,
  recommendation: null,
});

let completed = 0;

async function participant(who: number, username: string, startAt: number, fileBytes: number, pollMs: number): Promise<void> {
  // 127.1.0.1 onwards, never .0 or .255 in the last place.
  const address = `127.${1 + Math.floor(who / 254 / 254)}.${Math.floor(who / 254) % 254}.${(who % 254) + 1}`;
  const client: Client = { agent: new Agent({ keepAlive: true, maxSockets: BROWSER_SOCKETS }), pageAgent: new Agent({ keepAlive: true, maxSockets: 2 }), address, token: '', window: new CongestionWindow(UPLOAD_CONCURRENT_FILES * UPLOAD_PIECES_IN_FLIGHT, WINDOW_GROWTH_SUCCESSES, SLOW_START_PIECES) };
  await sleep(Math.max(0, startAt - performance.now()));
  let uploading = true;
  let poller: Promise<void> = Promise.resolve();
  try {
    const login = await timed('login', () => send(client, 'POST', '/api/login', json({ username, password: BENCH_PASSWORD })));
    client.token = (login.body?.data as { accessToken: string }).accessToken;
    await timed('GET /api/user/account', () => send(client, 'GET', '/api/user/account'));
    await timed('PUT /api/team/my (draft)', () => send(client, 'PUT', '/api/team/my', json(draftOf(who, { certificate: null, commitment: null }))));
    // The page stays open while the file goes up: the account every poll, a draft save every second one.
    poller = (async () => {
      for (let tick = 1; ; tick++) {
        await sleep(pollMs);
        if (!uploading) return;
        await timed('account, during uploads', () => send(client, 'GET', '/api/user/account')).catch(() => {});
        if (tick % 2 === 0 && uploading) {
          await timed('draft save, during uploads', () => send(client, 'PUT', '/api/team/my', json(draftOf(who, { certificate: null, commitment: null })))).catch(() => {});
        }
      }
    })();
    let certificate: string;
    let commitment: string;
    try {
      certificate = await uploadFile(client, who, '营业执照.pdf', fileBytes, true);
      commitment = await uploadFile(client, who, '承诺书.pdf', COMMITMENT_BYTES, false);
    } finally {
      uploading = false;
    }
    // The page's last poll ends before the submit (a draft saved after it would be refused: already submitted).
    await poller;
    const submitted = await timed('POST /api/team/my/submit', () => send(client, 'POST', '/api/team/my/submit', json(draftOf(who, { certificate, commitment }))));
    const status = (submitted.body?.data as { status?: string } | undefined)?.status;
    if (status === 'DRAFT') step('POST /api/team/my/submit').error('answered a DRAFT');
    else completed++;
  } catch (err) {
    if (!(err instanceof StepFailed)) step('(client)').error(err instanceof Error ? err.message : String(err));
  } finally {
    uploading = false;
    await poller;
    client.agent.destroy();
    client.pageAgent.destroy();
  }
}

// ---- main ----------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const n = Number(opts.n);
  const mb = Number(opts.mb);
  const windowS = Number(opts.window);
  const pollMs = Number(opts.poll) * 1000;
  const pg = opts.db === 'pg';
  const instances = Number(opts.instances);
  if (!(n >= 1) || !(mb > 0) || mb > TEAM_MAX_MB) throw new Error(`--n must be >= 1 and --mb in (0, ${TEAM_MAX_MB}] (the TEAM ceiling)`);
  if (opts.db !== 'pg' && opts.db !== 'pglite') throw new Error('--db is pglite or pg');
  if (instances !== 1 && instances !== 2) throw new Error('--instances is 1 or 2');
  if (!pg && (instances > 1 || opts.s3)) throw new Error('two instances and S3 need --db pg (PGlite belongs to one process)');
  if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: npm run build -w @contest/server first`);
  const fileBytes = Math.round(mb * MIB);

  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { runMigrations } = await import('../apps/server/src/db/migrate.js');
  const { ownDatabase } = await import('./support/app.js');

  const tag = Date.now().toString(36);
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-rush-'));
  const s3Dir = opts.s3 ? mkdtempSync(join(tmpdir(), 'contest-rush-s3-')) : null;
  const own = pg ? await ownDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'bench_rush') : null;
  const redisUrl = pg ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : '';
  const redisPrefix = `bench:rush:${tag}:`;
  const servers: Instance[] = [];
  let s3Aux: ServerProcess<AuxReady> | null = null;
  let proxyAux: ServerProcess<AuxReady> | null = null;
  try {
    // Accounts first, straight into the database the server will open (PGlite: before it opens it).
    const database = await openDatabase({ databaseUrl: own?.url, dataDir });
    await runMigrations(database);
    await seedParticipants(database.db, { count: n, prefix: `rush${tag}u`, namePrefix: `冲刺${tag}`, phonePrefix: '136', agreed: true });
    await database.close();

    if (s3Dir) s3Aux = await forkServer<AuxReady>(fileURLToPath(import.meta.url), ['aux'], { ...process.env, RUSH_S3_DIR: s3Dir, RUSH_UPSTREAMS: '' });
    const s3Port = s3Aux?.ready.s3Port;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: own?.url ?? '',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      TRUST_PROXY: '1',
      SEED_ADMIN_PASSWORD: BENCH_PASSWORD,
      SMS_PROVIDER: 'log',
      ...(opts['pieces-in-flight'] ? { UPLOAD_MAX_PIECES_IN_FLIGHT: opts['pieces-in-flight'] } : {}),
      ...(opts['pieces-waiting'] ? { UPLOAD_MAX_PIECES_WAITING: opts['pieces-waiting'] } : {}),
      // libuv's pool (default 4 threads) carries both the pieces' disk writes and argon2 (login): settable to see what it bounds.
      ...(process.env.UV_THREADPOOL_SIZE ? { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE } : {}),
      ...(s3Port
        ? { STORAGE_DRIVER: 's3', S3_ENDPOINT: `http://127.0.0.1:${s3Port}`, S3_BUCKET, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }
        : {}),
    };
    for (const s of await Promise.allSettled(Array.from({ length: instances }, () => startInstance(env)))) {
      if (s.status === 'fulfilled') servers.push(s.value);
      else throw s.reason;
    }
    if (instances > 1) {
      proxyAux = await forkServer<AuxReady>(fileURLToPath(import.meta.url), ['aux'], { ...process.env, RUSH_UPSTREAMS: servers.map((s) => s.port).join(','), RUSH_S3_DIR: '' });
      target = { port: proxyAux.ready.proxyPort!, sendForwardedFor: false };
    } else {
      target = { port: servers[0]!.port, sendForwardedFor: true };
    }

    const watched = [
      ...servers.map((s, i) => ({ name: `server ${i + 1} (pid ${s.pid})`, pid: s.pid })),
      ...(proxyAux ? [{ name: 'proxy', pid: proxyAux.pid }] : []),
      ...(s3Aux ? [{ name: 's3rver', pid: s3Aux.pid }] : []),
    ];
    const cpuBefore = watched.map((w) => cpuSecondsOf(w.pid));
    const selfBefore = process.cpuUsage();
    // This process's RSS during the rush only (the seeding before opened a database in it).
    const selfRss = sampleMemory(200);
    const loadBefore = load();

    const started = performance.now();
    const windowMs = windowS * 1000;
    await Promise.all(Array.from({ length: n }, (_, i) => participant(i + 1, `rush${tag}u${i + 1}`, started + (windowMs * i) / n, fileBytes, pollMs)));
    const wall = (performance.now() - started) / 1000;

    const cpu = watched.map((w, i) => ({ ...w, seconds: cpuSecondsOf(w.pid) - cpuBefore[i]!, peakRss: peakRssMbOf(w.pid) }));
    const self = process.cpuUsage(selfBefore);
    const selfPeakMb = Math.round(selfRss.stop().peak / MB);
    const selfSeconds = (self.user + self.system) / 1e6;

    const rows = [...steps.values()].map((s) => {
      const sorted = [...s.times].sort((a, b) => a - b);
      return [
        s.name,
        s.times.length,
        s.errors,
        s.name.startsWith('piece') ? s.busy : '',
        (s.times.length / wall).toFixed(1),
        Math.round(quantile(sorted, 0.5)),
        Math.round(quantile(sorted, 0.99)),
        Math.round(sorted.at(-1) ?? NaN),
      ];
    });
    const uploadSeconds = (lastPieceAt - firstPieceAt) / 1000;
    const perFile = [...fileSeconds].sort((a, b) => a - b);
    const setup =
      `${n} participants, ${mb} MB each (+${COMMITMENT_BYTES / 1024} KB commitment), start window ${windowS} s, poll ${opts.poll} s; ` +
      `${pg ? 'PostgreSQL + Redis' : 'embedded PGlite'}${opts.s3 ? ' + S3 (s3rver)' : ''}, ${instances} instance(s), pieces in flight per instance ${opts['pieces-in-flight'] || 'default (16)'}, waiting ${opts['pieces-waiting'] || 'default (256)'}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 'default (4)'}`;
    console.log(`\ndeadline rush: ${setup}`);
    console.log(`load average before: ${loadBefore}, after: ${load()}; wall ${wall.toFixed(1)} s; ${completed}/${n} submitted\n`);
    console.log(markdown(['step', 'count', 'errors', '429s', 'per s', 'p50 ms', 'p99 ms', 'max ms'], rows));
    console.log(
      `\nuploads: ${(uploadedBytes / MIB).toFixed(0)} MB in ${uploadSeconds.toFixed(1)} s = ${(uploadedBytes / MIB / uploadSeconds).toFixed(1)} MB/s overall; ` +
        `per ${mb} MB file: p50 ${quantile(perFile, 0.5)?.toFixed(1)} s, p99 ${quantile(perFile, 0.99)?.toFixed(1)} s`,
    );
    const refused = step('piece (5 MB)').busy;
    // A refused piece's body is still sent and read (files.md: so the browser reads the 429).
    console.log(`pieces refused (429): ${refused}, about ${((refused * UPLOAD_PIECE_SIZE) / MIB / 1024).toFixed(1)} GB of bodies sent and discarded beside ${(uploadedBytes / MIB / 1024).toFixed(1)} GB stored`);
    console.log(
      '\n' +
        markdown(
          ['process', 'CPU s (user+sys)', 'CPU % of wall (100 = 1 core)', 'peak RSS MB'],
          [
            ...cpu.map((c) => [c.name, c.seconds.toFixed(1), Math.round((c.seconds / wall) * 100), c.peakRss]),
            ['load generator (this)', selfSeconds.toFixed(1), Math.round((selfSeconds / wall) * 100), selfPeakMb],
          ],
        ),
    );
    for (const s of steps.values()) for (const sample of s.samples) console.log(`error sample, ${s.name}: ${sample}`);
    const interactive = [...steps.values()].filter((s) => s.name.includes('during uploads'));
    const worst = Math.max(0, ...interactive.map((s) => quantile([...s.times].sort((a, b) => a - b), 0.99)));
    const errors = [...steps.values()].reduce((a, s) => a + s.errors, 0);
    console.log(`\ntargets: interactive p99 during the rush < 1000 ms: ${Math.round(worst)} ms ${worst < 1000 ? 'met' : 'NOT met'}; errors 0: ${errors} ${errors === 0 ? 'met' : 'NOT met'}`);
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await proxyAux?.stop();
    await s3Aux?.stop();
    await own?.drop();
    if (redisUrl) await deleteRedisPrefix(redisUrl, redisPrefix);
    rmSync(dataDir, { recursive: true, force: true });
    if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
  }
}

runMain(process.argv[2] === 'aux' ? aux : main);
