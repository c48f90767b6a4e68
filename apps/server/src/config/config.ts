import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The only module that reads process.env. Everything else receives a validated `AppConfig`,
 * so a bad value fails once, at start, with one line naming the variable.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce
    .number({ error: 'must be an integer from 0 to 65535' })
    .int({ error: 'must be an integer from 0 to 65535' })
    .min(0, { error: 'must be an integer from 0 to 65535' })
    .max(65535, { error: 'must be an integer from 0 to 65535' })
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(postgres(ql)?:\/\/|memory:\/\/$)/, 'must start with postgres:// or be memory://')
      .optional(),
  ),
  REDIS_URL: optionalString.pipe(
    z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  ),
  REDIS_PREFIX: z.string().trim().min(1).default('contest:'),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  WEB_DIST_DIR: optionalString,
  SEED_ADMIN_USERNAME: z
    .string()
    .trim()
    .regex(/^[a-z0-9]{4,20}$/, 'must be 4-20 lowercase letters or digits')
    .default('admin'),
  SEED_ADMIN_PASSWORD: optionalString.pipe(
    z
      .string()
      .regex(
        /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,16}$/,
        'must be 8-16 characters with a letter, a digit and one of @$!%*?&',
      )
      .optional(),
  ),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Env = z.input<typeof envSchema>;

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** undefined = embedded PGlite under dataDir; 'memory://' = in-memory PGlite (tests). */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  publicUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  trustProxy: boolean;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  /** Built web app to serve; undefined = the workspace's apps/web/dist. */
  webDistDir: string | undefined;
  seedAdmin: { username: string; password: string | undefined };
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads ./.env into process.env when present; real environment variables win. */
export function loadDotEnv(path = resolve(process.cwd(), '.env')): void {
  if (!existsSync(path)) return;
  const before = { ...process.env };
  process.loadEnvFile(path);
  Object.assign(process.env, before);
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? 'environment');
    const shown = key in env && !/PASSWORD|URL/.test(key) ? ` (got "${env[key]}")` : '';
    throw new ConfigError(`Invalid configuration: ${key} ${issue.message}${shown}`);
  }
  const e = parsed.data;
  const absolute = (p: string) => (isAbsolute(p) ? p : resolve(process.cwd(), p));
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: absolute(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    webDistDir: e.WEB_DIST_DIR ? absolute(e.WEB_DIST_DIR) : undefined,
    seedAdmin: { username: e.SEED_ADMIN_USERNAME, password: e.SEED_ADMIN_PASSWORD },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
