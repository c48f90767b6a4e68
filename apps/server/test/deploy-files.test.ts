import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import * as shared from '@contest/shared';
import { loadConfig } from '../src/config/config.js';
import { healthRoutes } from '../src/modules/health/health.routes.js';

/**
 * The deployment files (Dockerfile, deploy/*, docs/deploy.md) checked without Docker, nginx or
 * systemd: CI cannot pull images. They must name only variables the server reads, pass its
 * validation, let the largest upload through nginx and point the health check at a real route.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// ---- What the server knows ------------------------------------------------------------------

/**
 * The variables config.ts reads: the keys of its envSchema object (two-space indented
 * `NAME:` lines between `const envSchema = z.object({` and its closing `})`). Read from the source,
 * since the schema itself is private to config.ts.
 */
function configKeys(): Set<string> {
  const source = read('apps/server/src/config/config.ts');
  const start = source.indexOf('const envSchema = z.object({');
  const end = source.indexOf('\n})', start);
  expect(start, 'envSchema not found in config.ts').toBeGreaterThan(0);
  const keys = [...source.slice(start, end).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  return new Set(keys);
}
const CONFIG_KEYS = configKeys();

/** Multipart framing and the text fields around the file part. */
const MULTIPART_MARGIN = 64 * 1024;

/** The largest request body the server accepts on any route, in bytes. */
function largestAcceptedBody(): number {
  const speedMax = (shared as Record<string, unknown>).SPEED_MAX_BYTES;
  return Math.max(
    shared.UPLOAD_PIECE_SIZE + MULTIPART_MARGIN,
    shared.SINGLE_UPLOAD_MAX_BYTES + MULTIPART_MARGIN,
    typeof speedMax === 'number' ? speedMax : 0,
    loadConfig({}).bodyLimitBytes,
  );
}

// ---- Compose interpolation ------------------------------------------------------------------

class MissingVariables extends Error {}

/**
 * Docker Compose's substitution: `$$` is a literal `$`; `${X:-d}` d when unset or empty, `${X-d}`
 * when unset; `${X:?e}` an error when unset or empty, `${X?e}` when unset; `${X}`/`$X` the value
 * or empty. Returns the substituted text and records every name referenced.
 */
function interpolate(text: string, vars: Record<string, string | undefined>, referenced: Set<string>, missing: Set<string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
      if (match === '$$') return '$';
      const name = (braced ?? bare)!;
      referenced.add(name);
      const value = vars[name];
      if (!op) return value ?? '';
      const unset = value === undefined || (op.startsWith(':') && value === '');
      if (op.endsWith('-')) return unset ? arg! : value!;
      if (unset) missing.add(name);
      return value ?? '';
    },
  );
}

function resolveCompose(doc: unknown, vars: Record<string, string | undefined>) {
  const referenced = new Set<string>();
  const missing = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return interpolate(node, vars, referenced, missing);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  const resolved = walk(doc) as ComposeFile;
  if (missing.size > 0) throw new MissingVariables([...missing].sort().join(','));
  return { resolved, referenced };
}

interface ComposeService {
  image?: string;
  build?: unknown;
  hostname?: string;
  init?: boolean;
  restart?: string;
  ports?: unknown[];
  volumes?: string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }> | string[];
  command?: unknown;
  healthcheck?: { disable?: boolean };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const APP_SERVICES = ['app1', 'app2'];
const composeDoc = parseYaml(read('deploy/compose.yaml'), { merge: true }) as ComposeFile;
const envExample = parseEnv(read('deploy/.env.example'));

/** Stand-ins for the secrets .env.example leaves empty (the operator's job), valid for config.ts. */
const SECRETS: Record<string, string> = {
  PUBLIC_URL: 'https://portal.example.org',
  POSTGRES_PASSWORD: 'a1'.repeat(24),
  REDIS_PASSWORD: 'b2'.repeat(24),
  MINIO_ROOT_PASSWORD: 'c3'.repeat(24),
  S3_SECRET_ACCESS_KEY: 'd4'.repeat(24),
  FILE_LINK_SECRET: 'e5'.repeat(32),
};
const filledEnv = { ...envExample, ...SECRETS };

