import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../src/app.js';
import { loadTestConfig } from '../src/config/test-config.js';
import { createTestDatabase } from './helpers.js';
import { signIn, TEST_PASSWORD } from './sign-in.js';
import type { TestApp } from './helpers.js';

/**
 * The production logger at its most verbose level, writing into memory: the secrets a request
 * carries (bearer token, password, SMS code) never reach a log line, whatever logs them.
 */
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  const config = loadTestConfig({ LOG_LEVEL: 'trace' });
  const { database, drop } = await createTestDatabase(config, { migrated: true });
  closeDb = drop;
  const app = await buildApp(config, { database, logger: { ...loggerOptions(config), stream: sink } });
  t = { app, config, database, close: async () => app.close() };
});

afterAll(async () => {
  await t.close();
  await closeDb();
});

describe('log redaction', () => {
  it('logs requests at trace level without the token, the password or the SMS code', async () => {
    const user = await signIn(t, { realm: 'USER' });
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: '/api/user/account', headers: user.headers });
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.username, password: TEST_PASSWORD, imageKey: 'x' } });
    await t.app.inject({ method: 'POST', url: '/api/login/sms', payload: { phone: '13900000000', smsCode: '654321' } });
    // What a handler or an error path might log: the request's headers, a body, a row.
    t.app.log.info({ req: { headers: { authorization: user.headers.authorization, cookie: 'AccessToken=secret-cookie' } } }, 'headers');
    t.app.log.warn({ body: { password: 'Leak@2025x', smsCode: '987654' }, row: { passwordHash: '$argon2id$leak' } }, 'body');

    expect(lines.length).toBeGreaterThan(4);
    const log = lines.join('\n');
    expect(log).not.toContain(user.token);
    for (const secret of [TEST_PASSWORD, '654321', 'secret-cookie', 'Leak@2025x', '987654', '$argon2id$leak']) expect(log).not.toContain(secret);
    expect(log).toContain('[redacted]');
    // The lines are still useful: method, url and status are there.
    expect(log).toMatch(/"url":"\/api\/user\/account"/);
    expect(log).toMatch(/"statusCode":200/);
  });
});
