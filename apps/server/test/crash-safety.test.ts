import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_RUBRICS, UPLOAD_PIECE_SIZE, UPLOAD_RESTART_REASON } from '@contest/shared';
import { loadTestConfig } from '../src/config/test-config.js';
import { openDatabase, type Database, type Db } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { seed } from '../src/seed/seed.js';
import { seedContent } from '../src/seed/seed-content.js';
import {
  accounts,
  attachments,
  messageRecipients,
  noticeOutbox,
  operationRecords,
  prelimDocs,
  scoreLog,
  scoreSheets,
  statusHistory,
  teams,
} from '../src/db/schema.js';
import { createStorage } from '../src/lib/storage/create-storage.js';
import { STORAGE_KEY_PATTERN } from '../src/lib/storage/storage.js';
import { createSessionService } from '../src/modules/auth/session.service.js';
import { verifyScoreLog } from '../src/modules/score-log/score-log.js';
import { openWindow, setSetting, teamFormFields } from './contest-helpers.js';
import { fakeFile, multipart, newUploadId, piecesOf } from './files-helpers.js';
import type { TestApp } from './helpers.js';
import { seedGroup } from './review-helpers.js';
import { readPgliteTemplate, type TestDatabaseTemplate } from './test-database.js';

/**
 * kill -9 of the real server process in the middle of four writes (docs/backup.md, "Crash safety"): the join of a
 * chunked upload, a sign-up submit, a batch audit of many teams and an expert's score submit.
 * Each round starts the server (`--demo`, embedded database on disk), sends the four requests,
 * SIGKILLs the process at a different point of them per round (KILLS below), and then opens the
 * database as the next start would and checks that every record is
 * wholly before or wholly after its write: status, history rows, operation records and notices
 * agree; a sheet is never SUBMITTED without its scores and its score-log entry; the batch is
 * applied per team, in order, each with its history, or not at all for that team. A request
 * that was answered 200 before the kill is after (nothing acknowledged is lost). The next round's
 * start retries the upload as the web uploader does (status, missing pieces, the last piece):
 * it completes, or is answered so that the client starts over, and in the end the file is stored
 * once with its bytes, and every object in the store has its row.
 *
 * The embedded database only: PostgreSQL survives the app process anyway (the transactions are
 * the same code, covered here), and a second copy of this run would only double its time.
 */

const postgres = process.env.DATABASE_URL?.startsWith('postgres');
const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));
/**
 * When each round's SIGKILL comes. `fraction`: of each write's own duration. A calibration run of
 * the four writes (the first round's server, nothing killed) measures how long each takes on this
 * machine; the round then sends them staggered so that the kill finds every one of them that far
 * in (0.1: just started; 1.15: answered just before). Fixed ms offsets would land before
 * everything on a slow machine and after everything on a fast one. `upload`: the four are sent
 * together and the kill comes the moment the upload's join reaches a step, seen in its folder
 * under DATA_DIR/uploads: `claimed` (every piece is in the data file: the join claims or runs;
 * the claim itself is a database row), `stored` (the joined file has left the folder for the
 * store: the row may not be written yet).
 */
type Kill = { fraction: number } | { upload: 'claimed' | 'stored' };
const KILLS: Kill[] = [{ fraction: 0.1 }, { fraction: 0.5 }, { fraction: 1.15 }, { upload: 'claimed' }, { upload: 'stored' }];
const describeKill = (kill: Kill) => ('fraction' in kill ? `${kill.fraction} of the way through each write` : `when the upload's join has ${kill.upload === 'claimed' ? 'claimed the upload' : 'moved the file into the store'}`);
const BATCH = 40;
const UPLOAD_BYTES = 2 * UPLOAD_PIECE_SIZE + 1_500_000;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function template(): TestDatabaseTemplate {
  try {
    return inject('testDatabaseTemplate') ?? {};
  } catch {
    return {};
  }
}

// ---- the server process and its clients ----------------------------------------------------

