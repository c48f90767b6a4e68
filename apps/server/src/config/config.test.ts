import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', databaseUrl: undefined, redisUrl: undefined, logLevel: 'info' });
    expect(c.dataDir).toBe(`${process.cwd()}/data`);
    expect(c.seedAdmin).toEqual({ username: 'admin', password: undefined });
  });

  it('treats empty strings as unset', () => {
    const c = loadConfig({ DATABASE_URL: '', REDIS_URL: ' ', PUBLIC_URL: '' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.publicUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT .*\(got "abc"\)$/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must start with postgres:\/\//],
    [{ REDIS_URL: 'http://x' }, /^Invalid configuration: REDIS_URL must start with redis:\/\//],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL/],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL/],
    [{ SEED_ADMIN_USERNAME: 'Admin!' }, /^Invalid configuration: SEED_ADMIN_USERNAME must be 4-20 lowercase/],
    [{ SEED_ADMIN_PASSWORD: 'short' }, /^Invalid configuration: SEED_ADMIN_PASSWORD must be 8-16/],
  ])('rejects %o with one clear line', (env, pattern) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(pattern);
    expect(message).not.toContain('\n');
  });

  it('never echoes a password or URL value in the message', () => {
    expect(() => loadConfig({ SEED_ADMIN_PASSWORD: 'secretpw' })).toThrow(/^(?!.*secretpw)/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:pw@host' })).toThrow(/^(?!.*pw@host)/);
  });

  it('a bad value stops the server process with that one line', () => {
    const server = fileURLToPath(new URL('../server.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', server], {
      env: { ...process.env, PORT: 'abc', DATABASE_URL: 'memory://' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")');
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    // `true` once meant "trust every X-Forwarded-For entry"; it now means the one proxy in front.
    ['true', 1],
    ['1', 1],
    ['2', 2],
    [' 10.0.0.1 ', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1,::1,fd00::/8', ['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8']],
    ['loopback, 172.16.0.0/12', ['loopback', '172.16.0.0/12']],
  ])('reads %s as %o', (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '-1', '1.5', '11', '10.0.0.300', '10.0.0.0/33', 'example.com', '10.0.0.1,,'])('refuses %s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^Invalid configuration: TRUST_PROXY must be/);
  });
});

describe('loadConfig: SMTP', () => {
  it('has no SMTP without SMTP_HOST (mail goes to the log outbox)', () => {
    expect(loadConfig({}).email).toEqual({ smtp: null, from: 'noreply@localhost' });
    expect(loadConfig({ SMTP_FROM: '大赛组委会 <noreply@contest.cn>' }).email).toEqual({ smtp: null, from: '大赛组委会 <noreply@contest.cn>' });
  });

  it('reads host, port, TLS, credentials and sender', () => {
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'noreply@example.com' }).email.smtp).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      user: undefined,
      password: undefined,
    });
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.cn', SMTP_PORT: '465' }).email.smtp).toMatchObject({ port: 465, secure: true });
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.cn', SMTP_SECURE: 'true' }).email.smtp).toMatchObject({ port: 465, secure: true });
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'a@b.cn', SMTP_PORT: '2525', SMTP_SECURE: 'false' }).email.smtp).toMatchObject({ port: 2525, secure: false });
    expect(
      loadConfig({ SMTP_HOST: '127.0.0.1', SMTP_FROM: 'Contest <a@b.cn>', SMTP_USER: 'mailer', SMTP_PASSWORD: 'pw' }).email,
    ).toEqual({ smtp: { host: '127.0.0.1', port: 587, secure: false, user: 'mailer', password: 'pw' }, from: 'Contest <a@b.cn>' });
  });

  it.each([
    [{ SMTP_HOST: 'smtp.example.com' }, /^Invalid configuration: SMTP_FROM is required when SMTP_HOST is set$/],
    [{ SMTP_HOST: 'smtp example', SMTP_FROM: 'a@b.cn' }, /^Invalid configuration: SMTP_HOST must be a host name or address/],
    [{ SMTP_PORT: '0' }, /^Invalid configuration: SMTP_PORT must be an integer from 1 to 65535 \(got "0"\)$/],
    [{ SMTP_PORT: 'abc' }, /^Invalid configuration: SMTP_PORT must be an integer from 1 to 65535/],
    [{ SMTP_FROM: 'not an address' }, /^Invalid configuration: SMTP_FROM must be an address, or a name and <address>/],
    [{ SMTP_SECURE: 'yes' }, /^Invalid configuration: SMTP_SECURE/],
    [{ SMTP_USER: 'mailer' }, /^Invalid configuration: SMTP_PASSWORD is required when SMTP_USER is set$/],
    [{ SMTP_PASSWORD: 'pw' }, /^Invalid configuration: SMTP_USER is required when SMTP_PASSWORD is set$/],
  ])('rejects %o with one clear line', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(pattern);
  });

  it('never echoes the SMTP password', () => {
    expect(() => loadConfig({ SMTP_USER: 'u', SMTP_PASSWORD: 's3cret-pw', SMTP_PORT: 'x' })).toThrow(/^(?!.*s3cret-pw)/);
  });
});

describe('loadConfig: DATABASE_POOL_MAX', () => {
  it('is 10 by default and takes 1-100', () => {
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: '20' }).databasePoolMax).toBe(20);
    for (const bad of ['0', '101', '2.5', 'many']) {
      expect(() => loadConfig({ DATABASE_POOL_MAX: bad })).toThrow(`Invalid configuration: DATABASE_POOL_MAX must be an integer from 1 to 100 (got "${bad}")`);
    }
  });
});
