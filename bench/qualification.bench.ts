/**
 * Qualification (资格管理) benchmark over TEAMS (default 20 000) sign-ups with their participant
 * accounts, through the real app (buildApp, super-admin token), on the embedded database and on
 * PostgreSQL:
 * - the list GET /api/admin/team/list, page size 50, at CONNECTIONS concurrent clients: no
 *   filter, each filter alone, a combination, a sort by organisation name and a deep page.
 *   Target: p99 under 50 ms;
 * - the export GET /api/admin/team/export of every row (sheets 报名信息 and 团队成员): time, bytes,
 *   and the RSS growth of this process (the app runs in it) sampled every 50 ms;
 * - bulk approval: BATCH_CALLS (5) calls of POST /api/admin/team/audit/batch with 200 SUBMITTED
 *   sign-ups each (versions read from the list), outcome APPROVED; each decision writes the team,
 *   a history row, an in-site message and an operation record in a transaction of its own.
 *
 *   node --import tsx bench/qualification.bench.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/qualification.bench.ts
 *
 * With DATABASE_URL the bench creates a database of its own on that server (bench_qual_<time>)
 * and drops it at the end. DURATION (s, default 10), CONNECTIONS (default 20), TEAMS change the
 * load; EXPLAIN=1 prints the plans of the queries each list case issues (captured from the app,
 * run again under EXPLAIN ANALYZE); EXTRA_SQL (statements separated by `;`) runs after seeding,
 * e.g. candidate indexes: EXTRA_SQL='create index teams_region_idx on teams (region)'.
 *
 * The figures are those of one machine at one moment: the load average is printed with them.
 * RSS growth leaves the garbage collector alone (garbage not yet collected counts); with
 * `node --expose-gc` a full collection runs just before the export's baseline.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import autocannon from 'autocannon';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { DICTIONARY_SEED } from '@contest/shared';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/config.js';
import type { Db } from '../apps/server/src/db/client.js';
import { accounts } from '../apps/server/src/db/schema.js';
import { hashPassword } from '../apps/server/src/lib/password.js';
import { createSessionService } from '../apps/server/src/modules/auth/session.service.js';
import { seedAtStartup } from '../apps/server/src/startup.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const TEAMS = Number(process.env.TEAMS ?? 20_000);
const PAGE_SIZE = 50;
const BATCH_CALLS = 5;
const BATCH_ITEMS = 200;
const TARGET_P99_MS = 50;
const MB = 1024 * 1024;

interface Figures {
  name: string;
  total: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

async function measure(name: string, total: number, url: string, token: string): Promise<Figures> {
  const options = { url, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS };
  // Warm-up: JIT, the database's caches and plans.
  await autocannon({ ...options, duration: 2 });
  const r = await autocannon({ ...options, duration: DURATION });
  return { name, total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** A database of the bench's own on the given PostgreSQL server; dropped by the returned function. */
async function ownDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_qual_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

// ---- Seeding ---------------------------------------------------------------------------------