function appEnvironment(service: ComposeService): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

// ---- Parsers for the other files ------------------------------------------------------------

/** Dockerfile instructions (continuations joined, comments dropped), grouped by stage. */
function dockerStages(text: string): Array<{ from: string; name: string | undefined; lines: string[] }> {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const args = new Map<string, string>();
  const stages: Array<{ from: string; name: string | undefined; lines: string[] }> = [];
  for (const line of joined.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const arg = /^ARG\s+(\w+)=(\S+)/.exec(line);
    if (arg && stages.length === 0) args.set(arg[1]!, arg[2]!);
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      const image = from[1]!.replace(/\$\{(\w+)\}/g, (_, n: string) => args.get(n) ?? '');
      stages.push({ from: image, name: from[2], lines: [] });
    } else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** `KEY=value` pairs of a Dockerfile ENV line (several per line, the modern form). */
function dockerEnv(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines.filter((l) => l.startsWith('ENV '))) {
    for (const m of line.slice(4).matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[m[1]!] = m[2]!.replace(/^"|"$/g, '');
  }
  return out;
}

/** A systemd unit's `Key=value` lines of one section, in order (a key may repeat). */
function unitSection(text: string, section: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) current = header[1]!;
    else if (current === section) {
      const at = line.indexOf('=');
      out.push([line.slice(0, at), line.slice(at + 1)]);
    }
  }
  return out;
}

