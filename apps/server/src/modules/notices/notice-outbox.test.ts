import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { noticeOutbox } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import type { SmsMessage, SmsProvider } from '../sms/sms.provider.js';
import { createNoticeOutbox, queueSmsNotice } from './notice-outbox.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
});
afterAll(async () => t?.close());

const db = () => t.database.db;

function fakeGateway(failTimes = 0): SmsProvider & { sent: SmsMessage[] } {
  let failures = failTimes;
  const sent: SmsMessage[] = [];
  return {
    name: 'fake',
    sent,
    async send(message) {
      if (failures > 0) {
        failures--;
        throw new Error('gateway busy');
      }
      await new Promise((r) => setTimeout(r, 5));
      sent.push(message);
    },
  };
}

async function queue(n: number): Promise<string[]> {
  const user = await signIn(t, { realm: 'USER' });
  await db().transaction(async (tx) => {
    for (let i = 0; i < n; i++) await queueSmsNotice(tx, { accountId: user.accountId, templateKey: 'T', params: [String(i)], text: `通知 ${i}` });
  });
  return (await db().select({ id: noticeOutbox.id }).from(noticeOutbox).where(eq(noticeOutbox.accountId, user.accountId))).map((r) => r.id);
}

describe('notice outbox', () => {
  it('sends each queued notice once, even with two dispatchers draining at once', async () => {
    const ids = await queue(30);
    const gateway = fakeGateway();
    // Two dispatchers stand for two instances of the server.
    const a = createNoticeOutbox({ db: db(), sms: gateway });
    const b = createNoticeOutbox({ db: db(), sms: gateway });
    await Promise.all([a.drain(), b.drain(), a.drain()]);
    expect(gateway.sent).toHaveLength(30);
    expect(new Set(gateway.sent.map((m) => m.text)).size).toBe(30);
    const rows = await db().select().from(noticeOutbox).where(inArray(noticeOutbox.id, ids));
    expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1 && r.sentAt)).toBe(true);
    // What the provider answered is kept per row (this fake answers nothing: its name is kept).
    expect(rows.every((r) => r.providerAnswer === 'fake: accepted')).toBe(true);
    await a.drain();
    expect(gateway.sent).toHaveLength(30);
  });

  it('retries a failure later with backoff, and gives up after five attempts with the reason', async () => {
    const [id] = await queue(1);
    let clock = Date.now();
    const now = () => new Date(clock);
    const flaky = fakeGateway(1);
    const outbox = createNoticeOutbox({ db: db(), sms: flaky, now });
    await outbox.drain();
    let [row] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, id!));
    expect(row).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: 'gateway busy', providerAnswer: 'gateway busy' });
    // Not due yet: nothing is sent.
    await outbox.drain();
    expect(flaky.sent).toHaveLength(0);
    clock += 60_000;
    await outbox.drain();
    [row] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, id!));
    expect(row).toMatchObject({ status: 'SENT', attempts: 2 });

    const [dead] = await queue(1);
    const down = fakeGateway(100);
    const outbox2 = createNoticeOutbox({ db: db(), sms: down, now });
    for (let i = 0; i < 6; i++) {
      await outbox2.drain();
      clock += 3_600_000;
    }
    [row] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, dead!));
    expect(row).toMatchObject({ status: 'FAILED', attempts: 5, lastError: 'gateway busy', providerAnswer: 'gateway busy' });
  });

  it('sends a notice queued this instant from an instance whose clock is behind the database', async ({ skip }) => {
    // PostgreSQL only: PGlite reads the process's clock, so moving Node's moves the database's too.
    if (t.database.kind !== 'postgres') skip();
    const [id] = await queue(1);
    const gateway = fakeGateway();
    const outbox = createNoticeOutbox({ db: db(), sms: gateway });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 5_000 });
    try {
      expect(await outbox.drain()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    const [row] = await db().select().from(noticeOutbox).where(eq(noticeOutbox.id, id!));
    expect(row).toMatchObject({ status: 'SENT' });
  });

  it('queues nothing for an account without a phone', async () => {
    const admin = await signIn(t, { realm: 'ADMIN' });
    await db().transaction((tx) => queueSmsNotice(tx, { accountId: admin.accountId, templateKey: 'T', params: [], text: 'x' }));
    expect(await db().select().from(noticeOutbox).where(eq(noticeOutbox.accountId, admin.accountId))).toHaveLength(0);
  });
});