const dictNames = (type: string) => DICTIONARY_SEED.find((t) => t.code === type)!.items.map((i) => i.name);
/** A SQL array literal of constant strings (the dictionary's names: no quotes in them). */
const textArray = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]::text[]`);
/** A value 0..mod-1 from the team's number: independent per salt, the same on every run. */
const hashed = (salt: number, mod: number) => sql.raw(`(((hashint8extended(n, ${salt}) % ${mod}) + ${mod}) % ${mod})`);

/**
 * Set-based seeding: one INSERT ... SELECT per table, no row crosses the wire. Spread of a
 * contest a few weeks before the deadline: 60 % SUBMITTED, 15 % DRAFT, 15 % APPROVED, 5 %
 * REVISING, 5 % REJECTED; org types and tracks weighted, 34 regions evenly; submitted over the
 * last 60 days; 2-5 members each; organisation names "<province>…第<n>…" with n in 1..2000, so
 * "第1234" finds about ten rows.
 */
async function seedVolume(db: Db): Promise<void> {
  const hash = await hashPassword('Bench@2025');
  const t = Date.now();
  await db.execute(sql`
    insert into accounts (realm, username, phone, email, name, role_code, password_hash, enabled, created_at, updated_at)
    select 'USER', 'qb' || g, '15' || lpad(g::text, 9, '0'), 'qb' || g || '@example.com', '参赛者' || g, 'USER', ${hash},
           true, now() - interval '75 days' + g * (interval '70 days' / ${TEAMS}), now()
    from generate_series(1, ${TEAMS}) g`);
  const provinces = textArray(dictNames('REGION').slice(0, 34));
  const titles = textArray(DICTIONARY_SEED.find((x) => x.code === 'PROFESSIONAL_TITLE')!.items.map((i) => i.code));
  const roles = textArray(['DEVELOPER', 'PRODUCT', 'BUSINESS', 'DATA', 'OTHER']);
  const trackWords = textArray(['智慧监管', '支付改革', '便民服务', '数据治理', '价格招采', '创新应用']);
  await db.execute(sql`
    insert into teams (owner_id, status, org_name, org_type, credit_code, region, city, track, team_name, leader, members, advisor,
                       audit_reason, submitted_at, audited_at, version, created_at, updated_at)
    with a as (
      select id as owner_id, row_number() over (order by created_at, id)::bigint as n from accounts where realm = 'USER' and username like 'qb%'
    ), h as (
      select owner_id, n, ${hashed(1, 100)} as hs, ${hashed(2, 100)} as ho, ${hashed(3, 100)} as ht, ${hashed(4, 34)} as hr,
             1 + ${hashed(5, 2000)} as num, ${hashed(6, 60 * 86_400)} as secs, 2 + ${hashed(7, 4)} as m, ${hashed(8, 72)} as audit_hours
      from a
    ), c as (
      select h.*,
             case when hs < 60 then 'SUBMITTED' when hs < 75 then 'DRAFT' when hs < 90 then 'APPROVED' when hs < 95 then 'REVISING' else 'REJECTED' end as status,
             case when ho < 35 then 1 when ho < 55 then 2 when ho < 75 then 3 when ho < 95 then 4 else 5 end as ot,
             case when ht < 25 then 1 when ht < 45 then 2 when ht < 65 then 3 when ht < 80 then 4 when ht < 90 then 5 else 6 end as tr,
             (${provinces})[hr + 1] as province
      from h
    ), d as (
      select c.*,
             province || case ot
               when 1 then '第' || num || '人民医院'
               when 2 then '医疗保障局第' || num || '经办中心'
               when 3 then '医科大学第' || num || '附属研究所'
               when 4 then '数智医保科技有限公司第' || num || '分公司'
               else '医保研究会第' || num || '工作组' end as org,
             case when status = 'DRAFT' then null else now() - secs * interval '1 second' end as submitted
      from c
    )
    select owner_id, status, org,
           (array['MEDICAL_INSTITUTION','INSURANCE_AGENCY','UNIVERSITY','ENTERPRISE','OTHER'])[ot],
           '91' || lpad((n * 7919 % 1000000000)::text, 15, '0') || 'X',
           'P' || lpad((hr + 1)::text, 2, '0'),
           province || '第' || (1 + n % 20) || '市',
           (array['SMART_SUPERVISION','PAYMENT_REFORM','PUBLIC_SERVICE','DATA_GOVERNANCE','PRICING_PROCUREMENT','OTHER_INNOVATION'])[tr],
           (${trackWords})[tr] || '创新团队' || n,
           jsonb_build_object('name', '负责人' || n, 'phone', '139' || lpad(n::text, 8, '0'), 'email', 'leader' || n || '@example.cn',
                              'title', (${titles})[1 + n % 5]),
           (select jsonb_agg(jsonb_build_object('name', '成员' || n || '-' || k, 'organization', org, 'title', (${titles})[1 + (n + k) % 5],
                                                'phone', '138' || lpad((n * 10 + k)::text, 8, '0'), 'email', 'm' || n || '_' || k || '@example.cn',
                                                'role', (${roles})[1 + (n + k) % 5]) order by k)
              from generate_series(1, m) k),
           case when n % 3 = 0 then jsonb_build_object('name', '导师' || n, 'organization', province || '医科大学', 'title', 'SENIOR',
                                                       'phone', '137' || lpad(n::text, 8, '0'), 'email', 'advisor' || n || '@example.edu.cn') end,
           case status when 'REVISING' then '材料不完整：请补充加盖公章的单位证明。' when 'REJECTED' then '参赛方向与申报内容不符。' end,
           submitted,
           case when status in ('APPROVED', 'REVISING', 'REJECTED') then least(now(), submitted + audit_hours * interval '1 hour') end,
           case status when 'DRAFT' then 1 + n % 3 when 'SUBMITTED' then 2 + n % 2 else 4 end,
           coalesce(submitted, now() - secs * interval '1 second') - (1 + n % 10) * interval '1 day',
           coalesce(case when status in ('APPROVED', 'REVISING', 'REJECTED') then least(now(), submitted + audit_hours * interval '1 hour') end,
                    submitted, now() - secs * interval '1 second')
    from d`);
  // The workflow's trail of the submissions, and reminders sent to a third of the drafts.
  await db.execute(sql`
    insert into status_history (subject_type, subject_id, from_status, to_status, actor_id, actor_realm, actor_name, created_at)
    select 'TEAM', id, 'DRAFT', 'SUBMITTED', owner_id, 'USER', 'qb', submitted_at from teams where submitted_at is not null`);
  await db.execute(sql`
    insert into reminders (subject_type, subject_id, day, account_id, created_at)
    select 'TEAM', id, (now() - (1 + version) * interval '1 day')::date, owner_id, now() - (1 + version) * interval '1 day'
    from teams where status = 'DRAFT' and hashtext(id::text) % 3 = 0`);
  await db.execute(sql`analyze`);
  console.log(`seeded ${TEAMS} participants and their teams in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

