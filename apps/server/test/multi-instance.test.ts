import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG, LOGIN_PER_ACCOUNT_PER_MINUTE, LOGIN_PER_IP_MIN, SETTINGS_KEYS, UPLOAD_PIECE_SIZE } from '@contest/shared';
import { openDatabase, type Database } from '../src/db/client.js';
import { accounts, attachments, jobs, loginRecords, messageRecipients, operationRecords, sessions, settings } from '../src/db/schema.js';
import { captchaKeys } from '../src/modules/captcha/captcha.service.js';
import { hashToken } from '../src/modules/auth/session.service.js';
import { SMS_MSG } from '../src/modules/sms/sms.service.js';
import { FILES_SWEEP_JOB } from '../src/app.js';
import { BROADCAST_JOB } from '../src/modules/broadcast/broadcast.job.js';
import { fakeFile, filesUnder, multipart, newUploadId, piecesOf } from './files-helpers.js';
import { createPostgresDatabase, dropPostgresDatabase, withDatabaseName } from './test-database.js';
import { SERVER_ROOT, buildServer, startInstance, stopInstance, testDatabaseTemplate as template, type Instance } from './instances.js';
import { deleteRedisPrefix } from './helpers.js';
import { PIN_HEADER, SERVED_BY_HEADER, startRoundRobinProxy } from './round-robin-proxy.js';

/**
 * docs/deploy.md, "Two instances (scaling)": two real server processes behind one reverse proxy, on one PostgreSQL database,
 * one Redis prefix, one S3 store (s3rver) and one shared DATA_DIR (upload pieces), as
 * deploy/compose.yaml runs them. Each is the production start: the bundle build.mjs makes, run
 * as `node …/server.js` (the Dockerfile's CMD, the systemd unit), not the sources through tsx.
 * A small round-robin proxy (round-robin-proxy.ts) stands in for nginx: it appends the client's
 * socket address to X-Forwarded-For ($proxy_add_x_forwarded_for) and, when a check needs one
 * instance, sends the request to the instance the `x-test-upstream` header names (it answers
 * with `x-upstream`, the instance that served). Test clients connect from distinct loopback
 * addresses (127.0.0.x), so each scenario is its own client address.
 *
 * Only in the PostgreSQL pass with Redis (CI: DATABASE_URL=postgres://… REDIS_URL=redis://…):
 * the embedded database is one process's, and without Redis there is nothing shared to test.
 */

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const enabled = Boolean(DATABASE_URL?.startsWith('postgres') && REDIS_URL);

const BUCKET = 'contest-multi';
const ADMIN_PASSWORD = 'Admin@2025';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the client --------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: { status?: number; code?: string; message?: string; data?: any };
  /** The instance that answered (through the proxy). */
  upstream: number | undefined;
}

interface CallOptions {
  /** Through the proxy to this instance; round-robin when absent. */
  to?: 0 | 1;
  /** To the instance's own port, bypassing the proxy. */
  direct?: 0 | 1;
  /** The client's own address (a loopback address of its own per scenario). */
  from?: string;
  token?: string;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
}

let proxyPort = 0;
const instances: Instance[] = [];

function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const port = opts.direct !== undefined ? instances[opts.direct]!.port : proxyPort;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.to !== undefined) headers[PIN_HEADER] = String(opts.to);
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let payload = opts.body;
  if (opts.json !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.json));
    headers['content-type'] = 'application/json';
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, localAddress: opts.from ?? '127.0.0.1', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        let body: Answer['body'] = {};
        if (String(res.headers['content-type']).startsWith('application/json')) body = JSON.parse(raw.toString()) as Answer['body'];
        const upstream = res.headers[SERVED_BY_HEADER];
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body, upstream: upstream === undefined ? undefined : Number(upstream) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

// ---- shared state --------------------------------------------------------------------------

