import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ERROR_CODES, type Realm } from '@contest/shared';
import { openApiDocument, operationsOf, type ApiGuard, type OpenApiOperation } from '../src/plugins/openapi.js';
import { settings } from '../src/db/schema.js';
import { seedDictionary } from './contest-helpers.js';
import { createTestApp } from './helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * The bad-input walk (docs/decisions.md, "Generated API description and the bad-input walk"):
 * every operation of the API description (docs/openapi.json, built from the same
 * app) gets bad input in every path parameter, query field and body field — wrong types, a 1 MB
 * string, unicode edge cases, NUL, SQL/HTML/path payloads — plus malformed bodies (missing,
 * broken JSON, wrong content type, malformed multipart), sent as the identity the route needs.
 * Each answer must be below 500, a 4xx must be the envelope, and a refused request must write
 * nothing: every table carries a row trigger into a write log, checked after each request (this
 * also catches UPDATEs and DELETEs, which row counts would miss).
 *
 * Payloads are sampled, not crossed: each field gets one wrong type and at least one nasty
 * string; the strings rotate over the fields so every route sees all eight, and the body-level
 * malformations shared by every route (the app's parsers) rotate over the routes.
 * The other fields hold a valid sample (built from the JSON Schema), so a payload reaches the
 * service and the database instead of stopping at the first missing field.
 */

// A high rate limit: thousands of calls from one address would otherwise end as 429s.
const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '10000000' });
await t.app.ready();
// No background work during the run: only requests write (a scheduled sweep would look like one).
await t.app.deps.jobs.stop();
await seedDictionary(t);
const doc = openApiDocument(t.app);
afterAll(async () => t.close());

const who: Record<Realm, SignedIn> = {
  ADMIN: await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' }),
  USER: await signIn(t, { realm: 'USER' }),
  EXPERT: await signIn(t, { realm: 'EXPERT' }),
};

/**
 * Writes the log ignores, each for a reason that holds for good input and bad alike (without
 * them a refused sign-in shows "wrote kv_store UPDATE, login_records INSERT"):
 * - kv_store: short-lived counters and nonces (login-failure counts, SMS windows, captcha
 *   tickets) count attempts, failed ones included — that is their job.
 * - login_records: the security log of sign-in attempts records failed ones on purpose.
 * - sessions UPDATE that leaves revoked_at alone: the last-use stamp of the caller's session
 *   (refreshed at most once a minute on any authenticated call), not the request's data.
 */
const IGNORED_TABLES = new Set(['kv_store', 'login_records', 'zz_write_log']);

await t.database.db.execute(sql.raw('CREATE TABLE zz_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL)'));
await t.database.db.execute(sql.raw(`
  CREATE FUNCTION zz_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_TABLE_NAME = 'sessions' AND TG_OP = 'UPDATE' THEN
      IF NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at THEN RETURN NULL; END IF;
    END IF;
    INSERT INTO zz_write_log (tbl, op) VALUES (TG_TABLE_NAME, TG_OP);
    RETURN NULL;
  END $$;
`));
/** Rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

{
  const tables = await rowsOf<{ tablename: string }>(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  for (const { tablename } of tables) {
    if (IGNORED_TABLES.has(tablename)) continue;
    await t.database.db.execute(
      sql.raw(`CREATE TRIGGER "zz_write_${tablename}" AFTER INSERT OR UPDATE OR DELETE ON "${tablename}" FOR EACH ROW EXECUTE FUNCTION zz_log_write()`),
    );
  }
}

let seenWrites = 0;
/** Writes since the last call, as "table OP". */
async function newWrites(): Promise<string[]> {
  const rows = await rowsOf<{ id: string; tbl: string; op: string }>(sql`SELECT id, tbl, op FROM zz_write_log WHERE id > ${seenWrites} ORDER BY id`);
  if (rows.length) seenWrites = Number(rows.at(-1)!.id);
  return rows.map((r) => `${r.tbl} ${r.op}`);
}

// ---------------------------------------------------------------------------------------------
// Valid samples from JSON Schema

type Schema = Record<string, any>;

const PATTERN_CANDIDATES = [
  () => randomUUID(),
  () => '2025-01-01',
  () => '2025-01-01T00:00:00Z',
  () => 'A'.repeat(22),
  () => '13800138000',
  () => 'a@example.com',
  () => 'Abc@1234',
  () => 'E0001',
  () => 'AB',
  () => 'a',
  () => '1',
];