// ---- Query capture for EXPLAIN ---------------------------------------------------------------

interface Captured {
  text: string;
  params: unknown[];
}
interface DriverClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** Records the statements the app sends while `fn` runs (drizzle's logger hook of the shared session). */
function queryRecorder(db: Db) {
  const session = (db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void }; client: DriverClient } }).session;
  const original = session.logger;
  let sink: Captured[] | null = null;
  session.logger = {
    logQuery(text, params) {
      sink?.push({ text, params });
      original.logQuery(text, params);
    },
  };
  return {
    client: session.client,
    async during<T>(fn: () => Promise<T>): Promise<{ result: T; queries: Captured[] }> {
      const queries: Captured[] = [];
      sink = queries;
      try {
        return { result: await fn(), queries };
      } finally {
        sink = null;
      }
    },
  };
}

// ---- Helpers ---------------------------------------------------------------------------------

const day = (daysAgo: number) => new Date(Date.now() + 8 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
const ms = (n: number) => n.toFixed(0);
const rowsOf = (r: unknown) => (r as { rows: Array<Record<string, unknown>> }).rows;
const count = async (db: Db, query: ReturnType<typeof sql>) => Number(rowsOf(await db.execute(query))[0]!.n);

function markdown(headers: string[], rows: Array<Array<string | number>>): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

interface ExportFigures {
  status: number;
  seconds: number;
  firstByteMs: number;
  bytes: number;
  baseRssMb: number;
  peakRssMb: number;
  endRssMb: number;
  teamRows: number;
  memberRows: number;
  expectedTeams: number;
  expectedMembers: number;
}

/** One export of every row to a file; RSS sampled every 50 ms from the request to the last byte. */
async function measureExport(db: Db, base: string, token: string, dir: string): Promise<ExportFigures> {
  const expectedTeams = await count(db, sql`select count(*) as n from teams`);
  const expectedMembers = await count(db, sql`select coalesce(sum(jsonb_array_length(members)), 0) as n from teams`);
  const file = join(dir, 'export.xlsx');
  // Run with `node --expose-gc` to start from a collected heap (the lists leave garbage behind).
  (globalThis as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage().rss;
  let peak = baseRss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  let firstByte = 0;
  let status = 0;
  try {
    const res = await fetch(`${base}/team/export`, { headers: { authorization: `Bearer ${token}` } });
    status = res.status;
    if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
    const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    body.once('data', () => (firstByte = performance.now() - started));
    await pipeline(body, createWriteStream(file));
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  const endRss = process.memoryUsage().rss;
  peak = Math.max(peak, endRss);
  // Afterwards (not measured): the rows of each sheet, header excluded.
  const counts: number[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    let n = 0;
    for await (const _row of sheet as AsyncIterable<unknown>) n++;
    counts.push(n - 1);
  }
  return {
    status,
    seconds,
    firstByteMs: firstByte,
    bytes: statSync(file).size,
    baseRssMb: baseRss / MB,
    peakRssMb: peak / MB,
    endRssMb: endRss / MB,
    teamRows: counts[0] ?? 0,
    memberRows: counts[1] ?? 0,
    expectedTeams,
    expectedMembers,
  };
}

interface BatchFigures {
  calls: Array<{ ms: number; status: number; succeeded: number; failed: number }>;
  totalMs: number;
  approvedBefore: number;
  approvedAfter: number;
  writes: Record<string, number>;
  failures: string[];
}

/** BATCH_CALLS calls of BATCH_ITEMS SUBMITTED sign-ups each, ids and versions from the list. */
async function measureBatch(db: Db, base: string, token: string): Promise<BatchFigures> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const items: Array<{ id: string; version: number }> = [];
  for (let page = 1; items.length < BATCH_CALLS * BATCH_ITEMS; page++) {
    const res = await fetch(`${base}/team/list?status=SUBMITTED&size=100&page=${page}`, { headers });
    const body = (await res.json()) as { data: { list: Array<{ id: string; version: number }> } };
    if (res.status !== 200 || body.data.list.length === 0) throw new Error(`list for the batch: ${res.status} ${JSON.stringify(body)}`);
    items.push(...body.data.list.map(({ id, version }) => ({ id, version })));
  }
  const tables = ['status_history', 'messages', 'message_recipients', 'operation_records', 'notice_outbox'];
  const sizes = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(db, sql`select count(*) as n from ${sql.identifier(t)}`)] as const)));
  const approved = () => count(db, sql`select count(*) as n from teams where status = 'APPROVED'`);
  const before = await sizes();
  const approvedBefore = await approved();
  const calls: BatchFigures['calls'] = [];
  const failures: string[] = [];
  const started = performance.now();
  for (let i = 0; i < BATCH_CALLS; i++) {
    const chunk = items.slice(i * BATCH_ITEMS, (i + 1) * BATCH_ITEMS);
    const t = performance.now();
    const res = await fetch(`${base}/team/audit/batch`, { method: 'POST', headers, body: JSON.stringify({ items: chunk, outcome: 'APPROVED', reason: '' }) });
    const body = (await res.json()) as { data?: { succeeded: number; failed: number; results: Array<{ ok: boolean; reason?: string; message?: string }> } };
    calls.push({ ms: performance.now() - t, status: res.status, succeeded: body.data?.succeeded ?? 0, failed: body.data?.failed ?? chunk.length });
    if (res.status !== 200) failures.push(`call ${i + 1}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    for (const r of body.data?.results ?? []) if (!r.ok) failures.push(`call ${i + 1}: ${r.reason} ${r.message}`);
  }
  const totalMs = performance.now() - started;
  const after = await sizes();
  return {
    calls,
    totalMs,
    approvedBefore,
    approvedAfter: await approved(),
    writes: Object.fromEntries(tables.map((t) => [t, after[t]! - before[t]!])),
    failures,
  };
}

// ---- Main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const server = process.env.DATABASE_URL?.startsWith('postgres') ? await ownDatabase(process.env.DATABASE_URL) : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-bench-qual-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: server?.url ?? '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const app = await buildApp(config);
  try {
    await seedAtStartup(app, false);
    const db = app.deps.database.db;
    await seedVolume(db);
    if (process.env.EXTRA_SQL) {
      // One statement per call: PGlite prepares each, and a prepared statement holds one command.
      for (const statement of process.env.EXTRA_SQL.split(';').map((x) => x.trim()).filter(Boolean)) await db.execute(sql.raw(statement));
      await db.execute(sql`analyze teams`);
      console.log(`ran EXTRA_SQL: ${process.env.EXTRA_SQL}`);
    }
    const [admin] = await db
      .insert(accounts)
      .values({ realm: 'ADMIN', username: 'benchadmin', name: 'bench', roleCode: 'SUPER_ADMIN', passwordHash: await hashPassword('Bench@2025') })
      .returning({ id: accounts.id });
    const { token } = await createSessionService(db).create({ realm: 'ADMIN', accountId: admin!.id });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/admin`;
    const list = (query: string) => `${base}/team/list?size=${PAGE_SIZE}&${query}`;

    const cases: Array<[string, string]> = [
      ['no filter, page 1', list('page=1')],
      ['orgName contains "第1234"', list(`page=1&orgName=${encodeURIComponent('第1234')}`)],
      ['orgType=UNIVERSITY', list('page=1&orgType=UNIVERSITY')],
      ['track=DATA_GOVERNANCE', list('page=1&track=DATA_GOVERNANCE')],
      ['region=P19', list('page=1&region=P19')],
      ['status=SUBMITTED', list('page=1&status=SUBMITTED')],
      ['submitted in one week', list(`page=1&submittedFrom=${day(14)}&submittedTo=${day(8)}`)],
      ['track+region+status', list('page=1&track=PAYMENT_REFORM&region=P11&status=SUBMITTED')],
      ['sort=orgName asc', list('page=1&sort=orgName&order=asc')],
      ['deep page 300, no filter', list('page=300')],
    ];

    // Every case must answer 200 with a page before it is timed; the statements each issues are
    // recorded on the way (first call: cold count cache, so the count is among them).
    const recorder = queryRecorder(db);
    const totals = new Map<string, number>();
    const issued = new Map<string, Captured[]>();
    for (const [name, url] of cases) {
      const { result, queries } = await recorder.during(async () => {
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: (await res.json()) as { data?: { total: number; list: unknown[] } } };
      });
      if (result.status !== 200) throw new Error(`${name}: ${result.status} ${JSON.stringify(result.body)}`);
      totals.set(name, result.body.data!.total);
      issued.set(name, queries.filter((q) => /from "teams"/.test(q.text)));
      console.log(`${name}: total ${result.body.data!.total}, ${result.body.data!.list.length} rows`);
    }

    if (process.env.EXPLAIN === '1') {
      for (const [name] of cases) {
        for (const q of issued.get(name) ?? []) {
          const plan = await recorder.client.query(`explain (analyze, buffers) ${q.text}`, q.params);
          console.log(`\n-- ${name}: ${q.text.length > 160 ? `${q.text.slice(0, 160)}…` : q.text}\n   params ${JSON.stringify(q.params)}`);
          console.log(plan.rows.map((r) => Object.values(r)[0]).join('\n'));
        }
      }
    }

    const loadBefore = load();
    const figures: Figures[] = [];
    for (const [name, url] of cases) figures.push(await measure(name, totals.get(name)!, url, token));
    const loadAfterLists = load();

    const exp = await measureExport(db, base, token, dataDir);
    const loadAfterExport = load();
    const batch = await measureBatch(db, base, token);
    const loadAfterBatch = load();

    const kind = app.deps.database.kind;
    console.log(`\n## Qualification bench: ${kind}, ${TEAMS} teams\n`);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${DURATION} s each after a 2 s warm-up, page size ${PAGE_SIZE}. ` +
        `Load average (1/5/15 min) before the lists ${loadBefore}, after them ${loadAfterLists}, after the export ${loadAfterExport}, after the batch ${loadAfterBatch}; ` +
        `the app, the clients${kind === 'postgres' ? ' and PostgreSQL' : ''} share this machine.\n`,
    );
    console.log(
      markdown(
        ['list case', 'total', 'req/s', 'p50 ms', 'p99 ms', `p99 < ${TARGET_P99_MS}`, 'errors', 'non-2xx'],
        figures.map((f) => [f.name, f.total, Math.round(f.rps), f.p50, f.p99, f.p99 < TARGET_P99_MS ? 'yes' : 'NO', f.errors, f.non2xx]),
      ),
    );
    console.log('');
    console.log(
      markdown(
        ['export', 'status', 'time s', 'first byte ms', 'bytes', 'sheet rows (teams / members)', 'RSS before MB', 'RSS peak MB', 'RSS growth MB', 'RSS after MB'],
        [
          [
            'all teams',
            exp.status,
            exp.seconds.toFixed(2),
            ms(exp.firstByteMs),
            exp.bytes,
            `${exp.teamRows} / ${exp.memberRows}${exp.teamRows === exp.expectedTeams && exp.memberRows === exp.expectedMembers ? '' : ` (expected ${exp.expectedTeams} / ${exp.expectedMembers})`}`,
            exp.baseRssMb.toFixed(0),
            exp.peakRssMb.toFixed(0),
            (exp.peakRssMb - exp.baseRssMb).toFixed(0),
            exp.endRssMb.toFixed(0),
          ],
        ],
      ),
    );
    console.log('');
    const items = batch.calls.reduce((s, c) => s + c.succeeded + c.failed, 0);
    console.log(
      markdown(
        ['batch approval', 'status', 'time ms', 'ms / item', 'succeeded', 'failed'],
        [
          ...batch.calls.map((c, i) => [`call ${i + 1} (${BATCH_ITEMS} items)`, c.status, ms(c.ms), (c.ms / BATCH_ITEMS).toFixed(2), c.succeeded, c.failed]),
          [`all ${BATCH_CALLS} calls`, '', ms(batch.totalMs), (batch.totalMs / Math.max(items, 1)).toFixed(2), batch.calls.reduce((s, c) => s + c.succeeded, 0), batch.calls.reduce((s, c) => s + c.failed, 0)],
        ],
      ),
    );
    console.log(
      `\nteams APPROVED ${batch.approvedBefore} -> ${batch.approvedAfter}; rows written: ${Object.entries(batch.writes)
        .map(([t, n]) => `${t} +${n}`)
        .join(', ')}`,
    );
    const dirty = figures.some((f) => f.errors || f.non2xx) || exp.status !== 200 || batch.failures.length > 0;
    if (batch.failures.length) console.log(`batch failures (first 10):\n  ${batch.failures.slice(0, 10).join('\n  ')}`);
    if (exp.teamRows !== exp.expectedTeams || exp.memberRows !== exp.expectedMembers) console.log('WARNING: the export does not hold every row');
    if (dirty) console.log('WARNING: errors, non-2xx answers or failed decisions: the figures above are not clean');
  } finally {
    // autocannon stops with requests in flight: let them finish before the pool closes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await app.close();
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
