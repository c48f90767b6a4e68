import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastDraftSchema } from '@contest/shared';
import type { Database } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { accounts, jobs, messageBatches, messageRecipients, messages, noticeOutbox } from '../../db/schema.js';
import { enqueueJob } from '../../lib/jobs.js';
import { createProcessDatabase, type ProcessDatabase } from '../../../test/process-database.js';
import { createBroadcastRepository } from './broadcast.repository.js';
import { createBroadcastService } from './broadcast.service.js';

/**
 * kill -9 in the middle of a bulk send (docs/rules/content.md, "Bulk sends": "a restart never sends
 * anything twice"). A worker process runs the in-site and the SMS batch of one segment of 3,000
 * participants; it is SIGKILLed once the jobs are past ~30 %, a new worker takes the jobs over
 * when the dead one's heartbeat is stale, and in the end every recipient holds exactly one inbox
 * row and one SMS outbox row. PGlite on disk by default (one process at a time: the test opens the
 * folder only while no worker runs), PostgreSQL when DATABASE_URL is set.
 */

const CHILD = fileURLToPath(new URL('./broadcast-kill.child.ts', import.meta.url));
const PARTICIPANTS = 3_000;
const SLICE = 50;
const STALE_MS = 1_000;

let db: ProcessDatabase;
let dataDir = '';
let databaseUrl: string | undefined;
/** PostgreSQL is shared by the processes; PGlite on disk is opened by one process at a time. */
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const open = (): Promise<Database> => db.open();

beforeAll(async () => {
  db = await createProcessDatabase('contest-kill-');
  ({ dataDir, databaseUrl } = db);
}, 60_000);
afterAll(async () => {
  await db?.remove();
});

type Progress = Array<{ id: string; status: string; done: number; total: number; attempts: number }>;