/** nginx sizes: 25m, 512k, 1g, or bytes. */
function nginxBytes(size: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!m) throw new Error(`not an nginx size: ${size}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * unit;
}

/** nginx.conf without comments. */
const nginxConf = read('deploy/nginx.conf')
  .split('\n')
  .map((line) => line.replace(/#.*$/, ''))
  .join('\n');

/** The body of the block opened by `opener` (brace matching). */
function nginxBlock(opener: RegExp): string {
  const m = opener.exec(nginxConf);
  if (!m) throw new Error(`no block ${opener} in nginx.conf`);
  let depth = 0;
  const start = m.index + m[0].length;
  for (let i = start - 1; i < nginxConf.length; i++) {
    if (nginxConf[i] === '{') depth++;
    if (nginxConf[i] === '}' && --depth === 0) return nginxConf.slice(start, i);
  }
  throw new Error(`unclosed block ${opener}`);
}

// ---- Tests ----------------------------------------------------------------------------------

describe('config keys (read from config.ts)', () => {
  it('are found', () => {
    for (const key of ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY', 'STORAGE_DRIVER', 'FILE_LINK_SECRET', 'SMTP_FROM']) {
      expect(CONFIG_KEYS, key).toContain(key);
    }
    expect(CONFIG_KEYS.size).toBeGreaterThan(40);
  });
});

describe('deploy/compose.yaml and deploy/.env.example', () => {
  it('has the services of the production layout', () => {
    const s = composeDoc.services;
    expect(Object.keys(s).sort()).toEqual(['app1', 'app2', 'minio', 'minio-init', 'nginx', 'postgres', 'redis']);
    expect(s.postgres!.image).toMatch(/^postgres:15(\b|-)/);
    expect(s.redis!.image).toMatch(/^redis:7(\b|-)/);
    expect(String(s.minio!.image)).toMatch(/minio\/minio/);
    expect(String(s['minio-init']!.image)).toMatch(/minio\/mc/);
    expect(s['minio-init']!.restart).toBe('no');
    expect(String(s['minio-init']!.command)).toMatch(/mc mb --ignore-existing/);
    expect(String(s.nginx!.volumes)).toMatch(/\.\/nginx\.conf:/);
  });

  it('runs two instances of the image, reachable only through nginx', () => {
    const hostnames = new Set<string>();
    for (const name of APP_SERVICES) {
      const app = composeDoc.services[name]!;
      expect(app.build, name).toMatchObject({ context: '..', dockerfile: 'Dockerfile' });
      expect(app.ports, `${name} must not publish ports (TRUST_PROXY counts on nginx)`).toBeUndefined();
      expect(app.init, name).toBe(true);
      expect(app.healthcheck?.disable, name).not.toBe(true);
      expect(app.volumes, name).toEqual(['app-data:/data']);
      expect(Object.keys(app.depends_on ?? {}).sort(), name).toEqual(['minio-init', 'postgres', 'redis']);
      hostnames.add(app.hostname!);
    }
    // Upload join claims name their holder by host name: instances sharing DATA_DIR need distinct ones.
    expect(hostnames.size).toBe(APP_SERVICES.length);
  });

  it('gives the app only variables config.ts reads', () => {
    for (const name of APP_SERVICES) {
      const unknown = Object.keys(composeDoc.services[name]!.environment ?? {}).filter((k) => !CONFIG_KEYS.has(k));
      expect(unknown, `${name}: not read by config.ts`).toEqual([]);
    }
  });

  it('documents every variable it substitutes in .env.example, and uses every one documented', () => {
    const { referenced } = resolveCompose(composeDoc, filledEnv);
    expect([...referenced].filter((name) => !(name in envExample)), 'substituted but not in .env.example').toEqual([]);
    expect(Object.keys(envExample).filter((name) => !referenced.has(name)), 'in .env.example but never used').toEqual([]);
    // A portal setting in .env.example must reach the app, not only another service.
    const appReferenced = new Set<string>();
    interpolate(JSON.stringify(composeDoc.services.app1!.environment), filledEnv, appReferenced, new Set());
    const portalKeys = Object.keys(envExample).filter((k) => CONFIG_KEYS.has(k));
    expect(portalKeys.filter((k) => !appReferenced.has(k)), 'portal settings that never reach the app').toEqual([]);
  });

  it('refuses to start until the secrets are set', () => {
    let error: unknown;
    try {
      resolveCompose(composeDoc, envExample);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MissingVariables);
    expect((error as Error).message.split(',')).toEqual(Object.keys(SECRETS).sort());
  });

  it('gives each instance settings that pass config.ts: PostgreSQL, Redis, S3, one trusted proxy, a shared link key', () => {
    const { resolved } = resolveCompose(composeDoc, filledEnv);
    for (const name of APP_SERVICES) {
      const env = appEnvironment(resolved.services[name]!);
      const config = loadConfig(env);
      expect(config.env).toBe('production');
      expect(config.databaseUrl).toBe(`postgres://contest:${SECRETS.POSTGRES_PASSWORD}@postgres:5432/contest`);
      expect(config.redisUrl).toBe(`redis://:${SECRETS.REDIS_PASSWORD}@redis:6379`);
      expect(config.trustProxy).toBe(1);
      expect(config.files.linkSecret).toBe(SECRETS.FILE_LINK_SECRET);
      expect(config.files.storage).toMatchObject({ driver: 's3', endpoint: 'http://minio:9000', bucket: 'contest', forcePathStyle: true });
      expect(config.dataDir).toBe('/data');
      expect(config.port).toBe(3000);
      // nginx must let the largest JSON body through too.
      expect(config.bodyLimitBytes).toBeLessThanOrEqual(nginxBytes(/client_max_body_size\s+(\S+);/.exec(nginxConf)![1]!));
    }
    // The database, Redis and MinIO the app is given are the ones compose runs.
    expect(resolved.services.postgres!.environment).toMatchObject({ POSTGRES_USER: 'contest', POSTGRES_DB: 'contest', POSTGRES_PASSWORD: SECRETS.POSTGRES_PASSWORD });
    expect(resolved.services.redis!.command).toContain(SECRETS.REDIS_PASSWORD);
    expect(resolved.services['minio-init']!.environment).toMatchObject({ S3_BUCKET: 'contest', S3_ACCESS_KEY_ID: envExample.S3_ACCESS_KEY_ID });
  });
});

