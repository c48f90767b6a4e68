/**
 * Admin console benchmark: the registered-users list over 50 000 participants (filters, page
 * 10) and the operation-record audit list over 1 000 000 records, each at CONNECTIONS concurrent
 * clients through the real app (buildApp, super-admin token). Target: p99 under 50 ms, on the
 * embedded database and on PostgreSQL.
 *
 *   node --import tsx bench/admin.bench.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/admin.bench.ts
 *
 * With DATABASE_URL the bench creates a database of its own on that server (bench_admin_<time>)
 * and drops it at the end. DURATION (s, default 10), CONNECTIONS (default 20), USERS, RECORDS
 * change the load; EXPLAIN=1 prints the plans of the list queries.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.js';
import { seedAtStartup } from '../apps/server/src/startup.js';
import { startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { call } from './support/http.js';
import { dirty, figureRow, measure, type Figures } from './support/measure.js';
import { benchAdmin, seedParticipants } from './support/seed.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const USERS = Number(process.env.USERS ?? 50_000);
const RECORDS = Number(process.env.RECORDS ?? 1_000_000);
const TARGET_P99_MS = 50;

/** Set-based seeding: one INSERT ... SELECT generate_series per table, no row crosses the wire. */
async function seedVolume(db: Db): Promise<void> {
  let t = Date.now();
  await seedParticipants(db, {
    count: USERS,
    prefix: 'bu',
    namePrefix: '用户',
    phonePrefix: '13',
    enabled: sql`g % 50 <> 0`,
    createdAt: sql`now() - (g * interval '10 minutes')`,
  });
  // Four in five participants have a team: statuses, organisations and tracks spread evenly.
  await db.execute(sql`
    insert into teams (owner_id, status, org_name, track, team_name)
    select id,
           (array['DRAFT','SUBMITTED','APPROVED','REVISING','REJECTED'])[1 + n % 5],
           (array['协和医院','人民医院','医保局','医科大学','信息科技公司'])[1 + n % 5] || (n % 400),
           (array['SMART_SUPERVISION','PAYMENT_REFORM','PUBLIC_SERVICE','DATA_GOVERNANCE','PRICING_PROCUREMENT','OTHER_INNOVATION'])[1 + n % 6],
           '团队' || n
    from (select id, row_number() over (order by created_at) as n from accounts where realm = 'USER') s
    where n % 5 <> 0`);
  console.log(`seeded ${USERS} users and their teams in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  t = Date.now();
  await db.execute(sql`
    insert into operation_records (realm, username, action, target_type, target_id, summary, result, ip, user_agent, created_at)
    select (array['ADMIN','ADMIN','ADMIN','ADMIN','ADMIN','ADMIN','ADMIN','EXPERT','EXPERT','USER'])[1 + g % 10],
           'op' || (g % 50),
           (array['account:edit','user:disable','role:edit','dict:item-edit','user:export','score:submit'])[1 + g % 6],
           'account', g::text, '操作摘要 ' || g,
           case when g % 50 = 0 then 'FAILURE' else 'SUCCESS' end,
           '10.0.' || (g % 255) || '.1', 'Mozilla/5.0 (bench)',
           now() - (g * interval '30 seconds')
    from generate_series(1, ${RECORDS}) g`);
  await db.execute(sql`analyze`);
  console.log(`seeded ${RECORDS} operation records in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const day = (daysAgo: number) => new Date(Date.now() + 8 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function main(): Promise<void> {
  const bench = await startBenchApp({ database: { ownPrefix: 'bench_admin' }, dirPrefix: 'contest-bench-admin-', env: { REDIS_URL: '' } });
  try {
    await seedAtStartup(bench.app, false);
    const db = bench.db;
    await seedVolume(db);
    const { token } = await benchAdmin(db);
    const base = `${await bench.listen()}/api/admin`;

    const cases: Array<[string, string]> = [
      ['users: page 10, no filter', `${base}/user/list?page=10&size=10`],
      ['users: page 10, teamStatus=APPROVED, enabled', `${base}/user/list?page=10&size=10&teamStatus=APPROVED&enabled=true`],
      ['users: page 10, username contains "bu1"', `${base}/user/list?page=10&size=10&username=bu1`],
      ['users: page 10, orgName contains "医院", last 180 days', `${base}/user/list?page=10&size=10&orgName=${encodeURIComponent('医院')}&from=${day(180)}&to=${day(0)}`],
      ['users: phone contains "0004321" (few matches)', `${base}/user/list?page=1&size=10&phone=0004321`],
      ['audit: ADMIN operations, page 10', `${base}/audit/operation-records?realm=ADMIN&page=10&size=10`],
      ['audit: ADMIN, action=user:disable, page 10', `${base}/audit/operation-records?realm=ADMIN&action=user:disable&page=10&size=10`],
      ['audit: ADMIN, action prefix "account:", last 7 days', `${base}/audit/operation-records?realm=ADMIN&action=account:&from=${day(7)}&to=${day(0)}&page=10&size=10`],
      ['audit: ADMIN, username contains "op3", page 10', `${base}/audit/operation-records?realm=ADMIN&username=op3&page=10&size=10`],
      ['audit: ADMIN, result=FAILURE, page 10', `${base}/audit/operation-records?realm=ADMIN&result=FAILURE&page=10&size=10`],
    ];

    // Every case must answer 200 with a page before it is timed.
    for (const [name, url] of cases) {
      const page = await call<{ total: number; list: unknown[] }>(url, { token });
      console.log(`${name}: total ${page.total}, ${page.list.length} rows`);
    }

    if (process.env.EXPLAIN === '1') await explain(db);

    const figures: Figures[] = [];
    for (const [name, url] of cases) {
      figures.push(await measure(name, { url, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, duration: DURATION }));
    }
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up; database ${bench.kind}; ${USERS} users, ${RECORDS} operation records\n`);
    console.table(figures.map((f) => figureRow(f, 'case', { 'p99 < 50': f.p99 < TARGET_P99_MS ? 'yes' : 'NO' })));
    if (dirty(figures)) console.log('WARNING: errors or non-2xx answers: the figures above are not clean');
  } finally {
    // autocannon stops with requests in flight: let them finish before the pool closes.
    await bench.close(1000);
  }
}

/** Plans of the heaviest list queries, as the repositories issue them (page 10). */
async function explain(db: Db): Promise<void> {
  const plans: Array<[string, ReturnType<typeof sql>]> = [
    [
      'users page 10',
      sql`explain analyze select a.id from accounts a left join teams t on t.owner_id = a.id where a.realm = 'USER' order by a.created_at desc, a.id asc limit 10 offset 90`,
    ],
    ['users count', sql`explain analyze select count(*) from accounts a left join teams t on t.owner_id = a.id where a.realm = 'USER'`],
    [
      'audit page 10',
      sql`explain analyze select * from operation_records where realm = 'ADMIN' order by created_at desc, id desc limit 10 offset 90`,
    ],
    ['audit count', sql`explain analyze select count(*) from operation_records where realm = 'ADMIN'`],
  ];
  for (const [name, query] of plans) {
    const result = (await db.execute(query)) as unknown as { rows: Array<Record<string, string>> };
    console.log(`\n-- ${name}\n${result.rows.map((r) => Object.values(r)[0]).join('\n')}`);
  }
}

runMain(main);
