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
