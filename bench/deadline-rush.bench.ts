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
 * Sign-ins refused 503 BUSY (the password line full) are sent again after their Retry-After, as
 * the web client does (counted in the busy column, not as errors).
 *
 * Direct upload (--s3 --direct): each file goes as the web uploader's direct path sends it
 * (docs/files.md, "Direct upload"): GET /api/attachment/direct once per page (offered?), POST
 * /api/attachment/direct/start with the whole file's SHA-256, POST /:id/parts for the signed part
 * links (batches of 20, each part's SHA-256 signed in), each 5 MB part PUT straight to the store
 * with the link's headers (x-amz-checksum-sha256) through the same congestion window, GET /:id
 * (the state a resuming page reads), POST /:id/complete. The store is
 * apps/server/test/verifying-s3.ts with its bodies on disk (a temporary directory, removed at
 * the end) in a helper child: it checks every SigV4 signature (presigned part links included) and
 * every part's checksum, and its refusals are printed (0 expected). Printed beside the figures:
 * the app's CPU seconds and the bytes the load generator sent it per uploaded GB, to compare with
 * the piece path (the same command without --direct).
 *
 * Page traffic (--mode pages): N participants already signed in (sessions written before the
 * server starts, as the login call would) keep a page open for --duration s: GET
 * /api/user/account every --poll s, the draft saved every second poll; no uploads. Page calls
 * are reported per phase (the first 6 s apart as warm-up), p50/p95/p99. With --burst B, B more
 * participants sign in evenly within --burst-window s from --burst-at s (default a third of the
 * duration), each then opening the participant centre: the page calls before, during and after
 * the burst show what the burst costs the pages already open.
 *
 * The server is the built one (`npm run build -w @contest/server` first): `node
 * apps/server/dist/server.js`, one or two child processes, out of process from this load
 * generator. The accounts are created in the database before the server starts (set-based, one
 * password hash), so the run measures the rush, not registration; login needs no captcha.
 *
 *   npm run bench:rush -- --n 100 --mb 20                        (embedded PGlite, one instance)
 *   npm run bench:rush -- --db pg --instances 2 --n 300 --mb 5   (PostgreSQL + Redis, two instances)
 *   npm run bench:rush -- --db pg --s3 ...                        (files in S3: pieces through the app)
 *   npm run bench:rush:direct -- --n 1000                         (the same, files straight to the store)
 *   npm run bench:pages -- --db pg --n 5000 --duration 120        (page traffic only)
 *   npm run bench:sign-in-burst -- --db pg --n 5000 --burst 1000  (page traffic and a burst of sign-ins)
 *
 * Options: --n, --mb (at most 20, the TEAM ceiling), --window (s), --poll (s), --db pglite|pg,
 * --instances 1|2 (2 needs pg), --s3 (needs pg), --store verifying|s3rver (with --s3; default
 * verifying), --direct (with --s3 and the verifying store), --mode rush|pages, --duration (s,
 * pages), --burst, --burst-window (s), --burst-at (s), --pieces-in-flight (the servers'
 * UPLOAD_MAX_PIECES_IN_FLIGHT, default theirs: 16), --pieces-waiting (UPLOAD_MAX_PIECES_WAITING,
 * default theirs). PASSWORD_THREADS, PASSWORD_MAX_WAITING and UV_THREADPOOL_SIZE in the
 * environment are passed to the servers. PostgreSQL: DATABASE_URL (default
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
 * per address, as in production. The proxy (and the store) run in a helper child process so
 * that their CPU is counted apart from the load generator's and the servers'. The store's
 * bodies take the whole run's bytes on disk (20 GB for 1,000 x 20 MB): TMPDIR picks the disk.
 *
 * The generated files: one random 5 MB block shared by everything (beginning with %PDF), so no
 * file is allocated. Pieces are sent with a 32-byte stamp (participant, piece) in front, so no two
 * pieces are the same; direct parts are the block, the file's last part ending in a stamp
 * (participant, file), so every file differs and the load generator hashes 32 bytes a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { createHash, randomBytes, randomUUID, type Hash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { DIRECT_PART_SIZE, UPLOAD_CONCURRENT_FILES, UPLOAD_PIECE_SIZE, UPLOAD_PIECES_IN_FLIGHT } from '@contest/shared';
import { deleteRedisPrefix } from '../apps/server/test/redis-prefix.js';
import { startRoundRobinProxy } from '../apps/server/test/round-robin-proxy.js';
import { startVerifyingS3 } from '../apps/server/test/verifying-s3.js';
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
const S3_KEY = { id: 'RUSHKEY', secret: 'rush-secret-key' };
/** Part links asked for in one call, as the web uploader (apps/web/src/lib/upload/upload-queue.ts, DIRECT_SIGN_BATCH). */
const DIRECT_SIGN_BATCH = 20;
/** Times a call refused 503 BUSY is sent again, as the web client (apps/web/src/api/http-client.ts, BUSY_RETRIES). */
const BUSY_RETRIES = 4;
/** The store's default wait when it gives no Retry-After (apps/web/src/lib/upload/upload-api.ts, DEFAULT_BUSY_RETRY_MS). */
const STORE_RETRY_MS = 2000;
/** Page calls in the first seconds of the page-traffic mode (participants still arriving): reported apart. */
const WARM_UP_MS = 6000;

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
    /** With --s3: the store (`verifying`: apps/server/test/verifying-s3.ts on disk; `s3rver`). */
    store: { type: 'string', default: 'verifying' },
    /** With --s3: files go as the web uploader's direct path does, straight to the store. */
    direct: { type: 'boolean', default: false },
    /** `rush` (sign-in, uploads, submit) or `pages` (signed-in pages only, for --duration s). */
    mode: { type: 'string', default: 'rush' },
    duration: { type: 'string', default: '60' },
    /** Pages mode: this many more participants sign in within --burst-window s from --burst-at s. */
    burst: { type: 'string', default: '0' },
    'burst-window': { type: 'string', default: '10' },
    'burst-at': { type: 'string', default: '' },
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
  let refusals: () => string[] = () => [];
  if (s3Dir && process.env.RUSH_S3_STORE === 'verifying') {
    // Checks every request's SigV4 signature and each part's x-amz-checksum-sha256; bodies on disk.
    const store = await startVerifyingS3({ bucket: S3_BUCKET, accessKeyId: S3_KEY.id, secretAccessKey: S3_KEY.secret, directory: s3Dir });
    s3Port = Number(new URL(store.endpoint).port);
    s3 = store;
    refusals = () => store.refusals;
  } else if (s3Dir) {
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
  serveParent<AuxReady>({ proxyPort: proxy?.port ?? null, s3Port }, { refusals: () => refusals() }, async () => {
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
  /** The store's connections (direct upload: another host, so 6 more, as a browser). */
  storeAgent: Agent;
}

let target = { port: 0, sendForwardedFor: true };
/** The store as the part links name it (direct upload). */
let storePort = 0;
/** Bytes the load generator wrote to and read from the app's sockets (request and answer, headers included). */
const appWire = { sent: 0, received: 0 };
const wireSeen = new WeakMap<object, { sent: number; received: number }>();

/** One request as the participant's browser sends it; `payload` is written as given (JSON or a raw piece's parts). */
/** Sockets that already ignore late errors (each kept-alive socket gets one listener, not one per request). */
const guardedSockets = new WeakSet<object>();

function send(
  client: Client,
  method: string,
  path: string,
  payload: { headers: Record<string, string | number>; parts: Buffer[] } | null = null,
  to: 'app' | 'store' = 'app',
): Promise<Answer> {
  return new Promise((done, fail) => {
    const headers: Record<string, string | number> = { ...payload?.headers };
    const app = to === 'app';
    // The store's links carry their own signature: no token, no forwarded address (no proxy in front of the store).
    if (app && client.token) headers.authorization = `Bearer ${client.token}`;
    if (app && target.sendForwardedFor) headers['x-forwarded-for'] = client.address;
    const agent = !app ? client.storeAgent : path.startsWith('/api/attachment/') ? client.agent : client.pageAgent;
    const port = app ? target.port : storePort;
    const req = request({ host: '127.0.0.1', port, method, path, agent, localAddress: client.address, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => {
        if (app && req.socket) {
          const socket = req.socket;
          const seen = wireSeen.get(socket) ?? { sent: 0, received: 0 };
          appWire.sent += socket.bytesWritten - seen.sent;
          appWire.received += socket.bytesRead - seen.received;
          wireSeen.set(socket, { sent: socket.bytesWritten, received: socket.bytesRead });
        }
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
// Direct parts begin with the block itself: the first part of every file must read as a PDF.
block.write('%PDF-1.7\n', 0, 'latin1');
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

// ---- direct upload (docs/files.md, "Direct upload") -------------------------------------------------

/**
 * A direct file's parts: all but the last are the shared block, the last ends in a stamp
 * (participant, file), so every file and its SHA-256 differ while the load generator hashes 32
 * bytes per file (midstates of the shared prefix are kept; a browser hashes the whole file before
 * it starts, which costs it, not the server).
 */
const midstates = new Map<string, Hash>();
function prefixHash(key: string, build: () => Hash): Hash {
  let h = midstates.get(key);
  if (!h) midstates.set(key, (h = build()));
  return h.copy();
}
const fullPartSha256 = createHash('sha256').update(block.subarray(0, DIRECT_PART_SIZE)).digest('base64');

interface DirectFile {
  size: number;
  chunks: number;
  stamp: Buffer;
  sha256: string;
  partSha256: string[];
}

function directFile(who: number, name: string, bytes: number): DirectFile {
  const chunks = Math.max(1, Math.ceil(bytes / DIRECT_PART_SIZE));
  const lastSize = bytes - (chunks - 1) * DIRECT_PART_SIZE;
  if (lastSize < STAMP) throw new Error(`a direct file's last part must hold the ${STAMP}-byte stamp`);
  const stamp = Buffer.from(`${who}:${name}:${randomUUID()}`.padEnd(STAMP, ' ').slice(0, STAMP), 'latin1');
  const lastPrefix = lastSize - STAMP;
  const whole = prefixHash(`whole:${chunks}:${lastPrefix}`, () => {
    const h = createHash('sha256');
    for (let c = 0; c < chunks - 1; c++) h.update(block.subarray(0, DIRECT_PART_SIZE));
    return h.update(block.subarray(0, lastPrefix));
  }).update(stamp);
  const last = prefixHash(`part:${lastPrefix}`, () => createHash('sha256').update(block.subarray(0, lastPrefix))).update(stamp);
  return {
    size: bytes,
    chunks,
    stamp,
    sha256: whole.digest('hex'),
    partSha256: [...Array.from({ length: chunks - 1 }, () => fullPartSha256), last.digest('base64')],
  };
}

const directPartBytes = (file: DirectFile, chunk: number): Buffer[] =>
  chunk < file.chunks - 1 ? [block.subarray(0, DIRECT_PART_SIZE)] : [block.subarray(0, file.size - (file.chunks - 1) * DIRECT_PART_SIZE - STAMP), file.stamp];

interface PartLink {
  chunk: number;
  url: string;
  headers: Record<string, string>;
  /** When the link stops working (ms). */
  expiresAt: number;
}

/** A link this close to its expiry is signed again first (the web uploader's LINK_RENEW_MARGIN_MS). */
const LINK_RENEW_MARGIN_MS = 30_000;
const fresh = (link: PartLink | undefined): link is PartLink => link !== undefined && link.expiresAt - Date.now() > LINK_RENEW_MARGIN_MS;

/** A portal call of the direct path; 429 or 503 BUSY waited out (Retry-After) and sent again, as the web uploader's whileBusy. */
async function directCall(name: string, client: Client, method: string, path: string, body: unknown): Promise<Answer> {
  for (;;) {
    const answer = await timed(name, async () => {
      const a = await send(client, method, path, body === undefined ? null : json(body));
      const busy = a.status === 429 || (a.status === 503 && (a.body?.data as { reason?: string } | undefined)?.reason === 'BUSY');
      return busy ? { ...a, status: 200, body: { status: 200, data: { busy: a.retryAfter ?? 2 } } } : a;
    });
    const busy = (answer.body?.data as { busy?: number } | undefined)?.busy;
    if (busy === undefined) return answer;
    const s = step(name);
    s.times.pop();
    s.busy++;
    await sleep(Math.min(busy, 60) * 1000 * (1 + Math.random() / 2));
  }
}

/**
 * One file as the web uploader's direct path sends it (apps/web/src/lib/upload/upload-queue.ts,
 * uploadDirect): start with the whole file's SHA-256, part links signed in batches of 20 (each
 * part's SHA-256 signed in), each part PUT to the store with exactly the link's headers through the
 * same congestion window as pieces (a 429, 5xx or lost connection waits and goes again), the
 * upload's state read back (GET /:id, what a resuming page asks), then the completion.
 */
async function uploadDirect(client: Client, who: number, name: string, bytes: number, timedAsFile: boolean): Promise<string> {
  const file = directFile(who, name, bytes);
  const started = performance.now();
  const start = await directCall('direct: start', client, 'POST', '/api/attachment/direct/start', { origin: 'TEAM', name, size: bytes, sha256: file.sha256 });
  const id = (start.body?.data as { id?: string } | undefined)?.id;
  if (!id) {
    step('direct: start').error(`no upload id: ${JSON.stringify(start.body).slice(0, 200)}`);
    throw new StepFailed('direct: start');
  }
  const base = `/api/attachment/direct/${encodeURIComponent(id)}`;
  const links = new Map<number, PartLink>();
  const signing = new Map<number, Promise<void>>();
  const unsent = new Set(Array.from({ length: file.chunks }, (_, c) => c));
  const linkFor = async (chunk: number, renew = false): Promise<PartLink> => {
    const cached = links.get(chunk);
    if (!renew && fresh(cached)) return cached;
    const ongoing = signing.get(chunk);
    if (ongoing) {
      await ongoing;
      return links.get(chunk)!;
    }
    const batch = [chunk, ...[...unsent].filter((c) => c !== chunk && !signing.has(c) && !fresh(links.get(c)))].slice(0, DIRECT_SIGN_BATCH);
    const call = directCall('direct: sign parts', client, 'POST', `${base}/parts`, { parts: batch.map((c) => ({ chunk: c, sha256: file.partSha256[c]! })) }).then((answer) => {
      for (const link of (answer.body?.data as { parts?: PartLink[] } | undefined)?.parts ?? []) links.set(link.chunk, link);
    });
    for (const c of batch) signing.set(c, call);
    try {
      await call;
    } finally {
      for (const c of batch) if (signing.get(c) === call) signing.delete(c);
    }
    const link = links.get(chunk);
    if (!link) throw new StepFailed('direct: sign parts');
    return link;
  };
  const putPart = async (chunk: number): Promise<void> => {
    let link = await linkFor(chunk);
    for (let renewed = 0; ; ) {
      const ticket = await client.window.acquire(NEVER);
      firstPieceAt = Math.min(firstPieceAt, performance.now());
      const parts = directPartBytes(file, chunk);
      const size = parts.reduce((n, b) => n + b.length, 0);
      const url = new URL(link.url);
      const headers: Record<string, string | number> = { 'content-length': size };
      for (const [k, v] of Object.entries(link.headers)) if (!['host', 'content-length'].includes(k.toLowerCase())) headers[k] = v;
      const s = step('part PUT to the store (5 MB)');
      const t0 = performance.now();
      let answer: Answer | null = null;
      try {
        answer = await send(client, 'PUT', `${url.pathname}${url.search}`, { headers, parts }, 'store');
      } catch {
        answer = null;
      }
      const retry = answer === null || answer.status === 429 || answer.status >= 500;
      client.window.release(ticket, answer?.status === 200 ? 'taken' : retry ? 'busy' : 'other');
      if (answer?.status === 200) {
        s.times.push(performance.now() - t0);
        uploadedBytes += size;
        lastPieceAt = performance.now();
        unsent.delete(chunk);
        return;
      }
      if (answer === null || retry) {
        // As the web uploader: a busy or unreachable store is waited out and the part sent again.
        s.busy++;
        await sleep((answer?.retryAfter ? answer.retryAfter * 1000 : STORE_RETRY_MS) * (1 + Math.random() / 2));
        continue;
      }
      // As the web uploader: a 403 once the link's time is up asks for a new link (3 times at most).
      if (answer.status === 403 && renewed < 3 && (Date.now() >= link.expiresAt || /expired/i.test(answer.body?.message ?? ''))) {
        renewed++;
        link = await linkFor(chunk, true);
        continue;
      }
      s.error(`${answer.status} ${answer.body?.message ?? ''}`);
      throw new StepFailed('part PUT');
    }
  };
  const pending = Array.from({ length: file.chunks }, (_, c) => c);
  const worker = async () => {
    while (pending.length) await putPart(pending.shift()!);
  };
  await Promise.all(Array.from({ length: Math.min(UPLOAD_PIECES_IN_FLIGHT, file.chunks) }, worker));
  const state = await directCall('direct: status (GET /:id)', client, 'GET', base, undefined);
  const received = (state.body?.data as { received?: number[] } | undefined)?.received;
  if (Array.isArray(received) && received.length !== file.chunks) step('direct: status (GET /:id)').error(`${received.length}/${file.chunks} parts listed`);
  const done = await directCall('direct: complete', client, 'POST', `${base}/complete`, {});
  const data = done.body?.data as { complete?: boolean; uniqueNo?: string } | undefined;
  if (!data?.complete || !data.uniqueNo) {
    step('direct: complete').error(`no stored file: ${JSON.stringify(done.body).slice(0, 200)}`);
    throw new StepFailed('direct: complete');
  }
  const ms = performance.now() - started;
  if (timedAsFile) {
    step('upload (whole file)').times.push(ms);
    fileSeconds.push(ms / 1000);
  }
  return data.uniqueNo;
}

/**
 * Signs in as the web client does: a 503 BUSY (the password line full) is sent again after
 * 0.5-1.5 times its Retry-After, up to BUSY_RETRIES times (docs/performance.md, "Sign-in
 * bursts"); the time counted is the whole wait, the refusals apart.
 */
async function signIn(client: Client, name: string, username: string): Promise<void> {
  const s = step(name);
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    let answer: Answer;
    try {
      answer = await send(client, 'POST', '/api/login', json({ username, password: BENCH_PASSWORD }));
    } catch (err) {
      s.error(err instanceof Error ? err.message : String(err));
      throw new StepFailed(name);
    }
    const data = answer.body?.data as { reason?: string; retryAfterSeconds?: number; accessToken?: string } | undefined;
    if (answer.status === 503 && data?.reason === 'BUSY' && attempt < BUSY_RETRIES) {
      s.busy++;
      const seconds = Number(data.retryAfterSeconds ?? answer.retryAfter);
      await sleep((Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) : 1) * 1000 * (0.5 + Math.random()));
      continue;
    }
    if (answer.status !== 200 || !data?.accessToken) {
      s.error(`${answer.status} ${answer.body?.message ?? ''}`);
      throw new StepFailed(name);
    }
    client.token = data.accessToken;
    s.times.push(performance.now() - t0);
    return;
  }
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
  const client = newClient(who);
  await sleep(Math.max(0, startAt - performance.now()));
  let uploading = true;
  let poller: Promise<void> = Promise.resolve();
  try {
    await signIn(client, 'login', username);
    await timed('GET /api/user/account', () => send(client, 'GET', '/api/user/account'));
    // The uploader asks once per page whether direct upload is offered.
    if (opts.direct) {
      const offer = await timed('direct: offered?', () => send(client, 'GET', '/api/attachment/direct'));
      if ((offer.body?.data as { offered?: boolean } | undefined)?.offered !== true) {
        step('direct: offered?').error('direct upload not offered');
        throw new StepFailed('direct: offered?');
      }
    }
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
      const upload = opts.direct ? uploadDirect : uploadFile;
      certificate = await upload(client, who, '营业执照.pdf', fileBytes, true);
      commitment = await upload(client, who, '承诺书.pdf', COMMITMENT_BYTES, false);
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
    closeClient(client);
  }
}

/** A participant's browser: a loopback address of its own (127.1.0.1 onwards, never .0 or .255 last), its connections, its upload window. */
function newClient(who: number): Client {
  const address = `127.${1 + Math.floor(who / 254 / 254)}.${Math.floor(who / 254) % 254}.${(who % 254) + 1}`;
  return {
    agent: new Agent({ keepAlive: true, maxSockets: BROWSER_SOCKETS }),
    pageAgent: new Agent({ keepAlive: true, maxSockets: 2 }),
    storeAgent: new Agent({ keepAlive: true, maxSockets: BROWSER_SOCKETS }),
    address,
    token: '',
    window: new CongestionWindow(UPLOAD_CONCURRENT_FILES * UPLOAD_PIECES_IN_FLIGHT, WINDOW_GROWTH_SUCCESSES, SLOW_START_PIECES),
  };
}

function closeClient(client: Client): void {
  client.agent.destroy();
  client.pageAgent.destroy();
  client.storeAgent.destroy();
}

// ---- page traffic (mode pages) -------------------------------------------------------------------

/** Where the page-traffic run is: page calls are reported per phase, so a burst's effect shows. */
let phaseOf: (at: number) => string = () => 'steady';

/**
 * A signed-in page and nothing else: GET /api/user/account every `pollMs`, the draft saved every
 * second poll, until `until`; the first call at a random point of the first period (participants
 * already on the page, not arriving together).
 */
async function pageParticipant(who: number, token: string, until: number, pollMs: number): Promise<void> {
  const client = newClient(who);
  client.token = token;
  try {
    await sleep(Math.random() * pollMs);
    for (let tick = 0; performance.now() < until; tick++) {
      const t = performance.now();
      await timed(`account (${phaseOf(t)})`, () => send(client, 'GET', '/api/user/account')).catch(() => {});
      if (tick % 2 === 1 && performance.now() < until) {
        const d = performance.now();
        await timed(`draft save (${phaseOf(d)})`, () => send(client, 'PUT', '/api/team/my', json(draftOf(who, { certificate: null, commitment: null })))).catch(() => {});
      }
      await sleep(Math.max(0, t + pollMs - performance.now()));
    }
  } finally {
    closeClient(client);
  }
}

/** A sign-in of the burst, then the participant centre it opens. */
async function burstParticipant(who: number, username: string, startAt: number): Promise<void> {
  const client = newClient(who);
  await sleep(Math.max(0, startAt - performance.now()));
  try {
    await signIn(client, 'burst: login (with BUSY retries)', username);
    await timed('burst: account after sign-in', () => send(client, 'GET', '/api/user/account'));
    completed++;
  } catch (err) {
    if (!(err instanceof StepFailed)) step('(client)').error(err instanceof Error ? err.message : String(err));
  } finally {
    closeClient(client);
  }
}

// ---- main ----------------------------------------------------------------------------------------------

/** Bytes a process read and wrote through system calls (sockets and files; /proc/<pid>/io). */
function ioOf(pid: number): { rchar: number; wchar: number } {
  try {
    const text = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return { rchar: field('rchar'), wchar: field('wchar') };
  } catch {
    return { rchar: NaN, wchar: NaN };
  }
}

const GIB = 2 ** 30;

async function main(): Promise<void> {
  const n = Number(opts.n);
  const mb = Number(opts.mb);
  const windowS = Number(opts.window);
  const pollMs = Number(opts.poll) * 1000;
  const pg = opts.db === 'pg';
  const instances = Number(opts.instances);
  const pages = opts.mode === 'pages';
  const durationMs = Number(opts.duration) * 1000;
  const burst = pages ? Number(opts.burst) : 0;
  const burstWindowMs = Number(opts['burst-window']) * 1000;
  const burstAtMs = opts['burst-at'] ? Number(opts['burst-at']) * 1000 : durationMs / 3;
  if (!(n >= 1) || !(mb > 0) || mb > TEAM_MAX_MB) throw new Error(`--n must be >= 1 and --mb in (0, ${TEAM_MAX_MB}] (the TEAM ceiling)`);
  if (opts.mode !== 'rush' && opts.mode !== 'pages') throw new Error('--mode is rush or pages');
  if (opts.db !== 'pg' && opts.db !== 'pglite') throw new Error('--db is pglite or pg');
  if (instances !== 1 && instances !== 2) throw new Error('--instances is 1 or 2');
  if (!pg && (instances > 1 || opts.s3)) throw new Error('two instances and S3 need --db pg (PGlite belongs to one process)');
  if (opts.store !== 'verifying' && opts.store !== 's3rver') throw new Error('--store is verifying or s3rver');
  if (opts.direct && (!opts.s3 || opts.store !== 'verifying')) throw new Error('--direct needs --s3 with the verifying store (the default --store)');
  if (pages && (opts.s3 || opts.direct)) throw new Error('--mode pages uploads nothing: no --s3, no --direct');
  if (pages && (!(durationMs > 0) || !(burst >= 0) || !(burstWindowMs > 0) || !(burstAtMs >= 0))) throw new Error('--duration, --burst-window > 0; --burst, --burst-at >= 0');
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
  // Pages mode: participants 1..n are on the page already (sessions written as the login call would), n+1..n+burst sign in.
  const tokens = pages ? Array.from({ length: n }, () => randomBytes(32).toString('base64url')) : [];
  try {
    // Accounts first, straight into the database the server will open (PGlite: before it opens it).
    const database = await openDatabase({ databaseUrl: own?.url, dataDir });
    await runMigrations(database);
    await seedParticipants(database.db, { count: n + burst, prefix: `rush${tag}u`, namePrefix: `冲刺${tag}`, phonePrefix: '136', agreed: true });
    if (pages) {
      const rows = tokens.map((t, i) => ({ h: createHash('sha256').update(t).digest('hex'), u: `rush${tag}u${i + 1}` }));
      await database.db.execute(sql`
        insert into sessions (token_hash, realm, account_id, expires_at, last_used_at)
        select v.h, 'USER', a.id, now() + interval '7 days', now()
          from json_to_recordset(${JSON.stringify(rows)}::json) as v(h text, u text)
          join accounts a on a.realm = 'USER' and a.username = v.u`);
      await database.db.execute(sql`analyze`);
    }
    await database.close();

    if (s3Dir) {
      s3Aux = await forkServer<AuxReady>(fileURLToPath(import.meta.url), ['aux'], { ...process.env, RUSH_S3_DIR: s3Dir, RUSH_S3_STORE: opts.store, RUSH_UPSTREAMS: '' });
    }
    const s3Port = s3Aux?.ready.s3Port;
    storePort = s3Port ?? 0;
    const verifying = opts.store === 'verifying';
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
      ...(process.env.PASSWORD_THREADS ? { PASSWORD_THREADS: process.env.PASSWORD_THREADS } : {}),
      ...(process.env.PASSWORD_MAX_WAITING ? { PASSWORD_MAX_WAITING: process.env.PASSWORD_MAX_WAITING } : {}),
      // The PostgreSQL pool per instance (default 10): settable to see whether page calls wait for it.
      ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
      ...(s3Port
        ? {
            STORAGE_DRIVER: 's3',
            S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
            S3_BUCKET,
            S3_REGION: 'us-east-1',
            S3_FORCE_PATH_STYLE: 'true',
            S3_ACCESS_KEY_ID: verifying ? S3_KEY.id : 'S3RVER',
            S3_SECRET_ACCESS_KEY: verifying ? S3_KEY.secret : 'S3RVER',
          }
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
      ...(s3Aux ? [{ name: verifying ? 'store (verifying, on disk)' : 's3rver', pid: s3Aux.pid }] : []),
    ];
    const cpuBefore = watched.map((w) => cpuSecondsOf(w.pid));
    const ioBefore = servers.map((s) => ioOf(s.pid));
    const selfBefore = process.cpuUsage();
    // This process's RSS during the rush only (the seeding before opened a database in it).
    const selfRss = sampleMemory(200);
    const loadBefore = load();

    const started = performance.now();
    const windowMs = windowS * 1000;
    if (pages) {
      const until = started + durationMs;
      const burstStart = started + burstAtMs;
      let burstDone = Infinity;
      phaseOf = (at) => (at < started + WARM_UP_MS ? 'warm-up' : !burst ? 'steady' : at < burstStart ? 'before burst' : at < burstDone ? 'during burst' : 'after burst');
      const bursting = burst
        ? Promise.all(Array.from({ length: burst }, (_, i) => burstParticipant(n + i + 1, `rush${tag}u${n + i + 1}`, burstStart + (burstWindowMs * i) / burst))).then(() => {
            burstDone = performance.now();
          })
        : Promise.resolve();
      await Promise.all([...tokens.map((token, i) => pageParticipant(i + 1, token, until, pollMs)), bursting]);
      if (burst) console.log(`\nburst: ${burst} sign-ins from ${(burstAtMs / 1000).toFixed(0)} s over ${(burstWindowMs / 1000).toFixed(0)} s, all answered ${((burstDone - burstStart) / 1000).toFixed(1)} s after its start`);
    } else {
      await Promise.all(Array.from({ length: n }, (_, i) => participant(i + 1, `rush${tag}u${i + 1}`, started + (windowMs * i) / n, fileBytes, pollMs)));
    }
    const wall = (performance.now() - started) / 1000;

    const cpu = watched.map((w, i) => ({ ...w, seconds: cpuSecondsOf(w.pid) - cpuBefore[i]!, peakRss: peakRssMbOf(w.pid) }));
    const io = servers.map((s, i) => {
      const now = ioOf(s.pid);
      return { rchar: now.rchar - ioBefore[i]!.rchar, wchar: now.wchar - ioBefore[i]!.wchar };
    });
    const self = process.cpuUsage(selfBefore);
    const selfPeakMb = Math.round(selfRss.stop().peak / MB);
    const selfSeconds = (self.user + self.system) / 1e6;
    const storeRefusals = s3Aux && verifying ? await s3Aux.ask<string[]>('refusals') : [];

    const rows = [...steps.values()].map((s) => {
      const sorted = [...s.times].sort((a, b) => a - b);
      return [
        s.name,
        s.times.length,
        s.errors,
        s.busy || '',
        (s.times.length / wall).toFixed(1),
        Math.round(quantile(sorted, 0.5)),
        Math.round(quantile(sorted, 0.95)),
        Math.round(quantile(sorted, 0.99)),
        Math.round(sorted.at(-1) ?? NaN),
      ];
    });
    const db = `${pg ? 'PostgreSQL + Redis' : 'embedded PGlite'}, ${instances} instance(s)`;
    const setup = pages
      ? `${n} signed-in pages (account every ${opts.poll} s, draft save every ${Number(opts.poll) * 2} s) for ${opts.duration} s` +
        `${burst ? `, ${burst} sign-ins from ${burstAtMs / 1000} s within ${opts['burst-window']} s` : ''}; ${db}`
      : `${n} participants, ${mb} MB each (+${COMMITMENT_BYTES / 1024} KB commitment), start window ${windowS} s, poll ${opts.poll} s; ` +
        `${db}${opts.s3 ? `, files in S3 (${verifying ? 'verifying store, bodies on disk' : 's3rver'})` : ''}, uploads ${opts.direct ? 'DIRECT to the store' : 'in pieces through the app'}; ` +
        `pieces in flight per instance ${opts['pieces-in-flight'] || 'default (16)'}, waiting ${opts['pieces-waiting'] || 'default'}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? 'default (4)'}`;
    console.log(`\n${pages ? 'page traffic' : 'deadline rush'}: ${setup}`);
    console.log(`load average before: ${loadBefore}, after: ${load()}; wall ${wall.toFixed(1)} s${pages ? (burst ? `; ${completed}/${burst} burst sign-ins done` : '') : `; ${completed}/${n} submitted`}\n`);
    console.log(markdown(['step', 'count', 'errors', 'busy (429/503, waited and sent again)', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], rows));
    const serverSeconds = cpu.slice(0, servers.length).reduce((a, c) => a + c.seconds, 0);
    if (!pages) {
      const uploadSeconds = (lastPieceAt - firstPieceAt) / 1000;
      const perFile = [...fileSeconds].sort((a, b) => a - b);
      console.log(
        `\nuploads: ${(uploadedBytes / MIB).toFixed(0)} MB in ${uploadSeconds.toFixed(1)} s = ${(uploadedBytes / MIB / uploadSeconds).toFixed(1)} MB/s overall; ` +
          `per ${mb} MB file: p50 ${quantile(perFile, 0.5)?.toFixed(1)} s, p99 ${quantile(perFile, 0.99)?.toFixed(1)} s`,
      );
      if (!opts.direct) {
        const refused = step('piece (5 MB)').busy;
        // A refused piece's body is still sent and read (files.md: so the browser reads the 429).
        console.log(`pieces refused (429): ${refused}, about ${((refused * UPLOAD_PIECE_SIZE) / MIB / 1024).toFixed(1)} GB of bodies sent and discarded beside ${(uploadedBytes / MIB / 1024).toFixed(1)} GB stored`);
      }
      const gb = uploadedBytes / GIB;
      const rchar = io.reduce((a, x) => a + x.rchar, 0);
      const wchar = io.reduce((a, x) => a + x.wchar, 0);
      console.log(
        `per uploaded GB (${gb.toFixed(2)} GB stored): app CPU ${(serverSeconds / gb).toFixed(2)} s; ` +
          `bytes the load generator sent to the app ${(appWire.sent / MIB / gb).toFixed(1)} MB (answers read ${(appWire.received / MIB / gb).toFixed(1)} MB); ` +
          `the app's own read() / write() bytes (sockets and files, /proc/<pid>/io rchar / wchar) ${(rchar / MIB / gb).toFixed(1)} / ${(wchar / MIB / gb).toFixed(1)} MB`,
      );
      if (s3Aux && verifying) {
        const byCode = new Map<string, number>();
        for (const code of storeRefusals) byCode.set(code, (byCode.get(code) ?? 0) + 1);
        console.log(`store refusals (signature, checksum, missing upload...): ${storeRefusals.length}${byCode.size ? ` (${[...byCode].map(([c, k]) => `${c} ${k}`).join(', ')})` : ''}`);
      }
    }
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
    const errors = [...steps.values()].reduce((a, s) => a + s.errors, 0);
    const p99Of = (s: Step | undefined) => (s ? quantile([...s.times].sort((a, b) => a - b), 0.99) : NaN);
    if (pages) {
      const pageSteps = [...steps.values()].filter((s) => !s.name.startsWith('burst') && !s.name.includes('warm-up'));
      const worst = Math.max(0, ...pageSteps.map(p99Of));
      console.log(`\ntargets: page calls p99 < 1000 ms (warm-up left out): ${Math.round(worst)} ms ${worst < 1000 ? 'met' : 'NOT met'}; errors 0: ${errors} ${errors === 0 ? 'met' : 'NOT met'}`);
      if (burst) {
        for (const call of ['account', 'draft save']) {
          const before = p99Of(steps.get(`${call} (before burst)`));
          const during = p99Of(steps.get(`${call} (during burst)`));
          console.log(`${call} p99 before / during the burst: ${Math.round(before)} / ${Math.round(during)} ms (${(during / before).toFixed(2)}x)`);
        }
      }
    } else {
      const interactive = [...steps.values()].filter((s) => s.name.includes('during uploads') || s.name.startsWith('POST /api/team/my/submit'));
      const worst = Math.max(0, ...interactive.map(p99Of));
      console.log(`\ntargets: interactive p99 during the rush (page calls, submit) < 1000 ms: ${Math.round(worst)} ms ${worst < 1000 ? 'met' : 'NOT met'}; errors 0: ${errors} ${errors === 0 ? 'met' : 'NOT met'}`);
    }
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
