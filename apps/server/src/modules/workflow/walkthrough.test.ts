import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsFrom, defineWorkflow, stepOf } from '@contest/shared';
import { createTestDatabase } from '../../../test/helpers.js';
import { loadTestConfig } from '../../config/test-config.js';
import type { Database, Db } from '../../db/client.js';
import { accounts, operationRecords, statusHistory } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { OperationActor } from '../audit/operation-log.js';
import { createWorkflowService, decideEach } from './workflow.service.js';

/**
 * CONTRIBUTING.md, "Adding a status machine", as a newcomer would follow it: a toy suggestion
 * box is declared as data (step 1), gets a table with status and version (step 2), and its
 * participant step and staff decisions go through the workflow core (step 3). Nothing here is
 * contest code: if the walkthrough stops compiling or working, the guide is out of date.
 */

// Step 1: the machine, as data. (A real one lives in packages/shared next to its domain.)
const SUGGESTION_STATUSES = ['SUBMITTED', 'ACCEPTED', 'DECLINED'] as const;
type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
const SUGGESTION_WORKFLOW = defineWorkflow({
  subject: 'SUGGESTION',
  states: SUGGESTION_STATUSES,
  transitions: [
    { action: 'FILE', from: [null], to: 'SUBMITTED', by: ['USER'] },
    { action: 'ACCEPT', from: ['SUBMITTED'], to: 'ACCEPTED', by: ['ADMIN'] },
    { action: 'DECLINE', from: ['SUBMITTED'], to: 'DECLINED', by: ['ADMIN'], reasonRequired: true },
  ],
  refusals: { FILE: '已提交过建议' },
  refused: '建议已处理',
});

interface Suggestion {
  id: string;
  status: SuggestionStatus;
  version: number;
  title: string;
}

let database: Database;
let drop: () => Promise<void>;
let staff: OperationActor;
let participant: OperationActor;
const db = () => database.db;
const workflow = createWorkflowService();

// Step 2: the table (a migration in a real module; a scratch table here).
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase(loadTestConfig(), { migrated: true }));
  await db().execute(
    sql`create table toy_suggestions (id uuid primary key default gen_random_uuid(), status text not null, version integer not null default 1, title text not null)`,
  );
  const account = async (realm: 'ADMIN' | 'USER', username: string) =>
    (await db().insert(accounts).values({ realm, username, name: username, passwordHash: 'x', roleCode: realm === 'ADMIN' ? 'SYSTEM' : 'USER' }).returning())[0]!.id;
  staff = { auth: { accountId: await account('ADMIN', 'toy-staff'), realm: 'ADMIN', username: 'toy-staff' } };
  participant = { auth: { accountId: await account('USER', 'toy-user'), realm: 'USER', username: 'toy-user' } };
});

afterAll(async () => {
  await drop();
});

const rowsOf = (result: unknown): Suggestion[] => (result as { rows?: Suggestion[] }).rows ?? (result as Suggestion[]);
const lock = async (tx: Db, id: string) => rowsOf(await tx.execute(sql`select * from toy_suggestions where id = ${id} for update`))[0];

// Step 3a: the participant's own step: `check` names the step (or refuses), `record` writes its history.
async function file(title: string): Promise<Suggestion> {
  return db().transaction(async (tx) => {
    const to = workflow.check(SUGGESTION_WORKFLOW, 'FILE', null, participant);
    const row = rowsOf(await tx.execute(sql`insert into toy_suggestions (status, title) values (${to}, ${title}) returning *`))[0]!;
    await workflow.record(tx, { workflow: SUGGESTION_WORKFLOW, subjectId: row.id, from: null, to, actor: participant });
    return row;
  });
}

