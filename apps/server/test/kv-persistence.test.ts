import { afterAll, describe, expect, it } from 'vitest';
import { SMS_MSG } from '../src/modules/sms/sms.service.js';
import { buildApp } from '../src/app.js';
import { loadTestConfig } from '../src/config/test-config.js';
import { createTestDatabase } from './helpers.js';

/**
 * Without Redis, the SMS waits and daily caps live in the database (kv_store): an app rebuilt on
 * the same data, as after a restart, still enforces them.
 */
describe('short-lived state without Redis', () => {
  const config = loadTestConfig({ REDIS_URL: '', SMS_DAILY_LIMIT_PER_IP: '1' });
  const dropping: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of dropping) await drop();
  });

  it('keeps the 60 s wait and the daily cap across a restart', async () => {
    const { database, drop } = await createTestDatabase(config, { migrated: true });
    dropping.push(drop);
    const send = (app: Awaited<ReturnType<typeof buildApp>>, phone: string) =>
      app.inject({ method: 'POST', url: '/api/login/send/sms', payload: { phone, smsKey: 'REGISTER_VERIFY_KEY' }, remoteAddress: '10.77.0.1' });

    const first = await buildApp(config, { database });
    expect((await send(first, '13911110001')).json()).toMatchObject({ status: 200 });
    await first.close();

    const second = await buildApp(config, { database });
    try {
      // The same phone within the minute: still waiting.
      expect((await send(second, '13911110001')).json()).toMatchObject({ status: 400, message: SMS_MSG.tooFrequent });
      // Another phone from the same address: that address's one SMS of the day is spent.
      expect((await send(second, '13911110002')).json()).toMatchObject({ status: 429, message: SMS_MSG.dailyLimit });
    } finally {
      await second.close();
    }
  }, 60_000);
});
