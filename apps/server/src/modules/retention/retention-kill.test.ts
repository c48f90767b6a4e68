import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pseudonymOf } from '@contest/shared';
import type { Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { accounts, attachments, dataRequests, jobs, retentionItems, retentionPseudonyms, retentionRuns, scoreLog, settings, teams } from '../../db/schema.js';
import { appendScoreLog, verifyScoreLog } from '../score-log/score-log.js';
import { createProcessDatabase, type ProcessDatabase } from '../../../test/process-database.js';
import { createRetentionService } from './retention.service.js';

/**
 * kill -9 in the middle of a retention run (docs/retention.md, "Crash safety"): a worker process
 * runs the `retention.run` job of a plan of 544 items (180 files, 360 participants with two export
 * zips each, 4 experts with score-log entries); it is SIGKILLed past 30 %, at the worst moment:
 * a batch committed (files' rows gone, items MARKED), three of its items finished, the fourth's
 * first object removed but the item not yet DONE. A new worker takes the job over once the dead
 * one's heartbeat is stale and finishes it. Then: every planned item done once, every planned
 * object gone and nothing else touched, no object removed twice but the one in flight, each
 * person anonymised once with the pseudonym a run without a crash gives, the score log verifies,
 * the run's counts equal the plan's. PGlite on disk by default (one process at a time: the test
 * opens the folder only while no worker runs), PostgreSQL when DATABASE_URL is set.
 */

const CHILD = fileURLToPath(new URL('./retention-kill.child.ts', import.meta.url));
const PARTICIPANTS = 360;
/** Participants 0-89 have a materials file, 90-179 a sign-up file. */
const WITH_FILE = 90;
const EXPERTS = 4;
const BATCH = 50;
/** The item (0-based, in plan order) whose first object is in flight at the kill: batch 5, its 4th. */
const KILL_AT = 4 * BATCH + 3;
const STALE_MS = 1_000;
const DAY = 86_400_000;

let filesDir = '';
let deleteLog = '';
let db: ProcessDatabase;
let dataDir = '';
let databaseUrl: string | undefined;
/** PostgreSQL is shared by the processes; PGlite on disk is opened by one process at a time. */
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const open = (): Promise<Database> => db.open();

beforeAll(async () => {
  db = await createProcessDatabase('contest-retention-kill-');
  ({ dataDir, databaseUrl } = db);
  filesDir = join(dataDir, 'files');
  deleteLog = join(dataDir, 'deletes.log');
}, 60_000);
afterAll(async () => {
  await db?.remove();
});

/** An object in the disk store (as lib/storage/disk-storage.ts lays it out: one file per key). */
const objectPath = (key: string) => join(filesDir, ...key.split('/'));
function putObject(key: string): string {
  mkdirSync(dirname(objectPath(key)), { recursive: true });
  writeFileSync(objectPath(key), randomBytes(32));
  return key;
}
const inStore = (key: string) => existsSync(objectPath(key));
const deletesLogged = (): string[] => (existsSync(deleteLog) ? readFileSync(deleteLog, 'utf8').split('\n').filter(Boolean) : []);

type Progress = { status: string; done: number; total: number; attempts: number; lastError: string | null } | null;

/** A worker process; `progress` is its last report of the job's done/total, `paused` its stop at the in-flight removal. */
function startWorker(jobId: string, pauseKeys: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      KILL_DATABASE_URL: databaseUrl ?? '',
      KILL_DATA_DIR: dataDir,
      KILL_FILES_DIR: filesDir,
      KILL_DELETE_LOG: deleteLog,
      KILL_JOB_ID: jobId,
      KILL_PAUSE_KEYS: pauseKeys.join(','),
      KILL_STALE_MS: String(STALE_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { progress: null as Progress, paused: false, log: '' };
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line === 'PAUSED') state.paused = true;
      else if (line.startsWith('{')) state.progress = JSON.parse(line) as Progress;
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (state.log += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, state, exit };
}

async function until(what: string, check: () => boolean, timeoutMs: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (child.exitCode !== null) throw new Error(`worker exited before ${what}:\n${log()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Each key's number of removals in the log. */
function tally(keys: readonly string[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
  return n;
}

/** The seeded world: who and what the plan should hold, and what it must leave alone. */
async function seed(database: Database) {
  const db = database.db;
  // The contest ended 400 days ago; files and people due at once, records after 180 days (none that old).
  const end = new Date(Date.now() - 400 * DAY);
  const w = { start: new Date(end.getTime() - 30 * DAY).toISOString(), end: end.toISOString() };
  await db.insert(settings).values([
    { key: 'contest.phases', value: { signUp: w, prelimSubmission: w, prelimReview: w, finalReview: w } },
    { key: 'retention.days', value: { MATERIAL_FILES: 0, SIGNUP_FILES: 0, PARTICIPANT_DATA: 0, EXPERT_DATA: 0, LOGIN_RECORDS: 180, OPERATION_RECORDS: 180 } },
  ]);
  const [admin] = await db
    .insert(accounts)
    .values({ realm: 'ADMIN', username: 'kill_admin', name: '保留管理员', roleCode: 'SUPER_ADMIN', passwordHash: 'x' })
    .returning({ id: accounts.id });
  const people = await participants(database, 'kill', PARTICIPANTS, 2);
  const files: Array<typeof attachments.$inferInsert> = people.slice(0, 2 * WITH_FILE).map((p, i) => file(p.id, i < WITH_FILE ? 'PRELIM' : 'TEAM'));
  // Files of no retention kind (a news image): never planned.
  const news = Array.from({ length: 3 }, () => file(admin!.id, 'NEWS'));
  await db.insert(attachments).values([...files, ...news]);
  const experts = await db
    .insert(accounts)
    .values(Array.from({ length: EXPERTS }, (_, i) => ({ realm: 'EXPERT' as const, username: `kill_e${i}`, name: `专家${i}`, code: `E000${i + 1}`, phone: `137${String(i).padStart(8, '0')}`, roleCode: 'EXPERT' as const, passwordHash: 'x' })))
    .returning({ id: accounts.id, name: accounts.name, code: accounts.code });
  for (const e of experts) {
    await db.transaction((tx) =>
      appendScoreLog(tx, { kind: 'APPEAL_DECIDED', round: 'PRELIMINARY', subjectType: 'appeal', subjectId: randomUUID(), actor: { id: e.id, name: `${e.name}（${e.code}）` }, payload: { decision: 'REJECTED' } }),
    );
  }
  return { adminId: admin!.id, people, fileKeys: new Map(files.map((f) => [f.id!, f.storageKey])), newsKeys: news.map((f) => f.storageKey), experts };
}

/** An attachment row whose object is in the store. */
function file(ownerId: string, origin: 'TEAM' | 'PRELIM' | 'NEWS'): typeof attachments.$inferInsert & { id: string } {
  const id = randomUUID();
  return { id, uniqueNo: randomBytes(16).toString('base64url'), ownerId, origin, originalName: `${origin.toLowerCase()}.pdf`, extension: 'pdf', mimeType: 'application/pdf', size: 32, sha256: '0'.repeat(64), storageKey: putObject(`2025/01/${id}`) };
}

/** Participants with a sign-up (two people) and `zips` export zips each (READY, and FAILED ones whose object stayed). */
async function participants(database: Database, tag: string, n: number, zips: number) {
  const db = database.db;
  const phone = (i: number) => `${tag === 'late' ? '135' : '136'}${String(i).padStart(8, '0')}`;
  const rows = await db
    .insert(accounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        realm: 'USER' as const,
        username: `${tag}_${i}`,
        name: `参赛者${tag}${i}`,
        phone: phone(i),
        email: `${tag}${i}@example.com`,
        roleCode: 'USER' as const,
        passwordHash: 'x',
      })),
    )
    .returning({ id: accounts.id, username: accounts.username });
  // Seeding order, not id order: the plan sorts people by their (random) account ids.
  rows.sort((a, b) => Number(a.username.split('_')[1]) - Number(b.username.split('_')[1]));
  await db.insert(teams).values(
    rows.map((r, i) => ({
      ownerId: r.id,
      status: 'APPROVED' as const,
      teamName: `团队${tag}${i}`,
      orgName: '示例医院',
      creditCode: '91110000MA01ABCD2X',
      leader: { name: `参赛者${tag}${i}`, phone: phone(i), email: `${tag}${i}@example.com`, title: 'SENIOR' },
      members: [{ name: `成员${tag}${i}`, phone: '13800000002', email: 'm@example.com', role: 'DEVELOPER' }],
    })) as Array<typeof teams.$inferInsert>,
  );
  const requests = rows.flatMap((r) =>
    Array.from({ length: zips }, (_, z) => {
      const id = randomUUID();
      return { id, accountId: r.id, kind: 'EXPORT' as const, status: z === 0 ? ('READY' as const) : ('FAILED' as const), storageKey: putObject(`exports/${id}`), size: 32, expiresAt: new Date(Date.now() + DAY) };
    }),
  );
  await db.insert(dataRequests).values(requests);
  return rows.map((r) => ({ id: r.id, zipKeys: requests.filter((q) => q.accountId === r.id).map((q) => q.storageKey) }));
}

describe('a retention run killed half-way (kill -9)', () => {
  it('is finished by another worker: every planned item done once, nothing removed twice but the removal in flight', async () => {
    let database = await open();
    await runMigrations(database);
    const db = database.db;
    await db.execute(sql`create table kill_anonymised (account_id uuid not null)`);
    const world = await seed(database);

    // The plan, through the service as an administrator makes it, then 执行 (queues the job).
    const service = createRetentionService({ db, kick: () => {} });
    const actor = { auth: { accountId: world.adminId, realm: 'ADMIN' as const, username: 'kill_admin' } };
    const plan = await service.dryRun(actor);
    expect(plan.counts).toMatchObject({ MATERIAL_FILES: WITH_FILE, SIGNUP_FILES: WITH_FILE, PARTICIPANT_DATA: PARTICIPANTS, EXPERT_DATA: EXPERTS });
    const items = await db.select().from(retentionItems).where(eq(retentionItems.runId, plan.id)).orderBy(asc(retentionItems.seq));
    const total = items.length;
    expect(total).toBe(2 * WITH_FILE + PARTICIPANTS + EXPERTS);
    const plannedFiles = items.filter((i) => i.kind.endsWith('_FILES'));
    expect(new Set(plannedFiles.map((i) => i.targetId))).toEqual(new Set(world.fileKeys.keys()));
    const plannedPeople = items.filter((i) => i.kind === 'PARTICIPANT_DATA').map((i) => i.targetId);
    const plannedExperts = items.filter((i) => i.kind === 'EXPERT_DATA').map((i) => i.targetId);
    const zipsOf = new Map(world.people.map((p) => [p.id, p.zipKeys]));
    const plannedKeys = new Set([...plannedFiles.map((i) => i.storageKey!), ...plannedPeople.flatMap((id) => zipsOf.get(id)!)]);
    // The kill falls on a participant's first zip: batch 5 is people only.
    const victim = items[KILL_AT]!;
    expect(victim.kind).toBe('PARTICIPANT_DATA');

    // Data that arrives after the dry run: not in the plan, never touched.
    const late = await participants(database, 'late', 3, 1);
    const lateFiles = late.map((p) => file(p.id, 'TEAM'));
    await db.insert(attachments).values(lateFiles);
    const untouchedKeys = [...world.newsKeys, ...late.flatMap((p) => p.zipKeys), ...lateFiles.map((f) => f.storageKey)];

    const started = await service.execute(actor, plan.id);
    expect(started.status).toBe('QUEUED');
    const [run] = await db.select({ jobId: retentionRuns.jobId }).from(retentionRuns).where(eq(retentionRuns.id, plan.id));
    const jobId = run!.jobId!;
    // PGlite is one process's: the worker opens the folder only after this process let it go.
    if (!postgresUrl) await database.close();

    // First worker: SIGKILLed past 30 %, while the victim's first object is removed and its item still MARKED.
    const first = startWorker(jobId, zipsOf.get(victim.targetId)!);
    const share = () => (first.state.progress?.total ? first.state.progress.done / first.state.progress.total : 0);
    await until('30 % progress and the removal in flight', () => first.state.paused && share() >= 0.3, 60_000, first.child, () => first.state.log).catch((err: unknown) => {
      first.child.kill('SIGKILL');
      throw err;
    });
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    // Half-way for real: the job still RUNNING (held by the dead worker); batch 5 committed (MARKED),
    // its first three items DONE, the fourth MARKED with one of its objects already removed.
    const removedBeforeKill = deletesLogged();
    if (!postgresUrl) database = await open();
    const [halfJob] = await database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(halfJob).toMatchObject({ status: 'RUNNING', attempts: 1 });
    const half = await database.db.select().from(retentionItems).where(eq(retentionItems.runId, plan.id)).orderBy(asc(retentionItems.seq));
    const stateCount = (s: string) => half.filter((i) => i.state === s).length;
    expect([stateCount('DONE'), stateCount('MARKED'), stateCount('PENDING')]).toEqual([KILL_AT, BATCH - 3, total - 4 * BATCH - BATCH]);
    // In flight: MARKED items some of whose objects the dead worker already removed — at most one.
    const before = new Set(removedBeforeKill);
    const inFlight = half.filter((i) => i.state === 'MARKED' && i.storageKey!.split('\n').some((k) => before.has(k)));
    expect(inFlight.map((i) => i.seq)).toEqual([victim.seq]);
    const inFlightRemoved = inFlight[0]!.storageKey!.split('\n').filter((k) => before.has(k));
    expect(inFlightRemoved).toHaveLength(1);
    if (!postgresUrl) await database.close();

    // A new worker takes the job over once the dead one's heartbeat is stale, and finishes it.
    const second = startWorker(jobId, []);
    const stuck = setTimeout(() => second.child.kill('SIGKILL'), 60_000);
    const { code, signal } = await second.exit;
    clearTimeout(stuck);
    expect({ code, signal }, second.state.log).toEqual({ code: 0, signal: null });

    if (!postgresUrl) database = await open();
    try {
      const d = database.db;
      const [job] = await d.select().from(jobs).where(eq(jobs.id, jobId));
      expect(job).toMatchObject({ status: 'DONE', attempts: 2, done: total, total });
      // The run's record: its counts are the plan's, nothing skipped.
      const [done] = await d.select().from(retentionRuns).where(eq(retentionRuns.id, plan.id));
      expect(done).toMatchObject({ status: 'DONE', skipped: 0, lastError: null });
      expect(done!.done).toEqual(Object.fromEntries(Object.entries(plan.counts).filter(([, n]) => n > 0)));
      const after = await d.select().from(retentionItems).where(eq(retentionItems.runId, plan.id));
      expect(after).toHaveLength(total);
      expect(after.filter((i) => i.state !== 'DONE')).toEqual([]);

      // Files: the planned rows gone, the others kept; every planned object gone, the others in the store.
      const rows = new Set((await d.select({ id: attachments.id }).from(attachments)).map((r) => r.id));
      expect(plannedFiles.filter((i) => rows.has(i.targetId))).toEqual([]);
      expect(lateFiles.every((f) => rows.has(f.id))).toBe(true);
      expect([...plannedKeys].filter(inStore)).toEqual([]);
      expect(untouchedKeys.filter((k) => !inStore(k))).toEqual([]);

      // Removals: only planned objects, each at least once, twice only the one in flight at the kill.
      const removals = tally(deletesLogged());
      expect([...removals.keys()].filter((k) => !plannedKeys.has(k))).toEqual([]);
      expect([...plannedKeys].filter((k) => !removals.has(k))).toEqual([]);
      expect([...removals].filter(([, n]) => n > 1).map(([k]) => k)).toEqual(inFlightRemoved);
      expect(Math.max(...removals.values())).toBe(2);

      // People: anonymised once each (one witness row, written in the person's transaction), with
      // the pseudonym a run without a crash gives: numbers drawn in plan order from 1.
      const witnessed = (await d.execute(sql`select account_id, count(*)::int as n from kill_anonymised group by account_id`)) as unknown as { rows: Array<{ account_id: string; n: number }> };
      const witness = new Map(witnessed.rows.map((r) => [r.account_id, r.n]));
      expect(witness.size).toBe(PARTICIPANTS + EXPERTS);
      expect([...witness.values()].every((n) => n === 1)).toBe(true);
      const pseudonyms = new Map((await d.select().from(retentionPseudonyms)).map((p) => [p.accountId, p]));
      expect(pseudonyms.size).toBe(PARTICIPANTS + EXPERTS);
      const accountRows = new Map((await d.select().from(accounts)).map((a) => [a.id, a]));
      for (const [realm, ids] of [
        ['USER', plannedPeople],
        ['EXPERT', plannedExperts],
      ] as const) {
        ids.forEach((id, i) => {
          expect(witness.get(id), id).toBe(1);
          expect(pseudonyms.get(id), id).toMatchObject({ realm, no: i + 1 });
          expect(pseudonyms.get(id)!.anonymisedAt).not.toBeNull();
          expect(accountRows.get(id), id).toMatchObject({ name: pseudonymOf(realm, i + 1), username: pseudonymOf(realm, i + 1), phone: null, email: null, enabled: false });
        });
      }
      // Their zips forgotten; the late participants untouched.
      const zipRows = await d.select({ accountId: dataRequests.accountId, storageKey: dataRequests.storageKey }).from(dataRequests);
      expect(zipRows.filter((r) => zipsOf.has(r.accountId) && r.storageKey !== null)).toEqual([]);
      for (const p of late) {
        expect(accountRows.get(p.id)!.phone).not.toBeNull();
        expect(pseudonyms.has(p.id)).toBe(false);
      }
      expect(zipRows.filter((r) => late.some((p) => p.id === r.accountId) && r.storageKey === null)).toEqual([]);

      // The score log: experts named by pseudonym (codes kept), and the chain verifies.
      const entries = await d.select().from(scoreLog).where(inArray(scoreLog.actorId, plannedExperts));
      expect(entries).toHaveLength(EXPERTS);
      for (const e of entries) {
        const expert = world.experts.find((x) => x.id === e.actorId)!;
        expect(e.actorName).toBe(`${pseudonymOf('EXPERT', plannedExperts.indexOf(e.actorId!) + 1)}（${expert.code}）`);
      }
      expect((await verifyScoreLog(d)).ok).toBe(true);
    } finally {
      await database.close();
    }
  }, 90_000);
});