interface Server {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
  output(): string;
}

async function startServer(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--demo'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', SEED_ADMIN_PASSWORD: 'Admin@2025' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    void exited.then(() => reject(new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${out}`)));
  });
  return { child, base, exited, output: () => out };
}

interface Answer {
  status: number;
  body: { code?: string; message?: string; data?: any };
}
interface Sent {
  /** The whole request is on the socket. */
  flushed: Promise<void>;
  /** The answer, or null when the connection died first (the kill). */
  answer: Promise<Answer | null>;
}

/** One request on its own connection; `flushed` resolves once its last byte is written. */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Sent {
  let flushed!: () => void;
  const flushedP = new Promise<void>((r) => (flushed = r));
  const answer = new Promise<Answer | null>((resolve) => {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const req = httpRequest(`${base}${path}`, { method, agent: false, headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: Answer['body'] = {};
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          parsed = { message: text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', () => resolve(null));
    });
    req.on('error', () => {
      flushed();
      resolve(null);
    });
    req.end(payload, () => flushed());
  });
  return { flushed: flushedP, answer };
}

const json = (who: string, body: unknown) => ({ headers: { authorization: `Bearer ${who}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const { headers, body: payload } = body === undefined ? { headers: { authorization: `Bearer ${token}` }, body: undefined } : json(token, body);
  const answer = await send(base, method, path, headers, payload).answer;
  if (!answer) throw new Error(`${method} ${path}: no answer`);
  return answer;
}

function sendPiece(base: string, token: string, up: Upload, chunk: number): Sent {
  const pieces = piecesOf(up.content);
  const body = multipart({ origin: 'PRELIM', id: up.id, name: up.name, chunks: pieces.length, chunk }, { name: up.name, content: pieces[chunk]! });
  return send(base, 'POST', '/api/attachment/piece/upload', { ...body.headers, authorization: `Bearer ${token}` }, body.payload);
}

async function uploadTeamFile(base: string, token: string, name: string): Promise<string> {
  const body = multipart({ origin: 'TEAM', name }, { name, content: fakeFile.pdf(3_000) });
  const answer = await send(base, 'POST', '/api/attachment/upload/public', { ...body.headers, authorization: `Bearer ${token}` }, body.payload).answer;
  if (answer?.status !== 200) throw new Error(`team file upload failed: ${JSON.stringify(answer)}`);
  return answer.body.data.uniqueNo as string;
}

// ---- fixtures ------------------------------------------------------------------------------

interface Upload {
  id: string;
  name: string;
  content: Buffer;
  /** The stored file's uniqueNo, once an answer said so. */
  uniqueNo?: string;
  restarted?: boolean;
}

interface Round {
  kill: Kill;
  /** A participant with a DRAFT sign-up that submits it. */
  submitter: { accountId: string; token: string; teamId: string };
  /** SUBMITTED teams the admin approves in one batch, in this order. */
  batch: Array<{ id: string; ownerId: string }>;
  /** The project e0003 scores. */
  projectId: string;
  upload: Upload;
}

interface Fixtures {
  adminToken: string;
  expertId: string;
  expertToken: string;
  uploaderId: string;
  uploaderToken: string;
  rounds: Round[];
  calibration: Round;
}

/** The demo as `--demo` installs it, plus one round's worth of subjects per offset, written straight into the database. */
async function install(dataDir: string): Promise<Fixtures> {
  const migrated = template().pglite?.migrated;
  if (migrated) {
    // The run's migrated cluster: initdb on disk alone takes seconds.
    const client = new PGlite({ dataDir: join(dataDir, 'pglite'), loadDataDir: readPgliteTemplate(migrated), extensions: { pg_trgm } });
    await client.waitReady;
    await client.close();
  }
  const config = loadTestConfig({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    if (!migrated) await runMigrations(database);
    const db = database.db;
    // What `server --demo` runs at start (startup.ts); the server's own starts repeat it (idempotent).
    await seed(db, { adminUsername: 'admin', adminPassword: 'Admin@2025', demo: true });
    await seedContent(db, createStorage(config.files.storage), { demo: true });
    const t = { database } as unknown as TestApp;
    await setSetting(t, 'contest.phases', { signUp: openWindow(), prelimSubmission: openWindow(), prelimReview: openWindow(), finalReview: openWindow() });

    const sessions = createSessionService(db);
    const idOf = async (realm: 'USER' | 'ADMIN' | 'EXPERT', username: string) =>
      (await db.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.realm, realm), eq(accounts.username, username))))[0]!.id;
    const tokenOf = async (realm: 'USER' | 'ADMIN' | 'EXPERT', accountId: string) => (await sessions.create({ realm, accountId })).token;

    const adminId = await idOf('ADMIN', 'admin');
    const expertId = await idOf('EXPERT', 'e0003');
    await db.update(accounts).set({ agreedAt: new Date() }).where(eq(accounts.id, expertId));
    const uploaderId = await idOf('USER', 'demo1');

    // The demo's reviewable projects (demo10 is e0001's organisation; e0003 has no conflict with any).
    const projects = await db
      .select({ id: prelimDocs.id, username: accounts.username })
      .from(prelimDocs)
      .innerJoin(accounts, eq(accounts.id, prelimDocs.ownerId))
      .where(eq(prelimDocs.status, 'APPROVED'))
      .orderBy(asc(accounts.username));
    expect(projects.length).toBeGreaterThanOrEqual(KILLS.length + 1);
    await seedGroup(t, 'PRELIMINARY', [expertId], projects.map((p) => p.id), '崩溃测试组');

    const rounds: Round[] = [];
    // The last one is the calibration's.
    for (const [k, kill] of [...KILLS, { fraction: 0 }].entries()) {
      const [submitter] = await db.insert(accounts).values({ realm: 'USER', username: `crashp${k}`, name: `崩溃${k}`, roleCode: 'USER', passwordHash: 'x', agreedAt: new Date() }).returning({ id: accounts.id });
      const [draft] = await db.insert(teams).values({ ownerId: submitter!.id, status: 'DRAFT', orgName: '草稿单位', teamName: `草稿${k}` }).returning({ id: teams.id });
      await db.insert(statusHistory).values({ subjectType: 'TEAM', subjectId: draft!.id, fromStatus: null, toStatus: 'DRAFT', actorId: submitter!.id, actorRealm: 'USER', actorName: `崩溃${k}` });

      const owners = await db
        .insert(accounts)
        .values(Array.from({ length: BATCH }, (_, i) => ({ realm: 'USER' as const, username: `crashb${k}x${i}`, name: `批量${k}-${i}`, roleCode: 'USER' as const, passwordHash: 'x' })))
        .returning({ id: accounts.id });
      const submitted = await db
        .insert(teams)
        .values(owners.map((o, i) => ({ ownerId: o.id, status: 'SUBMITTED' as const, orgName: `批量单位${k}-${i}`, teamName: `批量${k}-${i}`, submittedAt: new Date() })))
        .returning({ id: teams.id, ownerId: teams.ownerId });
      await db.insert(statusHistory).values(submitted.map((s, i) => ({ subjectType: 'TEAM', subjectId: s.id, fromStatus: 'DRAFT', toStatus: 'SUBMITTED', actorId: s.ownerId, actorRealm: 'USER' as const, actorName: `批量${k}-${i}` })));

      rounds.push({
        kill,
        submitter: { accountId: submitter!.id, token: await tokenOf('USER', submitter!.id), teamId: draft!.id },
        batch: submitted,
        projectId: projects[k]!.id,
        upload: { id: newUploadId(), name: `crash-${k}.pdf`, content: fakeFile.pdf(UPLOAD_BYTES) },
      });
    }
    const calibration = rounds.pop()!;
    return {
      adminToken: await tokenOf('ADMIN', adminId),
      expertId,
      expertToken: await tokenOf('EXPERT', expertId),
      uploaderId,
      uploaderToken: await tokenOf('USER', uploaderId),
      rounds,
      calibration,
    };
  } finally {
    await database.close();
  }
}