// Step 3b: a staff decision: lock, version check, step check, apply, history + operation record in one transaction.
function decide(id: string, action: 'ACCEPT' | 'DECLINE', reason: string | null, version?: number) {
  return db().transaction((tx) =>
    workflow.transition(tx, {
      workflow: SUGGESTION_WORKFLOW,
      action,
      actor: staff,
      reason,
      expectedVersion: version,
      notFoundMessage: '建议不存在',
      lock: (t) => lock(t, id),
      apply: async (t, row, to) => rowsOf(await t.execute(sql`update toy_suggestions set status = ${to}, version = version + 1 where id = ${row.id} returning *`))[0]!,
      subjectId: (row) => row.id,
      operation: (row, to) => ({ action: 'toy:decide', targetType: 'toy_suggestion', targetId: row.id, summary: `处理建议「${row.title}」：${to}` }),
    }),
  );
}

const historyOf = (id: string) =>
  db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'SUGGESTION'), eq(statusHistory.subjectId, id))).orderBy(statusHistory.createdAt);

describe('CONTRIBUTING walkthrough: a toy status machine', () => {
  it('the declaration answers which buttons the console shows (step 5)', () => {
    expect(actionsFrom(SUGGESTION_WORKFLOW, 'SUBMITTED', 'ADMIN')).toEqual(['ACCEPT', 'DECLINE']);
    expect(actionsFrom(SUGGESTION_WORKFLOW, 'ACCEPTED', 'ADMIN')).toEqual([]);
    expect(stepOf(SUGGESTION_WORKFLOW, 'FILE', 'SUBMITTED', 'USER')).toMatchObject({ ok: false, message: '已提交过建议' });
    expect(() => defineWorkflow({ subject: 'TYPO', states: SUGGESTION_STATUSES, transitions: [{ action: 'X', from: ['NOPE' as never], to: 'SUBMITTED', by: ['ADMIN'] }], refusals: {}, refused: '' })).toThrow(/unknown from-state NOPE/);
  });

  it('files, accepts with the shown version, and keeps the history and the operation record', async () => {
    const s = await file('夜间也能上传');
    expect(s).toMatchObject({ status: 'SUBMITTED', version: 1 });
    const { row } = await decide(s.id, 'ACCEPT', null, s.version);
    expect(row).toMatchObject({ status: 'ACCEPTED', version: 2 });
    expect(await historyOf(s.id)).toMatchObject([
      { fromStatus: null, toStatus: 'SUBMITTED', actorRealm: 'USER' },
      { fromStatus: 'SUBMITTED', toStatus: 'ACCEPTED', actorRealm: 'ADMIN' },
    ]);
    expect(await db().select().from(operationRecords).where(eq(operationRecords.targetId, s.id))).toMatchObject([{ action: 'toy:decide', summary: '处理建议「夜间也能上传」：ACCEPTED' }]);
  });

  it('refuses a stale version, a missing reason and a second decision, writing nothing', async () => {
    const s = await file('评分表加备注');
    await expect(decide(s.id, 'ACCEPT', null, 9)).rejects.toMatchObject({ status: 400, data: { reason: 'STALE' } });
    await expect(decide(s.id, 'DECLINE', '')).rejects.toMatchObject({ status: 400 });
    expect(await historyOf(s.id)).toHaveLength(1);
    await decide(s.id, 'DECLINE', '已有同类功能');
    const again = await decide(s.id, 'ACCEPT', null).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect(again).toMatchObject({ status: 400, message: '建议已处理', data: { reason: 'NOT_ALLOWED', status: 'DECLINED' } });
  });

  it('decides a batch per record: one changed underneath fails alone', async () => {
    const a = await file('甲');
    const b = await file('乙');
    await decide(b.id, 'ACCEPT', null);
    const result = await decideEach(
      [
        { id: a.id, version: 1 },
        { id: b.id, version: 1 },
      ],
      async (item) => (await decide(item.id, 'ACCEPT', null, item.version)).row,
      (row) => ({ status: row.status, name: row.title }),
    );
    expect(result).toMatchObject({ succeeded: 1, failed: 1 });
  });
});
