import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BroadcastSent } from '@contest/shared';
import { messageBatches } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(async () => t?.close());

/** The app as app.ts builds it: the send's job runs on the app's own runner, kicked by the send. */
describe('bulk sends in the whole app', () => {
  it('an in-site send reaches the inbox without anyone driving the runner', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const reader = await signIn(t, { realm: 'USER' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/broadcast/insite/send',
      headers: admin.headers,
      payload: { segment: { kind: 'ACCOUNTS', values: [reader.accountId] }, title: '全体通知', body: '正文' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { batchId } = res.json().data as BroadcastSent;
    const deadline = Date.now() + 15_000;
    let status = '';
    while (Date.now() < deadline) {
      status = (await t.database.db.select({ status: messageBatches.status }).from(messageBatches).where(eq(messageBatches.id, batchId)))[0]!.status;
      if (status === 'DONE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('DONE');
    const summary = await t.app.inject({ method: 'GET', url: '/api/messages/summary', headers: reader.headers });
    expect(summary.json().data.unreadCount).toBe(1);
  });
});