// ---- the four writes -----------------------------------------------------------------------

const SCORES = { innovation: 20, feasibility: 18.5, value: 25, completeness: 15 };

const teamForm = (k: number, certificate: string, commitment: string) => teamFormFields(certificate, commitment, { teamName: `提交后${k}` });

interface Fired {
  submit: Sent;
  batch: Sent;
  score: Sent;
  lastPiece: Sent;
}

/** Everything but the four writes' last steps: the upload's first pieces, the sign-up's files. */
async function prepare(base: string, f: Fixtures, round: Round): Promise<{ certificate: string; commitment: string }> {
  const pieces = piecesOf(round.upload.content);
  for (let chunk = 0; chunk < pieces.length - 1; chunk++) {
    const answer = await sendPiece(base, f.uploaderToken, round.upload, chunk).answer;
    expect(answer?.status, JSON.stringify(answer)).toBe(200);
    expect(answer!.body.data.complete).toBe(false);
  }
  return {
    certificate: await uploadTeamFile(base, round.submitter.token, '营业执照.pdf'),
    commitment: await uploadTeamFile(base, round.submitter.token, '承诺书.pdf'),
  };
}

const WRITES = ['submit', 'batch', 'score', 'lastPiece'] as const;
type Write = (typeof WRITES)[number];

