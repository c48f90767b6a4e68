import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PER_IP_MIN, SETTINGS_KEYS } from '@contest/shared';
import { trustProxyOf } from '../app.js';
import { settings } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { ok } from './envelope.js';

/**
 * Behind one reverse proxy (TRUST_PROXY=1) the client address is the X-Forwarded-For entry that
 * proxy appended (the right-most): whatever a client puts in front of it is ignored.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: '1' });
  // The login ceiling per address at its lowest, so the test passes it quickly.
  await t.database.db
    .insert(settings)
    .values({ key: SETTINGS_KEYS.loginPerIpPerMinute, value: LOGIN_PER_IP_MIN })
    .onConflictDoUpdate({ target: settings.key, set: { value: LOGIN_PER_IP_MIN } });
  t.app.get('/api/_probe/ip', async (request) => ok({ ip: request.ip, ips: request.ips }));
});

afterAll(async () => {
  await t.close();
});

const PROXY = '127.0.0.1';

describe('TRUST_PROXY as a hop count', () => {
  it('takes the address the proxy appended, not the one the client wrote', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/_probe/ip',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' },
    });
    expect(res.json().data.ip).toBe('203.0.113.7');
  });

  it('takes the only entry when the client sent none', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/ip', remoteAddress: PROXY, headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(res.json().data.ip).toBe('203.0.113.8');
  });

  it('does not let a client dodge the login limit by rotating forged entries', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_PER_IP_MIN; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.9` },
        payload: {},
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    // Another real client behind the same proxy is not affected.
    const other = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: PROXY, headers: { 'x-forwarded-for': '203.0.113.10' }, payload: {} });
    expect(other.statusCode).not.toBe(429);
  });
});

describe('TRUST_PROXY as proxy addresses', () => {
  it('believes X-Forwarded-For only from a listed proxy, and only the entry that proxy added', async () => {
    const app = Fastify({ trustProxy: trustProxyOf(['10.0.0.0/8']) });
    app.get('/', async (request) => ({ ip: request.ip }));
    const ipOf = async (remoteAddress: string, xff: string) =>
      (await app.inject({ url: '/', remoteAddress, headers: { 'x-forwarded-for': xff } })).json().ip;
    expect(await ipOf('10.0.0.5', '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    // Two listed proxies in a row: the client is the first address that is not a proxy.
    expect(await ipOf('10.0.0.5', '6.6.6.6, 203.0.113.7, 10.1.1.1')).toBe('203.0.113.7');
    // A client reaching the server directly cannot name itself.
    expect(await ipOf('198.51.100.4', '203.0.113.7')).toBe('198.51.100.4');
    await app.close();
  });
});
