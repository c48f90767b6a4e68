import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@contest/shared';
import { loginRecords } from '../../db/schema.js';
import { hashPassword } from '../../lib/password.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

// One thread, no line: a sign-in is admitted only while the thread is free.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PASSWORD_THREADS: '1', PASSWORD_MAX_WAITING: '0' });
});
afterAll(async () => t?.close());

const signIn = () => t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'nobody1', password: 'Admin@2025' } });
const attemptsRecorded = async () => (await t.database.db.select().from(loginRecords).where(eq(loginRecords.identifier, 'nobody1'))).length;

describe('sign-in bursts (docs/performance.md, "Sign-in bursts")', { timeout: 60_000 }, () => {
  it('a sign-in that finds the password threads busy is refused at once with 503 BUSY and Retry-After, nothing recorded; later it is checked', async () => {
    const before = await attemptsRecorded();
    // An administrator's batch holds the one thread (about 30 ms a hash) for the whole attempt.
    const batch = Promise.all(Array.from({ length: 40 }, (_, i) => hashPassword(`Bulk@20${i}`, { bulk: true })));
    const refused = await signIn();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: MSG.busy, data: { reason: 'BUSY', retryAfterSeconds: 2 } });
    // Refused at the door: no attempt was counted (no failure toward the lock, no captcha demanded next).
    expect(await attemptsRecorded()).toBe(before);

    await batch;
    // Admitted now: the attempt is checked (an unknown name, answered as a wrong password) and recorded.
    const checked = await signIn();
    expect(checked.json()).toMatchObject({ status: 400, message: '用户名或密码错误' });
    expect(await attemptsRecorded()).toBe(before + 1);
  });
});