/** The four writes' last requests, each sent after its delay (ms); all at once by default. */
async function fire(base: string, f: Fixtures, round: Round, files: { certificate: string; commitment: string }, delays: Partial<Record<Write, number>> = {}): Promise<Fired> {
  const k = f.rounds.indexOf(round);
  const post = (path: string, token: string, body: unknown) => {
    const { headers, body: payload } = json(token, body);
    return send(base, 'POST', path, headers, payload);
  };
  const start: Record<Write, () => Sent> = {
    submit: () => post('/api/team/my/submit', round.submitter.token, teamForm(k, files.certificate, files.commitment)),
    batch: () => post('/api/admin/team/audit/batch', f.adminToken, { items: round.batch.map((b) => ({ id: b.id, version: 1 })), outcome: 'APPROVED', reason: '' }),
    score: () => post(`/api/expert/review/prelim/${round.projectId}/sheet/submit`, f.expertToken, { scores: SCORES, comment: `第${k}轮` }),
    lastPiece: () => sendPiece(base, f.uploaderToken, round.upload, piecesOf(round.upload.content).length - 1),
  };
  const sent = await Promise.all(WRITES.map((w) => new Promise<Sent>((resolve) => setTimeout(() => resolve(start[w]()), delays[w] ?? 0))));
  return Object.fromEntries(WRITES.map((w, i) => [w, sent[i]!])) as unknown as Fired;
}

/** How long each write takes on this machine, sent together as the rounds send them (nothing killed). */
async function calibrate(base: string, f: Fixtures): Promise<Record<Write, number>> {
  const files = await prepare(base, f, f.calibration);
  const at = performance.now();
  const fired = await fire(base, f, f.calibration, files);
  const took = {} as Record<Write, number>;
  await Promise.all(
    WRITES.map(async (w) => {
      const answer = await fired[w].answer;
      took[w] = performance.now() - at;
      // The writes work at all: otherwise every round would pass as "before" without testing anything.
      expect(answer?.status, `${w}: ${JSON.stringify(answer?.body)}`).toBe(200);
    }),
  );
  expect((await fired.lastPiece.answer)!.body.data.complete).toBe(true);
  return took;
}

/**
 * The web uploader's resume (docs/uploader.md): ask which pieces the server holds, send the
 * others, always the last one. The answer completes the upload, or tells the client to start
 * over (UPLOAD_RESTART), which it then does with a new id.
 */
