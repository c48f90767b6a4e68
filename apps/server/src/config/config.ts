import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The only module that reads process.env. Everything else receives a validated `AppConfig`,
 * so a bad value fails once, at start, with one line naming the variable.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** `noreply@example.com` or `大赛组委会 <noreply@example.com>`. */
const SMTP_FROM_PATTERN = /^([^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_PROXY_HOPS = 10;
const TRUST_PROXY_RULE = `must be false, a number of proxies (1-${MAX_PROXY_HOPS}) or a comma-separated list of proxy addresses/CIDRs`;

/** An address, a CIDR block (a.b.c.d/n, x::/n) or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For entries to believe (Fastify's trustProxy). Never "all of them": the
 * left-most entries are whatever the client sent. A number trusts that many proxies in front of
 * the server (the client is the entry the outermost one appended); a list trusts those proxy
 * addresses only. `true` (the old flag) means one proxy.
 */
const trustProxySchema = z
  .string()
  .trim()
  .default('false')
  .transform((v, ctx): false | number | string[] => {
    if (v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') return 1;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops >= 1 && hops <= MAX_PROXY_HOPS) return hops;
    } else {
      const list = v.split(',').map((e) => e.trim());
      if (list.every(isProxyAddress)) return list;
    }
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_RULE });
    return z.NEVER;
  });

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
  // PostgreSQL connections per instance: the hot calls are a few short statements each, so more
  // connections than the database's cores mostly add contention (docs/performance.md).
  DATABASE_POOL_MAX: z.coerce
    .number({ error: 'must be an integer from 1 to 100' })
    .int({ error: 'must be an integer from 1 to 100' })
    .min(1, { error: 'must be an integer from 1 to 100' })
    .max(100, { error: 'must be an integer from 1 to 100' })
    .default(10),
  REDIS_URL: optionalString.pipe(
    z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  ),
  REDIS_PREFIX: z.string().trim().min(1).default('contest:'),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TRUST_PROXY: trustProxySchema,
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
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
  SMS_PROVIDER: z.enum(['log', 'tencent']).default('log'),
  SMS_DAILY_LIMIT_PER_PHONE: z.coerce.number().int().min(1).default(10),
  SMS_DAILY_LIMIT_PER_IP: z.coerce.number().int().min(1).default(300),
  SMS_TENCENT_SECRET_ID: optionalString,
  SMS_TENCENT_SECRET_KEY: optionalString,
  SMS_TENCENT_SDK_APP_ID: optionalString,
  SMS_TENCENT_SIGN_NAME: optionalString,
  SMS_TENCENT_TEMPLATE_ID: optionalString,
  SMS_TENCENT_REGION: z.string().trim().min(1).default('ap-guangzhou'),
  SMS_TENCENT_ENDPOINT: z.url().default('https://sms.tencentcloudapi.com'),
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: optionalString.pipe(z.url().regex(/^https?:\/\//, 'must start with http:// or https://').optional()),
  S3_BUCKET: optionalString.pipe(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name').optional()),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  S3_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^([a-z0-9_-]+\/)*$/, 'must be empty or lowercase segments each ending with /')
    .default(''),
  // Presigned download links (302 from /attachment/stream with ?redirect=1): short, as they
  // cannot be revoked; the access check runs again for every new link.
  S3_PRESIGN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  // The store as browsers reach it, when S3_ENDPOINT is an internal address (http://minio:9000).
  S3_PUBLIC_ENDPOINT: optionalString.pipe(z.url().regex(/^https?:\/\//, 'must start with http:// or https://').optional()),
  FILE_LINK_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  FILE_LINK_TTL_SECONDS: z.coerce.number().int().min(30).max(24 * 3600).default(900),
  // Piece requests one instance takes at once (each holds up to 5 MB of disk writes and a socket);
  // beyond it a piece is answered 429 with Retry-After before its body is read.
  UPLOAD_MAX_PIECES_IN_FLIGHT: z.coerce
    .number({ error: 'must be an integer from 1 to 1000' })
    .int({ error: 'must be an integer from 1 to 1000' })
    .min(1, { error: 'must be an integer from 1 to 1000' })
    .max(1000, { error: 'must be an integer from 1 to 1000' })
    .default(16),
  // Pieces beyond that wait, unread, in a line of this many for up to 30 s before a 429 (0: refuse at once).
  UPLOAD_MAX_PIECES_WAITING: z.coerce
    .number({ error: 'must be an integer from 0 to 10000' })
    .int({ error: 'must be an integer from 0 to 10000' })
    .min(0, { error: 'must be an integer from 0 to 10000' })
    .max(10000, { error: 'must be an integer from 0 to 10000' })
    .default(4096),
  // Password hashes computed at once, each on its own thread (docs/performance.md, "Sign-in bursts").
  PASSWORD_THREADS: z.coerce
    .number({ error: 'must be an integer from 1 to 64' })
    .int({ error: 'must be an integer from 1 to 64' })
    .min(1, { error: 'must be an integer from 1 to 64' })
    .max(64, { error: 'must be an integer from 1 to 64' })
    .optional(),
  // Sign-ins that may wait for a thread; one more is answered 503 BUSY with Retry-After at once.
  PASSWORD_MAX_WAITING: z.coerce
    .number({ error: 'must be an integer from 0 to 10000' })
    .int({ error: 'must be an integer from 0 to 10000' })
    .min(0, { error: 'must be an integer from 0 to 10000' })
    .max(10000, { error: 'must be an integer from 0 to 10000' })
    .default(32),
  SMTP_HOST: optionalString.pipe(z.string().regex(/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'must be a host name or address').optional()),
  SMTP_PORT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be an integer from 1 to 65535' })
      .int({ error: 'must be an integer from 1 to 65535' })
      .min(1, { error: 'must be an integer from 1 to 65535' })
      .max(65535, { error: 'must be an integer from 1 to 65535' })
      .optional(),
  ),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_FROM: optionalString.pipe(z.string().regex(SMTP_FROM_PATTERN, 'must be an address, or a name and <address>').optional()),
  SMTP_SECURE: z.enum(['true', 'false', '1', '0', '']).default(''),
}).superRefine((e, ctx) => {
  if (e.SMTP_HOST && !e.SMTP_FROM) ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required when SMTP_HOST is set' });
  if (e.SMTP_PASSWORD && !e.SMTP_USER) ctx.addIssue({ code: 'custom', path: ['SMTP_USER'], message: 'is required when SMTP_PASSWORD is set' });
  if (e.SMTP_USER && !e.SMTP_PASSWORD) ctx.addIssue({ code: 'custom', path: ['SMTP_PASSWORD'], message: 'is required when SMTP_USER is set' });
  if (e.STORAGE_DRIVER === 's3') {
    for (const key of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when STORAGE_DRIVER=s3' });
    }
  }
  if (e.SMS_PROVIDER !== 'tencent') return;
  for (const key of ['SMS_TENCENT_SECRET_ID', 'SMS_TENCENT_SECRET_KEY', 'SMS_TENCENT_SDK_APP_ID', 'SMS_TENCENT_SIGN_NAME', 'SMS_TENCENT_TEMPLATE_ID'] as const) {
    if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when SMS_PROVIDER=tencent' });
  }
});

export type Env = z.input<typeof envSchema>;

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** undefined = embedded PGlite under dataDir; 'memory://' = in-memory PGlite (tests). */
  databaseUrl: string | undefined;
  /** PostgreSQL pool size (DATABASE_POOL_MAX, default 10); unused with the embedded database. */
  databasePoolMax: number;
  redisUrl: string | undefined;
  redisPrefix: string;
  publicUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** false: the socket's address; n: n proxies in front; a list: those proxy addresses/CIDRs. */
  trustProxy: false | number | string[];
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  /** API calls a minute per signed-in session (docs/security.md, "Limits behind one address"). */
  rateLimitPerAccountPerMinute: number;
  /** Built web app to serve; undefined = the workspace's apps/web/dist. */
  webDistDir: string | undefined;
  seedAdmin: { username: string; password: string | undefined };
  shutdownTimeoutMs: number;
  sms: {
    provider: 'log' | 'tencent';
    dailyLimitPerPhone: number;
    dailyLimitPerIp: number;
    tencent: {
      secretId: string;
      secretKey: string;
      sdkAppId: string;
      signName: string;
      templateId: string;
      region: string;
      endpoint: string;
    } | null;
  };
  files: {
    storage: DiskStorageConfig | S3StorageConfig;
    /** Key of the signed file links; undefined = a random key per process (links die with it). */
    linkSecret: string | undefined;
    linkTtlSeconds: number;
    /** Piece requests admitted at once per instance (UPLOAD_MAX_PIECES_IN_FLIGHT); more wait in line. */
    maxPiecesInFlight: number;
    /** Piece requests that may wait, unread, for a place (UPLOAD_MAX_PIECES_WAITING); more get 429 + Retry-After. */
    maxPiecesWaiting: number;
  };
  /** The password pool (PASSWORD_THREADS, default one less than the cores, 1 to 4; PASSWORD_MAX_WAITING, default 32). */
  passwords: { threads: number; maxWaiting: number };
  email: {
    /** null: no SMTP_HOST, mails are written to DATA_DIR/email-outbox.jsonl (the log provider). */
    smtp: SmtpConfig | null;
    /** The From header (SMTP_FROM; a placeholder for the log provider when unset). */
    from: string;
  };
}

export interface SmtpConfig {
  host: string;
  /** SMTP_PORT, else 465 with SMTP_SECURE, else 587. */
  port: number;
  /** TLS from the first byte (SMTPS, port 465); false = plain, upgraded by STARTTLS when offered. */
  secure: boolean;
  /** Both or neither (AUTH only when set). */
  user: string | undefined;
  password: string | undefined;
}

export interface DiskStorageConfig {
  driver: 'disk';
  /** DATA_DIR/files */
  dir: string;
}

export interface S3StorageConfig {
  driver: 's3';
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** https://endpoint/bucket/key rather than https://bucket.endpoint/key (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Prepended to every object key, e.g. `contest/`. */
  keyPrefix: string;
  /** Lifetime of presigned GET links (S3_PRESIGN_TTL_SECONDS, 300 by default). */
  presignExpiresSeconds?: number;
  /** Origin (and base path) of presigned links, when browsers reach the store elsewhere than `endpoint`. */
  publicEndpoint?: string;
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
    const shown = key in env && !/PASSWORD|URL|SECRET/.test(key) ? ` (got "${env[key]}")` : '';
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
    databasePoolMax: e.DATABASE_POOL_MAX,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitPerAccountPerMinute: e.RATE_LIMIT_PER_ACCOUNT_PER_MINUTE,
    webDistDir: e.WEB_DIST_DIR ? absolute(e.WEB_DIST_DIR) : undefined,
    seedAdmin: { username: e.SEED_ADMIN_USERNAME, password: e.SEED_ADMIN_PASSWORD },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sms: {
      provider: e.SMS_PROVIDER,
      dailyLimitPerPhone: e.SMS_DAILY_LIMIT_PER_PHONE,
      dailyLimitPerIp: e.SMS_DAILY_LIMIT_PER_IP,
      tencent:
        e.SMS_PROVIDER === 'tencent'
          ? {
              secretId: e.SMS_TENCENT_SECRET_ID!,
              secretKey: e.SMS_TENCENT_SECRET_KEY!,
              sdkAppId: e.SMS_TENCENT_SDK_APP_ID!,
              signName: e.SMS_TENCENT_SIGN_NAME!,
              templateId: e.SMS_TENCENT_TEMPLATE_ID!,
              region: e.SMS_TENCENT_REGION,
              endpoint: e.SMS_TENCENT_ENDPOINT,
            }
          : null,
    },
    files: {
      storage:
        e.STORAGE_DRIVER === 's3'
          ? {
              driver: 's3',
              endpoint: e.S3_ENDPOINT!,
              bucket: e.S3_BUCKET!,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID!,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              keyPrefix: e.S3_KEY_PREFIX,
              presignExpiresSeconds: e.S3_PRESIGN_TTL_SECONDS,
              publicEndpoint: e.S3_PUBLIC_ENDPOINT,
            }
          : { driver: 'disk', dir: resolve(absolute(e.DATA_DIR), 'files') },
      linkSecret: e.FILE_LINK_SECRET,
      linkTtlSeconds: e.FILE_LINK_TTL_SECONDS,
      maxPiecesInFlight: e.UPLOAD_MAX_PIECES_IN_FLIGHT,
      maxPiecesWaiting: e.UPLOAD_MAX_PIECES_WAITING,
    },
    passwords: {
      // The event loop keeps a core of its own; more threads than cores only make each hash slower.
      threads: e.PASSWORD_THREADS ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
      maxWaiting: e.PASSWORD_MAX_WAITING,
    },
    email: {
      smtp: e.SMTP_HOST ? smtpOf(e.SMTP_HOST, e.SMTP_PORT, e.SMTP_SECURE, e.SMTP_USER, e.SMTP_PASSWORD) : null,
      from: e.SMTP_FROM ?? 'noreply@localhost',
    },
  };
}

function smtpOf(host: string, port: number | undefined, secureFlag: string, user: string | undefined, password: string | undefined): SmtpConfig {
  // Unset SMTP_SECURE follows the port: 465 is SMTPS, anything else starts plain (STARTTLS).
  const secure = secureFlag === '' ? port === 465 : secureFlag === 'true' || secureFlag === '1';
  return { host, port: port ?? (secure ? 465 : 587), secure, user, password };
}