function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const branch = (schema[key] as Schema[]).find((s) => s.type !== 'null') ?? schema[key][0];
      return sample(branch, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) return sample(Object.assign({}, ...schema.allOf), depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return '2025-01-01T00:00:00Z';
      if (schema.format === 'email') return 'a@example.com';
      if (schema.pattern) {
        const re = new RegExp(schema.pattern, 'u');
        for (const make of PATTERN_CANDIDATES) {
          const value = make();
          if (re.test(value)) return value;
        }
      }
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array': {
      const n = schema.minItems ?? 0;
      return Array.from({ length: n }, () => sample(schema.items, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], depth + 1);
      return out;
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Bad values

const HUGE = 'x'.repeat(1 << 20);
const NASTY: [string, string][] = [
  ['1 MB string', HUGE],
  ['lone surrogates', '\uD800x\uDFFF'],
  ['U+202E and emoji', '\u202Egnp.exe\u202C 👨‍👩‍👧‍👦🎉'],
  ['NUL', 'a\u0000b'],
  ['SQL', "' OR 1=1--"],
  ['HTML', '<script>alert(1)</script>'],
  ['path', '../../etc/passwd'],
  ['control characters', '\u0007\u001b[31m\r\n\u2028'],
];

function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'unknown';
  if (schema.enum) return 'enum';
  if (schema.type) return Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  const branch = (schema.anyOf ?? schema.oneOf)?.find((s: Schema) => s.type !== 'null');
  return branch ? typeOf(branch) : 'unknown';
}

/** Wrong-typed JSON values for a body field of this schema. */
function wrongTypes(schema: Schema | undefined): [string, unknown][] {
  switch (typeOf(schema)) {
    case 'string':
    case 'enum':
      return [['number', 12345], ['object', { a: 1 }]];
    case 'integer':
    case 'number':
      return [['string', 'abc'], ['huge number', 1e308]];
    case 'boolean':
      return [['string', 'yes'], ['number', 2]];
    case 'array':
      return [['string', 'a'], ['object', { length: 1 }]];
    case 'object':
      return [['string', 'a'], ['array', [1]]];
    default:
      return [['object', { a: [1] }]];
  }
}