async function resumeUpload(base: string, token: string, up: Upload): Promise<void> {
  const last = piecesOf(up.content).length - 1;
  const status = await call(base, 'GET', `/api/attachment/piece/status?id=${up.id}`, token);
  expect(status.status, JSON.stringify(status.body)).toBe(200);
  if (status.body.data.complete) {
    if (up.uniqueNo) expect(status.body.data.uniqueNo).toBe(up.uniqueNo);
    up.uniqueNo = status.body.data.uniqueNo as string;
    return;
  }
  const held = new Set<number>(status.body.data.received as number[]);
  for (let chunk = 0; chunk < last; chunk++) {
    if (held.has(chunk)) continue;
    const answer = await sendPiece(base, token, up, chunk).answer;
    expect(answer?.status, JSON.stringify(answer)).toBe(200);
  }
  const answer = (await sendPiece(base, token, up, last).answer)!;
  if (answer.status === 400 && answer.body.data?.reason === UPLOAD_RESTART_REASON) {
    expect(up.uniqueNo, 'an upload answered as stored must not be started over').toBeUndefined();
    up.restarted = true;
    up.id = newUploadId();
    for (let chunk = 0; chunk <= last; chunk++) {
      const again = (await sendPiece(base, token, up, chunk).answer)!;
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      if (chunk === last) up.uniqueNo = again.body.data.uniqueNo as string;
    }
    return;
  }
  expect(
    answer.status === 200 && answer.body.data.complete,
    `the resumed upload neither completed nor told the client to start over (a join claim left by the killed process still blocking it?): ${answer.status} ${JSON.stringify(answer.body)}`,
  ).toBe(true);
  if (up.uniqueNo) expect(answer.body.data.uniqueNo).toBe(up.uniqueNo);
  up.uniqueNo = answer.body.data.uniqueNo as string;
}

/** The stored file reads back byte for byte. */
async function expectStored(base: string, token: string, up: Upload): Promise<void> {
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    httpRequest(`${base}/api/attachment/stream/${up.uniqueNo}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`stream ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
  expect(bytes.length).toBe(up.content.length);
  expect(sha256(bytes)).toBe(sha256(up.content));
}

/** Polls `check` as fast as the event loop allows (the kill must follow the step within a ms or so). */
async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((r) => setImmediate(r));
  }
  return false;
}

// ---- invariants ----------------------------------------------------------------------------

const n = async (q: Promise<Array<{ n: number }>>) => (await q)[0]!.n;

/** Every team's status is the last state its history reached; every sheet's likewise. */
async function expectHistoriesAgree(db: Db): Promise<void> {
  for (const [subjectType, table] of [
    ['TEAM', teams],
    ['SHEET', scoreSheets],
  ] as const) {
    const rows = await db.select({ id: table.id, status: table.status }).from(table);
    const history = await db.select({ subjectId: statusHistory.subjectId, to: statusHistory.toStatus }).from(statusHistory).where(eq(statusHistory.subjectType, subjectType)).orderBy(asc(statusHistory.createdAt));
    const last = new Map(history.map((h) => [h.subjectId, h.to]));
    const wrong = rows.filter((r) => last.get(r.id) !== r.status);
    expect(wrong, `${subjectType} rows whose status is not their history's last state`).toEqual([]);
  }
}

type Outcome = 'before' | 'after' | `partial ${number}/${number}`;

