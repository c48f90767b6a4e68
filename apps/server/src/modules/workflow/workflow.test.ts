import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTEST_MSG, TEAM_WORKFLOW, type TeamStatus } from '@contest/shared';
import { createTestDatabase } from '../../../test/helpers.js';
import { loadTestConfig } from '../../config/test-config.js';
import type { Database, Db } from '../../db/client.js';
import { accounts, messageRecipients, operationRecords, statusHistory } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { OperationActor } from '../audit/operation-log.js';
import { createWorkflowService, type TransitionInput } from './workflow.service.js';

/**
 * The workflow core on its own (docs/architecture.md, "Workflow core"): a record of a scratch
 * table walks the TEAM workflow, so nothing of a module's own rules is in the way.
 */

let database: Database;
let drop: () => Promise<void>;
let admin: OperationActor;
let ownerId: string;
const db = () => database.db;
const AT = new Date('2026-03-01T08:00:00.000Z');
const workflow = createWorkflowService({ now: () => AT });

interface Rec {
  id: string;
  status: TeamStatus;
  version: number;
}

const account = async (realm: 'ADMIN' | 'USER', username: string, name: string) =>
  (await db().insert(accounts).values({ realm, username, name, passwordHash: 'x', roleCode: realm === 'ADMIN' ? 'SYSTEM' : 'USER' }).returning())[0]!.id;

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase(loadTestConfig(), { migrated: true }));
  await db().execute(sql`create table wf_records (id uuid primary key default gen_random_uuid(), status text not null, version integer not null default 1)`);
  admin = { auth: { accountId: await account('ADMIN', 'wf-admin', '审核员甲'), realm: 'ADMIN', username: 'wf-admin' } };
  ownerId = await account('USER', 'wf-owner', '');
});

afterAll(async () => {
  await drop();
});

let rec: Rec;
beforeEach(async () => {
  const rows = await db().execute(sql`insert into wf_records (status) values ('SUBMITTED') returning id, status, version`);
  rec = ((rows as unknown as { rows?: Rec[] }).rows ?? (rows as unknown as Rec[]))[0]!;
});

const read = async (tx: Db, id: string, lock = true): Promise<Rec | undefined> => {
  const rows = await tx.execute(sql`select id, status, version from wf_records where id = ${id} ${lock ? sql`for update` : sql``}`);
  return ((rows as unknown as { rows?: Rec[] }).rows ?? (rows as unknown as Rec[]))[0];
};

type TeamAction = (typeof TEAM_WORKFLOW.transitions)[number]['action'];

function input(over: Partial<TransitionInput<TeamStatus, TeamAction, Rec>> = {}): TransitionInput<TeamStatus, TeamAction, Rec> {
  return {
    workflow: TEAM_WORKFLOW,
    action: 'APPROVE',
    actor: admin,
    notFoundMessage: '记录不存在',
    lock: (tx) => read(tx, rec.id),
    apply: async (tx, row, to) => {
      await tx.execute(sql`update wf_records set status = ${to}, version = version + 1 where id = ${row.id}`);
      return (await read(tx, row.id))!;
    },
    subjectId: (row) => row.id,
    notice: () => ({ code: 'TEAM_APPROVED', ownerId, vars: { teamName: '测试队' } }),
    operation: (row, to) => ({ action: 'qualification:audit', targetType: 'wf_record', targetId: row.id, summary: `审核 -> ${to}` }),
    ...over,
  };
}