let database: Database | undefined;
let redis: Redis | undefined;
let s3rver: S3rver | undefined;
let proxy: Server | undefined;
let dbName: string | undefined;
const dirs: string[] = [];
const prefix = `test:mi:${randomBytes(6).toString('hex')}:`;
let dataDir = '';
let s3Dir = '';

/** A captcha issued by one instance and checked by another, answered from the shared Redis. */
interface SolvedCaptcha {
  imageKey: string;
  slidingDistance: number;
  /** The drag that passed (a second check of the same nonce sends it again). */
  track: { input: 'pointer'; points: number[][] };
}

async function solveCaptcha(from: string, issueOn: 0 | 1, checkOn: 0 | 1): Promise<SolvedCaptcha> {
  const challenge = await call('GET', '/api/captcha', { to: issueOn, from });
  expect(challenge.status, challenge.raw.toString()).toBe(200);
  const nonce = challenge.body.data.nonceStr as string;
  const stored = await redis!.get(`${prefix}kv:${captchaKeys.answer(nonce)}`);
  expect(stored, 'the captcha answer is in the shared Redis').not.toBeNull();
  const { x } = JSON.parse(stored!) as { x: number };
  // A person's drag: eased, wobbling, after the picture arrived (captcha-track.ts).
  const points = Array.from({ length: 13 }, (_, i) => [Math.round((x + 2) * (1 - (1 - i / 12) ** 3) * 10) / 10, i ? (i % 3) - 1 : 0, i * 25]);
  await sleep(400);
  const solved: SolvedCaptcha = { imageKey: nonce, slidingDistance: x + 2, track: { input: 'pointer', points } };
  const check = await call('POST', '/api/captcha/check', { to: checkOn, from, json: solved });
  expect(check.body.data).toEqual({ pass: true });
  return solved;
}