async function checkSubmit(db: Db, round: Round, answered: Answer | null): Promise<Outcome> {
  const [team] = await db.select().from(teams).where(eq(teams.id, round.submitter.teamId));
  const history = await db.select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'TEAM'), eq(statusHistory.subjectId, team!.id))).orderBy(asc(statusHistory.createdAt));
  const inbox = await n(db.select({ n: count() }).from(messageRecipients).where(eq(messageRecipients.accountId, round.submitter.accountId)));
  if (team!.status === 'DRAFT') {
    expect(answered?.status, 'a submit answered 200 was lost').not.toBe(200);
    // The form is saved with the submit, in the same transaction: nothing of it before.
    expect(team).toMatchObject({ teamName: expect.stringMatching(/^草稿\d$/), orgName: '草稿单位', submittedAt: null, certificateFileId: null });
    expect(history.map((h) => h.toStatus)).toEqual(['DRAFT']);
    expect(inbox).toBe(0);
    return 'before';
  }
  expect(team).toMatchObject({ status: 'SUBMITTED', teamName: expect.stringMatching(/^提交后/), orgName: '示例科技有限公司' });
  expect(team!.submittedAt).not.toBeNull();
  expect(team!.certificateFileId).not.toBeNull();
  expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([
    [null, 'DRAFT'],
    ['DRAFT', 'SUBMITTED'],
  ]);
  expect(inbox, 'the TEAM_SUBMITTED notice').toBe(1);
  return 'after';
}

async function checkBatch(db: Db, round: Round, answered: Answer | null): Promise<Outcome> {
  const ids = round.batch.map((b) => b.id);
  const rows = new Map((await db.select({ id: teams.id, status: teams.status, version: teams.version, auditedAt: teams.auditedAt }).from(teams).where(inArray(teams.id, ids))).map((r) => [r.id, r]));
  const audits = await db
    .select({ subjectId: statusHistory.subjectId, from: statusHistory.fromStatus, to: statusHistory.toStatus, realm: statusHistory.actorRealm })
    .from(statusHistory)
    .where(and(eq(statusHistory.subjectType, 'TEAM'), inArray(statusHistory.subjectId, ids), eq(statusHistory.actorRealm, 'ADMIN')));
  const ops = await db.select({ targetId: operationRecords.targetId }).from(operationRecords).where(and(eq(operationRecords.action, 'qualification:audit'), inArray(operationRecords.targetId, ids)));
  const owners = round.batch.map((b) => b.ownerId);
  const inbox = new Map((await db.select({ accountId: messageRecipients.accountId, n: count() }).from(messageRecipients).where(inArray(messageRecipients.accountId, owners)).groupBy(messageRecipients.accountId)).map((r) => [r.accountId, r.n]));
  const outbox = new Map((await db.select({ accountId: noticeOutbox.accountId, n: count() }).from(noticeOutbox).where(inArray(noticeOutbox.accountId, owners)).groupBy(noticeOutbox.accountId)).map((r) => [r.accountId!, r.n]));

  const applied = round.batch.map((b) => {
    const row = rows.get(b.id)!;
    const mine = audits.filter((a) => a.subjectId === b.id);
    const opCount = ops.filter((o) => o.targetId === b.id).length;
    if (row.status === 'SUBMITTED') {
      // Not decided: no trace of the decision anywhere.
      expect({ row, audits: mine.length, ops: opCount, inbox: inbox.get(b.ownerId) ?? 0, outbox: outbox.get(b.ownerId) ?? 0 }).toEqual({ row: { ...row, version: 1, auditedAt: null }, audits: 0, ops: 0, inbox: 0, outbox: 0 });
      return false;
    }
    // Decided: the decision with its history row, operation record and the owner's notice.
    expect(row.status).toBe('APPROVED');
    expect(row.version).toBe(2);
    expect(mine).toEqual([{ subjectId: b.id, from: 'SUBMITTED', to: 'APPROVED', realm: 'ADMIN' }]);
    expect(opCount).toBe(1);
    expect(inbox.get(b.ownerId)).toBe(1);
    return true;
  });
  // Each team in its own transaction, in the order sent: the decided ones are a prefix.
  const done = applied.filter(Boolean).length;
  expect(applied).toEqual(round.batch.map((_, i) => i < done));
  // The same outbox rows (SMS / email, as the template's channels say) for every decided owner.
  expect(new Set(round.batch.slice(0, done).map((b) => outbox.get(b.ownerId) ?? 0)).size).toBeLessThanOrEqual(1);
  if (answered?.status === 200) expect(done, 'an answered batch was not all applied').toBe(round.batch.length);
  return done === 0 ? 'before' : done === round.batch.length ? 'after' : `partial ${done}/${round.batch.length}`;
}

