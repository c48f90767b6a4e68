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
 *   node --import tsx bench/team-list.bench.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/team-list.bench.ts
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
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { DICTIONARY_SEED } from '@contest/shared';
import type { Db } from '../apps/server/src/db/client.js';
import { seedAtStartup } from '../apps/server/src/startup.js';
import { startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { count, hashed as hashedOf, tableCounts } from './support/db.js';
import { call } from './support/http.js';
import { dirty, measure, type Figures } from './support/measure.js';
import { load, markdown } from './support/report.js';
import { benchAdmin, seedParticipants } from './support/seed.js';
import { downloadXlsx, type DownloadFigures } from './support/xlsx.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const TEAMS = Number(process.env.TEAMS ?? 20_000);
const PAGE_SIZE = 50;
const BATCH_CALLS = 5;
const BATCH_ITEMS = 200;
const TARGET_P99_MS = 50;

// ---- Seeding ---------------------------------------------------------------------------------

const dictNames = (type: string) => DICTIONARY_SEED.find((t) => t.code === type)!.items.map((i) => i.name);
/** A SQL array literal of constant strings (the dictionary's names: no quotes in them). */
const textArray = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]::text[]`);
/** A value 0..mod-1 from the team's number: independent per salt, the same on every run. */
const hashed = (salt: number, mod: number) => hashedOf('n', salt, mod);

/**
 * Set-based seeding: one INSERT ... SELECT per table, no row crosses the wire. Spread of a
 * contest a few weeks before the deadline: 60 % SUBMITTED, 15 % DRAFT, 15 % APPROVED, 5 %
 * REVISING, 5 % REJECTED; org types and tracks weighted, 34 regions evenly; submitted over the
 * last 60 days; 2-5 members each; organisation names "<province>…第<n>…" with n in 1..2000, so
 * "第1234" finds about ten rows.
 */
async function seedVolume(db: Db): Promise<void> {
  const t = Date.now();
  await seedParticipants(db, {
    count: TEAMS,
    prefix: 'qb',
    namePrefix: '参赛者',
    phonePrefix: '15',
    createdAt: sql`now() - interval '75 days' + g * (interval '70 days' / ${TEAMS})`,
  });
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

interface ExportFigures extends DownloadFigures {
  expectedTeams: number;
  expectedMembers: number;
}

/** One export of every row to a file (sheets 报名信息 and 团队成员), with the rows it should hold. */
async function measureExport(db: Db, base: string, token: string, dir: string): Promise<ExportFigures> {
  const expectedTeams = await count(db, sql`select count(*) as n from teams`);
  const expectedMembers = await count(db, sql`select coalesce(sum(jsonb_array_length(members)), 0) as n from teams`);
  return { ...(await downloadXlsx(`${base}/team/export`, token, join(dir, 'export.xlsx'))), expectedTeams, expectedMembers };
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
    const { list } = await call<{ list: Array<{ id: string; version: number }> }>(`${base}/team/list?status=SUBMITTED&size=100&page=${page}`, { token });
    if (list.length === 0) throw new Error('list for the batch: no more SUBMITTED sign-ups');
    items.push(...list.map(({ id, version }) => ({ id, version })));
  }
  const tables = ['status_history', 'messages', 'message_recipients', 'operation_records', 'notice_outbox'];
  const sizes = () => tableCounts(db, tables);
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
  const bench = await startBenchApp({ database: { ownPrefix: 'bench_qual' }, dirPrefix: 'contest-bench-qual-', env: { REDIS_URL: '' } });
  try {
    await seedAtStartup(bench.app, false);
    const db = bench.db;
    await seedVolume(db);
    if (process.env.EXTRA_SQL) {
      // One statement per call: PGlite prepares each, and a prepared statement holds one command.
      for (const statement of process.env.EXTRA_SQL.split(';').map((x) => x.trim()).filter(Boolean)) await db.execute(sql.raw(statement));
      await db.execute(sql`analyze teams`);
      console.log(`ran EXTRA_SQL: ${process.env.EXTRA_SQL}`);
    }
    const { token } = await benchAdmin(db);
    const base = `${await bench.listen()}/api/admin`;
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
    const figures: Array<Figures & { total: number }> = [];
    for (const [name, url] of cases) {
      const f = await measure(name, { url, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, duration: DURATION });
      figures.push({ ...f, total: totals.get(name)! });
    }
    const loadAfterLists = load();

    const exp = await measureExport(db, base, token, bench.dataDir);
    const complete = exp.sheetRows[0] === exp.expectedTeams && exp.sheetRows[1] === exp.expectedMembers;
    const loadAfterExport = load();
    const batch = await measureBatch(db, base, token);
    const loadAfterBatch = load();

    const kind = bench.kind;
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
            `${exp.sheetRows[0] ?? 0} / ${exp.sheetRows[1] ?? 0}${complete ? '' : ` (expected ${exp.expectedTeams} / ${exp.expectedMembers})`}`,
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
    const unclean = dirty(figures) || exp.status !== 200 || batch.failures.length > 0;
    if (batch.failures.length) console.log(`batch failures (first 10):\n  ${batch.failures.slice(0, 10).join('\n  ')}`);
    if (!complete) console.log('WARNING: the export does not hold every row');
    if (unclean) console.log('WARNING: errors, non-2xx answers or failed decisions: the figures above are not clean');
  } finally {
    // autocannon stops with requests in flight: let them finish before the pool closes.
    await bench.close(1000);
  }
}

runMain(main);