/** Wrong values for a query or path field (always strings on the wire). */
function wrongStrings(schema: Schema | undefined): [string, string][] {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return [['not a number', 'abc'], ['out of range', '1e400']];
    case 'boolean':
      return [['not a boolean', 'maybe']];
    case 'enum':
      return [['not in the enum', 'NOPE']];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// The cases of one operation

interface Site {
  part: 'path' | 'query' | 'body';
  /** Parameter name, or the property path inside the body. */
  path: string[];
  schema: Schema | undefined;
}

interface Case {
  label: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

interface Operation {
  method: string;
  path: string;
  op: OpenApiOperation;
}

function bodySchemaOf(op: OpenApiOperation): Schema | undefined {
  return op.requestBody?.content['application/json']?.schema;
}

/** Body fields: top-level properties, and one level into nested objects. */
function bodySites(schema: Schema | undefined): Site[] {
  if (!schema?.properties) return [];
  const sites: Site[] = [];
  for (const [key, child] of Object.entries(schema.properties as Record<string, Schema>)) {
    sites.push({ part: 'body', path: [key], schema: child });
    if (child.properties) {
      for (const [inner, grand] of Object.entries(child.properties as Record<string, Schema>)) {
        sites.push({ part: 'body', path: [key, inner], schema: grand });
      }
    }
  }
  return sites;
}

function setAt(target: Record<string, any>, path: string[], value: unknown): Record<string, any> {
  const copy = structuredClone(target);
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[path.at(-1)!] = value;
  return copy;
}

/**
 * Percent-encoding that keeps lone surrogates (encodeURIComponent throws on them): they go out
 * as their WTF-8 bytes, which are not valid UTF-8 — the server must refuse them, not fail.
 */
function encode(value: string): string {
  if (!/[\uD800-\uDFFF]/.test(value)) return encodeURIComponent(value);
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += `%ED%${(0xa0 | ((cp >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (cp & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

function queryString(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(`${encode(key)}=${encode(text)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function casesOf({ method, path, op }: Operation, auth: Record<string, string>, seed: number): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = bodySchemaOf(op);
  const validPath: Record<string, string> = Object.fromEntries(pathParams.map((p) => [p.name, String(sample(p.schema) ?? 'a')]));
  const validQuery: Record<string, unknown> = Object.fromEntries(
    queryParams.filter((p) => p.required).map((p) => [p.name, sample(p.schema)]),
  );
  const validBody = bodySchema ? ((sample(bodySchema) ?? {}) as Record<string, unknown>) : undefined;
  const json = { ...auth, 'content-type': 'application/json' };
  const urlOf = (pathValues: Record<string, string>, query: Record<string, unknown>) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(pathValues[name] ?? 'a')) + queryString(query);
  const withBody = method !== 'GET' && method !== 'HEAD';
  const validPayload = withBody ? JSON.stringify(validBody ?? {}) : undefined;

  const at = (site: Site, value: unknown, label: string): Case => {
    const name = site.path[0]!;
    if (site.part === 'path') return { label, url: urlOf({ ...validPath, [name]: String(value) }, validQuery), headers: withBody ? json : auth, payload: validPayload };
    if (site.part === 'query') return { label, url: urlOf(validPath, { ...validQuery, [name]: value }), headers: withBody ? json : auth, payload: validPayload };
    return { label, url: urlOf(validPath, validQuery), headers: json, payload: JSON.stringify(setAt(validBody ?? {}, site.path, value)) };
  };

  const sites: Site[] = [
    ...pathParams.map((p): Site => ({ part: 'path', path: [p.name], schema: p.schema })),
    ...queryParams.map((p): Site => ({ part: 'query', path: [p.name], schema: p.schema })),
    ...bodySites(bodySchema),
  ];
  const cases: Case[] = [{ label: 'valid sample', url: urlOf(validPath, validQuery), headers: withBody ? json : auth, payload: validPayload }];
  // One wrong type per field (they rotate over the routes).
  sites.forEach((site, i) => {
    const wrong = site.part === 'body' ? wrongTypes(site.schema) : wrongStrings(site.schema);
    const pick = wrong[(i + seed) % Math.max(1, wrong.length)];
    if (pick) cases.push(at(site, pick[1], `${site.part} ${site.path.join('.')}: ${pick[0]}`));
  });
  // Every nasty string at least once per route, every field at least one of them.
  if (sites.length) {
    for (let i = 0; i < Math.max(NASTY.length, sites.length); i++) {
      const site = sites[i % sites.length]!;
      const [label, value] = NASTY[(i + seed) % NASTY.length]!;
      cases.push(at(site, value, `${site.part} ${site.path.join('.')}: ${label}`));
    }
  }
  // A required body field missing (one is enough: they all take the same path).
  const required = (bodySchema?.required ?? []) as string[];
  if (required.length) {
    const key = required[seed % required.length]!;
    const body = { ...validBody };
    delete body[key];
    cases.push({ label: `body ${key}: missing`, url: urlOf(validPath, validQuery), headers: json, payload: JSON.stringify(body) });
  }
  for (const p of queryParams.filter((q) => q.required)) {
    const query = { ...validQuery };
    delete query[p.name];
    cases.push({ label: `query ${p.name}: missing`, url: urlOf(validPath, query), headers: auth });
  }
  // An unknown query field with a payload, and a repeated field (joined with a comma).
  if (!withBody) cases.push({ label: 'unknown query field', url: urlOf(validPath, { ...validQuery, zz: "' OR 1=1--" }), headers: auth });
  const firstQuery = queryParams[0];
  if (firstQuery) {
    const url = `${urlOf(validPath, validQuery)}${Object.keys(validQuery).length ? '&' : '?'}${firstQuery.name}=1&${firstQuery.name}=2`;
    cases.push({ label: `query ${firstQuery.name}: repeated`, url, headers: withBody ? json : auth, payload: validPayload });
  }

  if (withBody) {
    const url = urlOf(validPath, validQuery);
    const boundary = '----zzbad';
    const multipartCases: Case[] = [
      { label: 'multipart without boundary', url, headers: { ...auth, 'content-type': 'multipart/form-data' }, payload: 'garbage' },
      {
        label: 'truncated multipart',
        url,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 trunc`,
      },
      {
        label: 'multipart with nasty fields and file name',
        url,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.from(
          [
            `--${boundary}`,
            'Content-Disposition: form-data; name="origin"',
            '',
            '../../etc/passwd',
            `--${boundary}`,
            'Content-Disposition: form-data; name="name"',
            '',
            '<script>alert(1)</script>\u202Efdp.exe',
            `--${boundary}`,
            'Content-Disposition: form-data; name="file"; filename="../../etc/passwd\u0000.pdf"',
            'Content-Type: application/pdf',
            '',
            '%PDF-1.7 not really',
            `--${boundary}--`,
            '',
          ].join('\r\n'),
        ),
      },
    ];
    const others: Case[] = [
      { label: 'empty JSON body', url, headers: json, payload: '' },
      { label: 'JSON array body', url, headers: json, payload: '[1,2]' },
      { label: 'JSON null body', url, headers: json, payload: 'null' },
      { label: 'JSON string body', url, headers: json, payload: '"x"' },
      { label: '__proto__ body', url, headers: json, payload: '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}' },
      { label: 'deeply nested JSON', url, headers: json, payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
      { label: 'text/plain body', url, headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' },
      { label: 'form-urlencoded body', url, headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=2' },
      ...multipartCases,
    ];
    cases.push(
      { label: 'no body, no content type', url, headers: auth },
      { label: 'malformed JSON', url, headers: json, payload: '{"a": ' },
      // Bodies the route reads itself (uploads, imports): every malformed multipart.
      ...(bodySchema ? [] : multipartCases),
      // The parsers are the app's, shared by every route: two more per route, rotating.
      others[(2 * seed) % others.length]!,
      others[(2 * seed + 1) % others.length]!,
    );
  }
  return cases;
}

/** Who calls a route: super-admin for the console, else the realm its guard admits. */
function identityFor(path: string, guard: ApiGuard | undefined): Record<string, string> {
  if (!guard) return {};
  const realms = guard.realms;
  const realm: Realm =
    path.startsWith('/api/admin/') && realms.includes('ADMIN')
      ? 'ADMIN'
      : path.startsWith('/api/expert/') && realms.includes('EXPERT')
        ? 'EXPERT'
        : (['USER', 'EXPERT', 'ADMIN'] as const).find((r) => realms.includes(r))!;
  return who[realm].headers;
}

function envelopeProblem(status: number, body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 80)}`;
  }
  if (!parsed || typeof parsed !== 'object') return 'not an object';
  const e = parsed as Record<string, unknown>;
  const keys = Object.keys(e).sort().join(',');
  if (keys !== 'code,data,message,status') return `keys ${keys}`;
  if (e.status !== status) return `status ${String(e.status)} ≠ ${status}`;
  if (!(ERROR_CODES as readonly unknown[]).includes(e.code)) return `code ${String(e.code)}`;
  if (typeof e.message !== 'string' || !e.message) return 'no message';
  return null;
}

const SESSION_ENDING = new Set(['/api/logout']);
const operations = operationsOf(doc);

interface Outcome {
  status: number;
  body: string;
  /** Writes seen after this call alone; undefined when the call ran in a batch. */
  writes?: string[];
}

async function send(method: string, path: string, c: Case): Promise<Outcome> {
  // Signing out ends the session it is called with: each of its calls gets a fresh one.
  if (SESSION_ENDING.has(path)) {
    c.headers = { ...c.headers, ...(await signIn(t, { realm: 'USER' })).headers };
    await newWrites();
  }
  const res = await t.app.inject({ method: method as 'GET', url: c.url, headers: c.headers, payload: c.payload });
  return { status: res.statusCode, body: res.body };
}

function problemsOf(c: Case, out: Outcome, guarded: boolean): string[] {
  const tag = `${c.label} → ${out.status}`;
  const problems: string[] = [];
  if (out.status >= 500) problems.push(`${tag} ${out.body.slice(0, 160)}`);
  if (out.status >= 400) {
    const bad = envelopeProblem(out.status, out.body);
    if (bad) problems.push(`${tag}: envelope ${bad}`);
    if (out.writes?.length) problems.push(`${tag}: wrote ${[...new Set(out.writes)].join(', ')}`);
  }
  if (out.status === 401 && guarded) problems.push(`${tag}: the caller's session was refused`);
  return problems;
}

describe('bad input on every route of the API description', () => {
  it('walks the whole description', () => {
    expect(operations.length).toBeGreaterThan(200);
  });

  it('sees writes: the write log records inserts, updates and deletes, and a session revocation', async () => {
    await newWrites();
    await t.database.db.insert(settings).values({ key: 'zz.probe', value: 1 });
    await t.database.db.update(settings).set({ value: 2 }).where(eq(settings.key, 'zz.probe'));
    await t.database.db.delete(settings).where(eq(settings.key, 'zz.probe'));
    expect(await newWrites()).toEqual(['settings INSERT', 'settings UPDATE', 'settings DELETE']);
    const spare = await signIn(t, { realm: 'USER' });
    await newWrites();
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: spare.headers })).statusCode).toBe(200);
    expect(await newWrites()).toContain('sessions UPDATE');
  });

  operations.forEach((operation, seed) => {
    const { method, path, op } = operation;
    it(`${method} ${path}`, async () => {
      const guarded = Boolean(op['x-guard']);
      const [valid, ...bad] = casesOf(operation, identityFor(path, op['x-guard']), seed);
      await newWrites();
      // The valid sample may write (it is good input); its writes are taken apart.
      const first = await send(method, path, valid!);
      first.writes = await newWrites();
      const problems = problemsOf(valid!, first, guarded);
      // The bad ones in one batch, checked for writes once; only when something was written
      // (a bad value that is still good input, such as "<script>" as a news title, answered
      // 2xx) are they sent again one by one to tell which call wrote.
      let outcomes: Outcome[] = [];
      for (const c of bad) outcomes.push(await send(method, path, c));
      if ((await newWrites()).length || SESSION_ENDING.has(path)) {
        outcomes = [];
        for (const c of bad) {
          const out = await send(method, path, c);
          out.writes = await newWrites();
          outcomes.push(out);
        }
      }
      bad.forEach((c, i) => problems.push(...problemsOf(c, outcomes[i]!, guarded)));
      expect(problems).toEqual([]);
    });
  });
});