async function checkScore(db: Db, f: Fixtures, round: Round, answered: Answer | null): Promise<Outcome> {
  const sheets = await db.select().from(scoreSheets).where(and(eq(scoreSheets.prelimId, round.projectId), eq(scoreSheets.expertId, f.expertId)));
  const logged = await n(db.select({ n: count() }).from(scoreLog).where(and(eq(scoreLog.kind, 'SCORE_SUBMITTED'), eq(scoreLog.subjectId, round.projectId))));
  const verified = await verifyScoreLog(db);
  expect(verified.firstBroken, 'the score log chain').toBeUndefined();
  if (sheets.length === 0) {
    expect(answered?.status, 'a score submit answered 200 was lost').not.toBe(200);
    expect(logged).toBe(0);
    return 'before';
  }
  const [sheet] = sheets;
  // Never SUBMITTED without its scores, its total, its history, its operation record and its log entry.
  expect(sheet).toMatchObject({ status: 'SUBMITTED', scores: SCORES, total: 2 * Object.values(SCORES).reduce((a, b) => a + b, 0), comment: expect.stringMatching(/^第-?\d轮$/) });
  expect(Object.keys(sheet!.scores).sort()).toEqual(DEFAULT_RUBRICS.PRELIMINARY.map((c) => c.key).sort());
  expect(sheet!.submittedAt).not.toBeNull();
  const history = await db.select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'SHEET'), eq(statusHistory.subjectId, sheet!.id)));
  expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([[null, 'SUBMITTED']]);
  expect(await n(db.select({ n: count() }).from(operationRecords).where(and(eq(operationRecords.action, 'review:submit'), eq(operationRecords.targetId, sheet!.id))))).toBe(1);
  expect(logged).toBe(1);
  return 'after';
}

/** Every object in DATA_DIR/files has its attachment row (none stored and forgotten). */
async function expectNoOrphans(db: Db, dataDir: string): Promise<void> {
  const root = join(dataDir, 'files');
  const onDisk = existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
        .filter((key) => STORAGE_KEY_PATTERN.test(key))
    : [];
  const rows = new Set((await db.select({ key: attachments.storageKey }).from(attachments)).map((r) => r.key));
  expect(onDisk.filter((key) => !rows.has(key)), 'stored objects without a row').toEqual([]);
}

async function expectStoredOnce(db: Db, f: Fixtures, up: Upload): Promise<void> {
  const rows = await db.select().from(attachments).where(and(eq(attachments.ownerId, f.uploaderId), eq(attachments.originalName, up.name)));
  expect(rows.map((r) => ({ uniqueNo: r.uniqueNo, size: r.size, sha256: r.sha256 }))).toEqual([{ uniqueNo: up.uniqueNo, size: up.content.length, sha256: sha256(up.content) }]);
}

// ---- the rounds ----------------------------------------------------------------------------