/** What the core wrote for `rec`: its state, history rows, operation records and the owner's messages. */
async function written(id = rec.id) {
  const row = await read(db(), id, false);
  const history = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'TEAM'), eq(statusHistory.subjectId, id)));
  const operations = await db().select().from(operationRecords).where(eq(operationRecords.targetId, id));
  const [{ n }] = (await db().select({ n: sql<number>`count(*)::int` }).from(messageRecipients).where(eq(messageRecipients.accountId, ownerId))) as [{ n: number }];
  return { row, history, operations, messages: n };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('workflow.transition', () => {
  it('writes the new state, its history row, the operation record and the notice together', async () => {
    const before = (await written()).messages;
    const out = await db().transaction((tx) => workflow.transition(tx, input({ expectedVersion: 1 })));
    expect(out).toMatchObject({ from: 'SUBMITTED', to: 'APPROVED', row: { status: 'APPROVED', version: 2 } });
    const w = await written();
    expect(w.row).toMatchObject({ status: 'APPROVED', version: 2 });
    expect(w.history).toHaveLength(1);
    expect(w.history[0]).toMatchObject({ fromStatus: 'SUBMITTED', toStatus: 'APPROVED', actorId: admin.auth.accountId, actorRealm: 'ADMIN', actorName: '审核员甲', createdAt: AT });
    expect(w.operations).toHaveLength(1);
    expect(w.operations[0]).toMatchObject({ action: 'qualification:audit', targetType: 'wf_record', summary: '审核 -> APPROVED', accountId: admin.auth.accountId });
    expect(w.messages).toBe(before + 1);
  });

  it('refuses a stale version (400 STALE) and writes nothing', async () => {
    const before = await written();
    const err = await refusal(db().transaction((tx) => workflow.transition(tx, input({ expectedVersion: 7 }))));
    expect(err).toMatchObject({ status: 400, message: CONTEST_MSG.stale, data: { reason: 'STALE', status: 'SUBMITTED', version: 1 } });
    expect(await written()).toEqual(before);
  });

  it('refuses a step the workflow does not allow (400 NOT_ALLOWED, 403 for a realm it does not name)', async () => {
    const before = await written();
    // SUBMIT is the team's step, not from SUBMITTED.
    const notAllowed = await refusal(db().transaction((tx) => workflow.transition(tx, input({ action: 'SUBMIT' }))));
    expect(notAllowed).toMatchObject({ status: 400, message: TEAM_WORKFLOW.refusals.SUBMIT, data: { reason: 'NOT_ALLOWED', status: 'SUBMITTED' } });
    // A participant may not approve.
    const participant: OperationActor = { auth: { accountId: ownerId, realm: 'USER', username: 'wf-owner' } };
    expect(await refusal(db().transaction((tx) => workflow.transition(tx, input({ actor: participant }))))).toMatchObject({ status: 403 });
    // RETURN needs a reason.
    expect(await refusal(db().transaction((tx) => workflow.transition(tx, input({ action: 'RETURN', reason: '  ' }))))).toMatchObject({
      status: 400,
      message: CONTEST_MSG.reasonRequired,
    });
    // A guard refuses after the step's own checks.
    expect(await refusal(db().transaction((tx) => workflow.transition(tx, input({ guard: () => { throw new AppError('BAD_REQUEST', '守卫拒绝'); } }))))).toMatchObject({ message: '守卫拒绝' });
    expect(await written()).toEqual(before);
    // Once approved, approving again is refused too.
    await db().transaction((tx) => workflow.transition(tx, input()));
    const again = await refusal(db().transaction((tx) => workflow.transition(tx, input())));
    expect(again).toMatchObject({ status: 400, data: { reason: 'NOT_ALLOWED', status: 'APPROVED' } });
  });

  it('a missing record is 404 with the caller message', async () => {
    expect(await refusal(db().transaction((tx) => workflow.transition(tx, input({ lock: async () => undefined }))))).toMatchObject({ status: 404, message: '记录不存在' });
  });

  it('rolls back state, history, operation record and notice when the transaction fails after the step', async () => {
    const before = await written();
    await expect(
      db().transaction(async (tx) => {
        await workflow.transition(tx, input());
        // Everything is written inside the transaction ...
        const inside = await tx.select().from(statusHistory).where(eq(statusHistory.subjectId, rec.id));
        expect(inside).toHaveLength(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // ... and nothing of it is left.
    expect(await written()).toEqual(before);
  });

  it('rolls back the state, history and notice when the operation record itself fails', async () => {
    const before = await written();
    // target_type is NOT NULL: the last write of the step fails inside the core.
    const broken = input({ operation: (row) => ({ action: 'qualification:audit', targetType: null as unknown as string, targetId: row.id, summary: 'x' }) });
    await expect(db().transaction((tx) => workflow.transition(tx, broken))).rejects.toThrow();
    expect(await written()).toEqual(before);
  });
});

describe('workflow.record and recordMany', () => {
  it('record: no history row when the state stays; the fallback name when the account has none', async () => {
    const owner: OperationActor = { auth: { accountId: ownerId, realm: 'USER', username: 'wf-owner' } };
    await db().transaction((tx) => workflow.record(tx, { workflow: TEAM_WORKFLOW, subjectId: rec.id, from: 'SUBMITTED', to: 'SUBMITTED', actor: owner }));
    expect((await written()).history).toHaveLength(0);
    await db().transaction((tx) => workflow.record(tx, { workflow: TEAM_WORKFLOW, subjectId: rec.id, from: 'DRAFT', to: 'SUBMITTED', actor: owner, actorName: '测试队' }));
    const w = await written();
    expect(w.history).toMatchObject([{ fromStatus: 'DRAFT', toStatus: 'SUBMITTED', actorName: '测试队', actorRealm: 'USER' }]);
    // A participant's own step has no operation record.
    expect(w.operations).toHaveLength(0);
  });

  it('recordMany: one row per changed record; keepSame keeps the rows whose state stays', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const steps = [
      { subjectId: ids[0]!, from: 'SUBMITTED' as const, to: 'APPROVED' as const, reason: 'a' },
      { subjectId: ids[1]!, from: 'APPROVED' as const, to: 'APPROVED' as const, reason: 'b' },
    ];
    await db().transaction((tx) => workflow.recordMany(tx, { workflow: TEAM_WORKFLOW, actor: admin, steps }));
    expect((await written(ids[0])).history).toMatchObject([{ toStatus: 'APPROVED', reason: 'a', actorName: '审核员甲', createdAt: AT }]);
    expect((await written(ids[1])).history).toHaveLength(0);
    await db().transaction((tx) => workflow.recordMany(tx, { workflow: TEAM_WORKFLOW, actor: admin, steps: [steps[1]!], keepSame: true }));
    expect((await written(ids[1])).history).toMatchObject([{ fromStatus: 'APPROVED', toStatus: 'APPROVED', reason: 'b' }]);
  });
});