/** The log SMS provider's outbox, in the shared DATA_DIR (either instance may have sent). */
async function lastSmsCode(phone: string): Promise<string> {
  const lines = (await readFile(join(dataDir, 'sms-outbox.jsonl'), 'utf8')).trim().split('\n');
  const mine = lines.map((l) => JSON.parse(l) as { phone: string; params: string[] }).filter((m) => m.phone === phone);
  return mine.at(-1)!.params[0]!;
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

// Client addresses, one per scenario (the proxy appends them to X-Forwarded-For).
const PARTICIPANT_IP = '127.0.0.11';
const ADMIN_IP = '127.0.0.21';
const CEILING_IP = '127.0.0.41';
const DISABLER_IP = '127.0.0.51';

const participant = {
  username: `mi${randomBytes(4).toString('hex')}`,
  password: 'Multi@2025',
  phone: `137${String(randomBytes(4).readUInt32BE() % 1e8).padStart(8, '0')}`,
  email: '',
  id: '',
  token: '',
};
participant.email = `${participant.username}@example.com`;
const admin = { token: '' };

describe.skipIf(!enabled)('two instances behind one proxy (PostgreSQL, Redis, S3, shared DATA_DIR)', () => {
  beforeAll(async () => {
    const adminUrl = DATABASE_URL!;
    const { postgres } = template();
    dbName = await createPostgresDatabase(adminUrl, postgres?.url === adminUrl ? postgres.template : undefined);
    const url = withDatabaseName(adminUrl, dbName);
    dataDir = mkdtempSync(join(tmpdir(), 'contest-multi-data-'));
    s3Dir = mkdtempSync(join(tmpdir(), 'contest-multi-s3-'));
    dirs.push(dataDir, s3Dir);
    const buildCache = join(SERVER_ROOT, 'node_modules', '.cache');
    mkdirSync(buildCache, { recursive: true });
    const bundleDir = mkdtempSync(join(buildCache, 'multi-instance-'));
    dirs.push(bundleDir);
    const serverJs = await buildServer(bundleDir);
    database = await openDatabase({ databaseUrl: url, dataDir });
    // The per-address login ceiling at its lowest, so the shared-counter check is quick.
    await database.db.insert(settings).values({ key: SETTINGS_KEYS.loginPerIpPerMinute, value: LOGIN_PER_IP_MIN }).onConflictDoUpdate({ target: settings.key, set: { value: LOGIN_PER_IP_MIN } });
    redis = new Redis(REDIS_URL!);
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET }] });
    const { port: s3Port } = await s3rver.run();

    const env = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      REDIS_URL: REDIS_URL!,
      REDIS_PREFIX: prefix,
      TRUST_PROXY: '1',
      SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SMS_PROVIDER: 'log',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_KEY_PREFIX: 'portal/',
      FILE_LINK_SECRET: 'multi-instance-test-secret-of-32-chars-or-more',
    };
    // Both at once, as compose starts them: migrations and the seed run under the startup lock.
    const started = await Promise.allSettled([startInstance(serverJs, env), startInstance(serverJs, env)]);
    for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const started2 = await startRoundRobinProxy({ ports: instances.map((i) => i.port), buffer: false, pin: true, setHeaders: { 'x-forwarded-proto': 'http' } });
    proxy = started2.server;
    proxyPort = started2.port;
  }, 90_000);

  afterAll(async () => {
    const steps: Array<() => Promise<unknown>> = [
      () => Promise.all(instances.map((i) => stopInstance(i))),
      () => new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve())),
      async () => database?.close(),
      async () => dbName && dropPostgresDatabase(DATABASE_URL!, dbName),
      async () => {
        if (!redis) return;
        await deleteRedisPrefix(REDIS_URL!, prefix);
        await redis.quit();
      },
      async () => s3rver?.close(),
      async () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
    ];
    // Every step, whatever failed before it.
    for (const step of steps) await step().catch((err: unknown) => console.error('multi-instance cleanup:', err));
  }, 60_000);

  it('both instances answer, directly and through the proxy; the admin is seeded once', async () => {
    for (const direct of [0, 1] as const) {
      const health = await call('GET', '/api/health', { direct });
      expect(health.status).toBe(200);
      expect(health.body.data.databaseKind).toBe('postgres');
    }
    const viaProxy = await Promise.all([call('GET', '/api/health'), call('GET', '/api/health')]);
    expect(viaProxy.map((a) => a.upstream).sort()).toEqual([0, 1]);
    const printed = instances.filter((i) => i.output().includes('Super admin account created'));
    expect(printed).toHaveLength(1);
    const admins = await database!.db.select({ n: count() }).from(accounts).where(eq(accounts.username, 'admin'));
    expect(admins).toEqual([{ n: 1 }]);
  });

  it('SMS wait and code, captcha nonce and session are shared; logout on one instance ends the session on the other', async () => {
    const from = PARTICIPANT_IP;
    const sendCode = (to: 0 | 1) => call('POST', '/api/login/send/sms', { to, from, json: { phone: participant.phone, smsKey: 'REGISTER_VERIFY_KEY' } });
    const sent = await sendCode(0);
    expect(sent.body).toMatchObject({ status: 200, data: { resendAfterSeconds: 60 } });
    // The 60 s wait holds on the other instance too.
    const again = await sendCode(1);
    expect(again.body).toMatchObject({ status: 400, message: SMS_MSG.tooFrequent, data: { retryAfterSeconds: expect.any(Number) } });
    // The code sent by instance 0 registers on instance 1.
    const reg = await call('POST', '/api/login/register', { to: 1, from, json: { username: participant.username, password: participant.password, email: participant.email, phone: participant.phone, smsCode: await lastSmsCode(participant.phone) } });
    expect(reg.body.status, reg.raw.toString()).toBe(200);

    // A captcha issued by 0, solved on 1, spent by a login on 0; the same nonce on 1 is refused.
    const captcha = await solveCaptcha(from, 0, 1);
    // Checked once on 1, the same answer again on 0 is refused: one nonce, one try, on any instance.
    const reCheck = await call('POST', '/api/captcha/check', { to: 0, from, json: captcha });
    expect(reCheck.body.data).toEqual({ pass: false });
    const credentials = { username: participant.username, password: participant.password };
    const spend = (c: SolvedCaptcha) => ({ imageKey: c.imageKey, slidingDistance: c.slidingDistance });
    const login = await call('POST', '/api/login', { to: 0, from, json: { ...credentials, ...spend(captcha) } });
    expect(login.status, login.raw.toString()).toBe(200);
    participant.token = login.body.data.accessToken as string;
    const reused = await call('POST', '/api/login', { to: 1, from, json: { ...credentials, ...spend(captcha) } });
    expect(reused.body).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed });

    for (const to of [0, 1] as const) {
      const me = await call('GET', '/api/user/account', { to, token: participant.token });
      expect(me.status).toBe(200);
      expect(me.upstream).toBe(to);
    }
    const [row] = await database!.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, participant.username));
    participant.id = row!.id;

    // A second session, signed out on 1: at once 401 on 0 as well; the first session lives on.
    const secondCaptcha = await solveCaptcha(from, 1, 0);
    const second = await call('POST', '/api/login', { to: 1, from, json: { ...credentials, ...spend(secondCaptcha) } });
    const secondToken = second.body.data.accessToken as string;
    expect((await call('GET', '/api/user/account', { to: 0, token: secondToken })).status).toBe(200);
    expect((await call('POST', '/api/logout', { to: 1, token: secondToken })).status).toBe(200);
    expect((await call('GET', '/api/user/account', { to: 0, token: secondToken })).status).toBe(401);
    expect((await call('GET', '/api/user/account', { to: 1, token: secondToken })).status).toBe(401);
    expect((await call('GET', '/api/user/account', { to: 0, token: participant.token })).status).toBe(200);
  });

  it('an admin signing in again: the old token gets 409 on both instances; the client address is the proxy-appended one', async () => {
    const login = async (to: 0 | 1, checkOn: 0 | 1) => {
      const res = await call('POST', '/api/admin/login', {
        to,
        from: ADMIN_IP,
        // A forged left-most entry: the proxy appends the real address after it.
        headers: { 'x-forwarded-for': '6.6.6.6' },
        json: await solveCaptcha(ADMIN_IP, to, checkOn).then(({ imageKey, slidingDistance }) => ({ username: 'admin', password: ADMIN_PASSWORD, imageKey, slidingDistance })),
      });
      expect(res.status, res.raw.toString()).toBe(200);
      return res.body.data.accessToken as string;
    };
    const first = await login(0, 1);
    for (const to of [0, 1] as const) expect((await call('GET', '/api/admin/user/account', { to, token: first })).status).toBe(200);
    admin.token = await login(1, 0);
    for (const to of [0, 1] as const) {
      const old = await call('GET', '/api/admin/user/account', { to, token: first });
      expect(old.status, `old admin token on instance ${to}`).toBe(409);
      expect((await call('GET', '/api/admin/user/account', { to, token: admin.token })).status).toBe(200);
    }
    // Recorded with the address the proxy saw, not the one the client wrote.
    const records = await database!.db
      .select({ ip: loginRecords.ip })
      .from(loginRecords)
      .where(and(eq(loginRecords.identifier, 'admin'), eq(loginRecords.result, 'SUCCESS')));
    expect(records.map((r) => r.ip)).toEqual([ADMIN_IP, ADMIN_IP]);
    const [session] = await database!.db.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.tokenHash, hashToken(admin.token)));
    expect(session!.ip).toBe(ADMIN_IP);
    const [participantLogin] = await database!.db
      .select({ ip: loginRecords.ip })
      .from(loginRecords)
      .where(and(eq(loginRecords.identifier, participant.username), eq(loginRecords.result, 'SUCCESS')))
      .limit(1);
    expect(participantLogin!.ip).toBe(PARTICIPANT_IP);
  });

  it('login limits count across both instances: per login name and per client address', async () => {
    // Per name: LOGIN_PER_ACCOUNT_PER_MINUTE attempts spread over both instances and addresses, then 429 on either.
    const ghost = `ghost${randomBytes(4).toString('hex')}`;
    const attempt = (to: 0 | 1, i: number, username = ghost, from = `127.0.1.${i + 1}`) =>
      call('POST', '/api/login', { to, from, json: { username, password: 'Wrong@2025', imageKey: 'none', slidingDistance: 1 } });
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_PER_ACCOUNT_PER_MINUTE; i++) statuses.push((await attempt(i % 2 === 0 ? 0 : 1, i)).status);
    expect(statuses.every((s) => s === 400)).toBe(true);
    expect((await attempt(0, 50)).status).toBe(429);
    expect((await attempt(1, 51)).status).toBe(429);

    // Per address: the ceiling (LOGIN_PER_IP_MIN a minute here) over distinct names, alternating instances.
    const perIp: number[] = [];
    for (let i = 0; i < LOGIN_PER_IP_MIN; i++) perIp.push((await attempt(i % 2 === 0 ? 0 : 1, i, `ceil${i}${ghost}`, CEILING_IP)).status);
    expect(perIp.filter((s) => s === 429)).toEqual([]);
    expect((await attempt(0, 0, `ceilx${ghost}`, CEILING_IP)).status).toBe(429);
    expect((await attempt(1, 0, `ceily${ghost}`, CEILING_IP)).status).toBe(429);
  });

  it('a chunked upload whose pieces alternate between instances is stored once, in S3, and reads back the same from both', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 12_345);
    const pieces = piecesOf(content);
    expect(pieces).toHaveLength(3);
    const id = newUploadId();
    const name = '跨实例.pdf';
    const sendPiece = (to: 0 | 1, chunk: number, uploadId = id, fileName = name, parts = pieces) => {
      const body = multipart({ origin: 'PRELIM', id: uploadId, name: fileName, chunks: parts.length, chunk }, { name: 'blob', content: parts[chunk]! });
      return call('POST', '/api/attachment/piece/upload', { to, from: PARTICIPANT_IP, token: participant.token, body: body.payload, headers: body.headers });
    };
    const answers = [];
    for (let chunk = 0; chunk < pieces.length; chunk++) {
      const answer = await sendPiece(chunk % 2 === 0 ? 0 : 1, chunk);
      expect(answer.status, answer.raw.toString()).toBe(200);
      answers.push(answer.body.data);
    }
    expect(answers.map((a) => a.complete)).toEqual([false, false, true]);
    const file = answers[2]!;
    expect(file).toMatchObject({ name, size: content.length });

    const rows = await database!.db.select().from(attachments).where(and(eq(attachments.ownerId, participant.id), eq(attachments.originalName, name)));
    expect(rows.map((r) => ({ uniqueNo: r.uniqueNo, size: r.size, sha256: r.sha256 }))).toEqual([{ uniqueNo: file.uniqueNo, size: content.length, sha256: sha256(content) }]);
    // In the bucket, not on the shared disk.
    expect(filesUnder(join(s3Dir, BUCKET)).some((p) => p.includes(rows[0]!.storageKey))).toBe(true);
    expect(filesUnder(join(dataDir, 'files'))).toEqual([]);

    for (const to of [0, 1] as const) {
      const download = await call('GET', file.filePath as string, { to, token: participant.token });
      expect(download.status).toBe(200);
      expect(sha256(download.raw)).toBe(sha256(content));
    }
    // A signed link made by one instance opens on the other (one FILE_LINK_SECRET).
    const link = await call('GET', `/api/attachment/accessUrl?filePath=${encodeURIComponent(file.filePath as string)}`, { to: 0, token: participant.token });
    const viaLink = await call('GET', link.body.data.url as string, { to: 1 });
    expect(viaLink.status).toBe(200);
    expect(sha256(viaLink.raw)).toBe(sha256(content));

    // Two pieces at the same moment, one to each instance: one join, one stored file.
    const racing = fakeFile.pdf(UPLOAD_PIECE_SIZE + 777);
    const racingPieces = piecesOf(racing);
    const racingId = newUploadId();
    const both = await Promise.all([sendPiece(0, 0, racingId, '并发.pdf', racingPieces), sendPiece(1, 1, racingId, '并发.pdf', racingPieces)]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    const stored = await waitFor(
      'the racing upload to complete',
      async () => (await call('GET', `/api/attachment/piece/status?id=${racingId}`, { token: participant.token })).body.data,
      (d: { complete: boolean; uniqueNo?: string }) => d.complete,
    );
    const racingRows = await database!.db.select({ sha256: attachments.sha256, uniqueNo: attachments.uniqueNo }).from(attachments).where(and(eq(attachments.ownerId, participant.id), eq(attachments.originalName, '并发.pdf')));
    expect(racingRows).toEqual([{ sha256: sha256(racing), uniqueNo: stored.uniqueNo }]);
  });

  it('jobs run once with both runners polling: the sweep scheduled by both, and bulk sends sent through either', async () => {
    const db = database!.db;
    // Both instances queued the daily sweep at start: one job ran, once, and queued the next day's.
    const sweeps = await waitFor(
      'the first upload sweep',
      () => db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.kind, FILES_SWEEP_JOB)),
      (rows) => rows.some((r) => r.status === 'DONE'),
    );
    expect(sweeps.map((r) => `${r.status}:${r.attempts}`).sort()).toEqual(['DONE:1', 'QUEUED:0']);

    const inbox = async () => (await db.select({ n: count() }).from(messageRecipients).where(eq(messageRecipients.accountId, participant.id)))[0]!.n;
    const before = await inbox();
    const SENDS = 4;
    const sent = await Promise.all(
      Array.from({ length: SENDS }, (_, i) =>
        call('POST', '/api/admin/broadcast/insite/send', {
          to: i % 2 === 0 ? 0 : 1,
          from: ADMIN_IP,
          token: admin.token,
          json: { segment: { kind: 'ACCOUNTS', values: [participant.id] }, title: `多实例通知 ${i}`, body: '正文' },
        }),
      ),
    );
    for (const s of sent) expect(s.status, s.raw.toString()).toBe(200);
    const jobIds = sent.map((s) => s.body.data.jobId as string);
    const done = await waitFor(
      'the bulk sends',
      () => db.select({ id: jobs.id, status: jobs.status, attempts: jobs.attempts, done: jobs.done }).from(jobs).where(inArray(jobs.id, jobIds)),
      (rows) => rows.length === SENDS && rows.every((r) => r.status === 'DONE'),
    );
    expect(done.map((r) => ({ kind: BROADCAST_JOB, attempts: r.attempts, done: r.done }))).toEqual(Array(SENDS).fill({ kind: BROADCAST_JOB, attempts: 1, done: 1 }));
    expect(await inbox()).toBe(before + SENDS);
    for (const to of [0, 1] as const) {
      const summary = await call('GET', '/api/messages/summary', { to, token: participant.token });
      expect(summary.body.data.unreadCount).toBeGreaterThanOrEqual(SENDS);
    }
  });

  it('disabling an account on one instance ends its session on both; the record has the proxy-appended address', async () => {
    const res = await call('PUT', `/api/admin/user/${participant.id}/status`, {
      to: 0,
      from: DISABLER_IP,
      token: admin.token,
      headers: { 'x-forwarded-for': '203.0.113.9, 6.6.6.6' },
      json: { enabled: false },
    });
    expect(res.status, res.raw.toString()).toBe(200);
    for (const to of [1, 0] as const) expect((await call('GET', '/api/user/account', { to, token: participant.token })).status).toBe(401);
    const [record] = await database!.db
      .select({ ip: operationRecords.ip })
      .from(operationRecords)
      .where(and(eq(operationRecords.action, 'user:disable'), eq(operationRecords.targetId, participant.id)))
      .orderBy(desc(operationRecords.createdAt))
      .limit(1);
    expect(record!.ip).toBe(DISABLER_IP);
  });
});