describe.skipIf(postgres)('kill -9 during writes (embedded database)', () => {
  let dataDir = '';
  let fixtures: Fixtures;
  let server: Server | null = null;
  const outcomes: Array<Record<string, string | number>> = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'contest-crash-'));
    fixtures = await install(dataDir);
  }, 120_000);

  /** A round that failed half-way leaves its server running: the next one could not open the folder. */
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    server = null;
  });

  afterAll(() => {
    if (outcomes.length) console.info(`kill -9 rounds (when → outcome):\n${outcomes.map((o) => JSON.stringify(o)).join('\n')}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const open = (): Promise<Database> => openDatabase({ databaseUrl: undefined, dataDir });

  let took: Record<Write, number>;

  for (const [k, kill] of KILLS.entries()) {
    it(`round ${k + 1}: SIGKILL ${describeKill(kill)}; restarted, every record is wholly before or after`, async () => {
      const started = performance.now();
      server = await startServer(dataDir);
      const startMs = Math.round(performance.now() - started);
      if (k === 0) took = await calibrate(server.base, fixtures);
      else {
        // The previous round's upload, resumed by its client after the restart.
        const previous = fixtures.rounds[k - 1]!.upload;
        await resumeUpload(server.base, fixtures.uploaderToken, previous);
        await expectStored(server.base, fixtures.uploaderToken, previous);
      }
      const round = fixtures.rounds[k]!;
      const files = await prepare(server.base, fixtures, round);
      let killAt: number | string;
      let fired: Fired;
      if ('fraction' in kill) {
        // Staggered so that at the kill each write is `fraction` of its own duration in.
        const at = Math.max(...WRITES.map((w) => kill.fraction * took[w]));
        fired = await fire(server.base, fixtures, round, files, Object.fromEntries(WRITES.map((w) => [w, at - kill.fraction * took[w]])));
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(...WRITES.map((w) => kill.fraction * took[w])))));
        killAt = Math.round(at);
      } else {
        const folder = join(dataDir, 'uploads', round.upload.id);
        const data = join(folder, 'data');
        // The claim is a database row the server's embedded database holds: seen from here, the
        // join is about to claim or has claimed once the last piece is wholly in the data file.
        const reached =
          kill.upload === 'claimed'
            ? () => (statSync(data, { throwIfNoEntry: false })?.size ?? 0) >= round.upload.content.length
            : () => existsSync(folder) && !existsSync(data);
        fired = await fire(server.base, fixtures, round, files);
        const seen = await until(reached, 60_000);
        killAt = seen ? `${kill.upload} seen` : `${kill.upload} not seen`;
        expect(seen || (await fired.lastPiece.answer) !== null, `the join never reached "${kill.upload}"`).toBe(true);
      }
      server.child.kill('SIGKILL');
      await server.exited;
      const [submit, batch, score, lastPiece] = await Promise.all(WRITES.map((w) => fired[w].answer));
      if (lastPiece?.status === 200 && lastPiece.body.data.complete) round.upload.uniqueNo = lastPiece.body.data.uniqueNo as string;

      // The database as the next start finds it (the killed process's lock is stale).
      const checked = performance.now();
      const database = await open();
      try {
        const db = database.db;
        outcomes.push({
          kill: killAt,
          submit: await checkSubmit(db, round, submit ?? null),
          batch: await checkBatch(db, round, batch ?? null),
          score: await checkScore(db, fixtures, round, score ?? null),
          lastPiece: lastPiece ? `answered ${lastPiece.status}${lastPiece.body.data?.complete ? ' complete' : ''}` : 'no answer',
          previousUpload: k === 0 ? '-' : fixtures.rounds[k - 1]!.upload.restarted ? 'started over' : 'resumed',
          startMs,
          checkMs: Math.round(performance.now() - checked),
        });
        await expectHistoriesAgree(db);
        if (k > 0) await expectStoredOnce(db, fixtures, fixtures.rounds[k - 1]!.upload);
      } finally {
        await database.close();
      }
    }, 150_000);
  }

  it('after the last restart the last upload completes, and every stored object has its row', async () => {
    server = await startServer(dataDir);
    const up = fixtures.rounds.at(-1)!.upload;
    await resumeUpload(server.base, fixtures.uploaderToken, up);
    await expectStored(server.base, fixtures.uploaderToken, up);
    server.child.kill('SIGTERM');
    await server.exited;
    const database = await open();
    try {
      await expectStoredOnce(database.db, fixtures, up);
      await expectNoOrphans(database.db, dataDir);
      await expectHistoriesAgree(database.db);
    } finally {
      await database.close();
    }
    outcomes.push({ restartedUploads: fixtures.rounds.filter((r) => r.upload.restarted).length, of: fixtures.rounds.length });
  }, 150_000);
});