/** A worker process; `progress` is its last report of jobs.done/total. */
function startWorker(jobIds: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      KILL_DATABASE_URL: databaseUrl ?? '',
      KILL_DATA_DIR: dataDir,
      KILL_JOB_IDS: jobIds.join(','),
      KILL_SLICE: String(SLICE),
      KILL_SLICE_DELAY_MS: '10',
      KILL_STALE_MS: String(STALE_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const state = { progress: [] as Progress, log: '' };
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) if (line.startsWith('[')) state.progress = JSON.parse(line) as Progress;
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

/** Inbox rows and SMS outbox rows per account, for the two batches. */
async function deliveries(database: Database, insiteBatch: string, smsBatch: string) {
  const db = database.db;
  const insite = await db
    .select({ accountId: messageRecipients.accountId, n: sql<number>`count(*)::int` })
    .from(messageRecipients)
    .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
    .where(eq(messages.batchId, insiteBatch))
    .groupBy(messageRecipients.accountId);
  const sms = await db
    .select({ accountId: noticeOutbox.accountId, n: sql<number>`count(*)::int` })
    .from(noticeOutbox)
    .where(and(eq(noticeOutbox.batchId, smsBatch), eq(noticeOutbox.channel, 'SMS')))
    .groupBy(noticeOutbox.accountId);
  const messageRows = await db.select({ id: messages.id }).from(messages).where(eq(messages.batchId, insiteBatch));
  return { insite, sms, messages: messageRows.length };
}

describe('a bulk send killed half-way (kill -9)', () => {
  it('is finished by another worker: every recipient gets exactly one in-site message and one SMS', async () => {
    // The database, 3,000 participants with phones, and the two sends as an administrator makes them.
    let database = await open();
    await runMigrations(database);
    const db = database.db;
    const [admin] = await db
      .insert(accounts)
      .values({ realm: 'ADMIN', username: 'kill_admin', name: '群发管理员', roleCode: 'SUPER_ADMIN', passwordHash: 'x' })
      .returning({ id: accounts.id });
    for (let i = 0; i < PARTICIPANTS; i += 1_000) {
      await db.insert(accounts).values(
        Array.from({ length: Math.min(1_000, PARTICIPANTS - i) }, (_, k) => ({
          realm: 'USER' as const,
          username: `kill_${i + k}`,
          name: `参赛者${i + k}`,
          phone: `136${String(i + k).padStart(8, '0')}`,
          roleCode: 'USER' as const,
          passwordHash: 'x',
        })),
      );
    }
    const participants = (await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.realm, 'USER'))).map((r) => r.id).sort();
    expect(participants).toHaveLength(PARTICIPANTS);
    const service = createBroadcastService({ db, repo: createBroadcastRepository(db), enqueueJob });
    const actor = { auth: { accountId: admin!.id, realm: 'ADMIN' as const, username: 'kill_admin' } };
    const segment = { kind: 'ALL' };
    const insite = await service.send(actor, 'INSITE', broadcastDraftSchema.parse({ segment, title: '赛程通知', body: '决赛安排已发布' }));
    const sms = await service.send(actor, 'SMS', broadcastDraftSchema.parse({ segment, smsText: '{name}您好，决赛安排已发布，请登录大赛官网查看。' }));
    expect([insite.total, sms.total]).toEqual([PARTICIPANTS, PARTICIPANTS]);
    const jobIds = [insite.jobId, sms.jobId];
    // PGlite is one process's: the worker opens the folder only after this process let it go.
    if (!postgresUrl) await database.close();

    // First worker: SIGKILL once the two jobs together are past 30 %.
    const first = startWorker(jobIds);
    const share = () => {
      const p = first.state.progress;
      const total = p.reduce((s, r) => s + r.total, 0);
      return total ? p.reduce((s, r) => s + r.done, 0) / total : 0;
    };
    await until('30 % progress', () => first.state.progress.length === 2 && share() >= 0.3, 60_000, first.child, () => first.state.log);
    first.child.kill('SIGKILL');
    expect((await first.exit).signal).toBe('SIGKILL');

    // Half-way for real: the jobs are still RUNNING (held by the dead worker), some recipients served, not all.
    if (!postgresUrl) database = await open();
    const half = await deliveries(database, insite.batchId, sms.batchId);
    const halfJobs = await database.db.select().from(jobs).where(inArray(jobs.id, jobIds));
    expect(halfJobs.map((j) => j.status)).toEqual(['RUNNING', 'RUNNING']);
    const servedHalf = half.insite.length + half.sms.length;
    expect(servedHalf).toBeGreaterThanOrEqual(0.3 * 2 * PARTICIPANTS - 2 * SLICE);
    expect(servedHalf).toBeLessThan(2 * PARTICIPANTS);
    if (!postgresUrl) await database.close();

    // A new worker takes the jobs over once the dead one's heartbeat is stale, and finishes them.
    const second = startWorker(jobIds);
    const { code } = await second.exit;
    expect(code, second.state.log).toBe(0);

    if (!postgresUrl) database = await open();
    try {
      const done = await database.db.select().from(jobs).where(inArray(jobs.id, jobIds));
      for (const job of done) expect(job).toMatchObject({ status: 'DONE', attempts: 2, done: PARTICIPANTS, total: PARTICIPANTS });
      const batches = await database.db.select().from(messageBatches).where(inArray(messageBatches.id, [insite.batchId, sms.batchId]));
      expect(batches.map((b) => b.status)).toEqual(['DONE', 'DONE']);

      const all = await deliveries(database, insite.batchId, sms.batchId);
      expect(all.messages).toBe(1);
      // Exactly one each: none missing, none twice.
      expect(all.insite.map((r) => r.accountId).sort()).toEqual(participants);
      expect(all.insite.filter((r) => r.n !== 1)).toEqual([]);
      expect(all.sms.map((r) => r.accountId).sort()).toEqual(participants);
      expect(all.sms.filter((r) => r.n !== 1)).toEqual([]);
      const texts = await database.db.select({ text: noticeOutbox.text, recipient: noticeOutbox.recipient, accountId: noticeOutbox.accountId }).from(noticeOutbox).where(eq(noticeOutbox.batchId, sms.batchId));
      expect(new Set(texts.map((r) => r.recipient)).size).toBe(PARTICIPANTS);
      const named = await database.db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.realm, 'USER'));
      const nameOf = new Map(named.map((a) => [a.id, a.name]));
      expect(texts.every((r) => r.text === `${nameOf.get(r.accountId!)}您好，决赛安排已发布，请登录大赛官网查看。`)).toBe(true);
    } finally {
      await database.close();
    }
  }, 90_000);
});