describe('deploy/nginx.conf', () => {
  const server = nginxBlock(/\bserver\s*\{/);

  it('lets the largest body the server accepts through', () => {
    const size = /client_max_body_size\s+(\S+);/.exec(server)?.[1];
    expect(size, 'client_max_body_size in the server block').toBeDefined();
    expect(nginxBytes(size!)).toBeGreaterThanOrEqual(largestAcceptedBody());
    // ...but not unlimited: nginx should stop what the server would refuse anyway.
    expect(nginxBytes(size!)).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('balances over both instances on the port they listen on', () => {
    const upstream = nginxBlock(/\bupstream\s+contest_portal\s*\{/);
    const servers = [...upstream.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    const port = loadConfig(appEnvironment(resolveCompose(composeDoc, filledEnv).resolved.services.app1!)).port;
    expect(servers).toEqual(APP_SERVICES.map((name) => `${name}:${port}`));
    // Round-robin: no sticky method.
    expect(upstream).not.toMatch(/\b(ip_hash|hash|sticky)\b/);
    expect(server).toMatch(/proxy_pass\s+http:\/\/contest_portal;/);
  });

  it('streams uploads to the app with long timeouts', () => {
    const uploads = nginxBlock(/location\s+\/api\/attachment\/\s*\{/);
    expect(uploads).toMatch(/proxy_request_buffering\s+off;/);
    expect(uploads).toMatch(/proxy_read_timeout\s+\d{3,}s;/);
    // Every upload route lives under that location.
    const files = read('apps/server/src/modules/files/files.routes.ts');
    for (const route of ['/attachment/piece/upload', '/attachment/upload/public']) expect(files).toContain(`'${route}'`);
    expect(nginxBlock(/location\s+~\s+\^\/api\/admin\/\.\+\/export\$\s*\{/)).toMatch(/proxy_read_timeout\s+\d{3,}s;/);
  });

  it('hands the client address on for TRUST_PROXY=1 and leaves security headers to the app', () => {
    expect(server).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    expect(nginxConf).not.toMatch(/add_header\s+(Content-Security-Policy|Strict-Transport-Security|X-Frame-Options|X-Content-Type-Options|Referrer-Policy)/i);
    expect(server).toMatch(/gzip\s+on;/);
  });
});

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const env = dockerEnv(runtime.lines);

  it('builds in stages and runs on node:20-bookworm-slim with production dependencies only', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    expect(runtime.from).toBe('node:20-bookworm-slim');
    expect(stages[0]!.lines.join('\n')).toMatch(/RUN npm ci\b/);
    expect(stages[1]!.lines.join('\n')).toMatch(/RUN npm run build\b/);
    expect(runtime.lines.join('\n')).toMatch(/npm ci --omit=dev/);
    expect(runtime.lines).toContain('COPY --from=build /app/apps/server/dist apps/server/dist');
    expect(runtime.lines).toContain('COPY --from=build /app/apps/web/dist apps/web/dist');
  });

  it('runs as a user other than root', () => {
    const users = runtime.lines.filter((l) => l.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.slice(5).trim().split(':')[0];
    expect(user).not.toMatch(/^(root|0)$/);
    const cmdAt = runtime.lines.findIndex((l) => l.startsWith('CMD '));
    expect(runtime.lines.lastIndexOf(users.at(-1)!)).toBeLessThan(cmdAt);
  });

  it('starts what `npm run serve` starts, with settings config.ts accepts', () => {
    const serve = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.serve!;
    const cmd = JSON.parse(runtime.lines.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd.join(' ')).toBe(serve);
    expect(Object.keys(env).filter((k) => !CONFIG_KEYS.has(k))).toEqual([]);
    const config = loadConfig(env);
    expect(runtime.lines).toContain(`EXPOSE ${config.port}`);
    expect(runtime.lines.find((l) => l.startsWith('VOLUME '))).toContain(`"${env.DATA_DIR}"`);
  });

  it('keeps secrets, local data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['.git', '**/node_modules', '**/dist', 'data', '.env', '**/.env']) expect(ignored).toContain(entry);
  });

  describe('HEALTHCHECK', () => {
    const healthcheck = runtime.lines.find((l) => l.startsWith('HEALTHCHECK ')) ?? '';
    const path = /https?:\/\/127\.0\.0\.1:'\s*\+[^+]+\+\s*'(\/[^']*)'/.exec(healthcheck)?.[1];

    it('asks a real route, on the port the server listens on', () => {
      expect(path, 'the path of the HEALTHCHECK request').toBeDefined();
      expect(healthcheck).toContain('process.env.PORT');
      expect(healthcheck).toMatch(/r\.ok \?/);
      // docs/openapi.json is generated from the registered routes (npm run api:doc:check keeps it so).
      const openapi = JSON.parse(read('docs/openapi.json')) as { paths: Record<string, Record<string, unknown>> };
      expect(openapi.paths[path!]?.get, `GET ${path} in docs/openapi.json`).toBeDefined();
    });

    it('gets a 2xx from it when healthy and a 503 when the database is down', async () => {
      const probe = async (ping: () => Promise<void>) => {
        const app = Fastify({ logger: false });
        app.decorate('deps', { database: { ping, kind: 'postgres' }, redis: null } as unknown as FastifyInstance['deps']);
        await app.register(healthRoutes, { prefix: shared.API_BASE });
        try {
          return (await app.inject({ method: 'GET', url: path! })).statusCode;
        } finally {
          await app.close();
        }
      };
      expect(await probe(async () => {})).toBe(200);
      expect(await probe(() => Promise.reject(new Error('down')))).toBe(503);
    });
  });
});

describe('deploy/contest-portal.service', () => {
  const unit = read('deploy/contest-portal.service');
  const service = unitSection(unit, 'Service');
  const get = (key: string) => service.filter(([k]) => k === key).map(([, v]) => v);

  it('names only variables config.ts reads, with values it accepts', () => {
    const env: Record<string, string> = {};
    for (const value of get('Environment')) {
      for (const m of value.matchAll(/"([^"]*)"|(\S+)/g)) {
        const pair = m[1] ?? m[2]!;
        const at = pair.indexOf('=');
        env[pair.slice(0, at)] = pair.slice(at + 1);
      }
    }
    expect(Object.keys(env).filter((k) => !CONFIG_KEYS.has(k))).toEqual([]);
    const config = loadConfig(env);
    // The data folder is the one place the sandbox lets it write.
    expect(get('ReadWritePaths').join(' ').split(/\s+/)).toContain(config.dataDir);
    // Reached only through nginx on the same machine.
    expect(config.host).toBe('127.0.0.1');
    expect(get('EnvironmentFile')).toHaveLength(1);
  });

  it('runs the built server as a non-root user, restarted on failure, hardened', () => {
    const serve = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.serve!;
    const [exe, ...args] = get('ExecStart')[0]!.split(/\s+/);
    expect(exe).toMatch(/^\/\S+\/node$/);
    expect(`node ${args.join(' ')}`).toBe(serve);
    expect(get('WorkingDirectory')).toHaveLength(1);
    expect(get('User')[0]).toBeDefined();
    expect(get('User')[0]).not.toMatch(/^(root|0)$/);
    expect(get('Restart')).toEqual(['on-failure']);
    expect(get('NoNewPrivileges')).toEqual(['yes']);
    expect(get('ProtectSystem')).toEqual(['strict']);
    expect(Number(get('LimitNOFILE')[0])).toBeGreaterThanOrEqual(65536);
    // V8's JIT needs writable+executable memory: this option would kill node at start.
    expect(get('MemoryDenyWriteExecute')).not.toContain('yes');
  });
});

describe('docs/deploy.md', () => {
  it('lists exactly the variables config.ts reads', () => {
    const doc = read('docs/deploy.md');
    const section = doc.slice(doc.indexOf('## Environment variables'), doc.indexOf('\n## ', doc.indexOf('## Environment variables') + 1));
    const listed = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
    expect(new Set(listed).size, 'a variable listed twice').toBe(listed.length);
    expect(listed.filter((k) => !CONFIG_KEYS.has(k)), 'listed but not read by config.ts').toEqual([]);
    expect([...CONFIG_KEYS].filter((k) => !listed.includes(k)), 'read by config.ts but not listed').toEqual([]);
  });
});
