/**
 * Score query (成绩查询) benchmark (docs/performance.md, "Expert review"): a national preliminary round of PROJECTS (default
 * 10 000) approved projects in 43 review groups of 300 experts (7 a group, one of 6), every
 * project scored by each expert of its group (about 70 000 submitted sheets with comments),
 * through the real app (buildApp, super-admin token) on the embedded database:
 * - GET /api/admin/review/prelim/scores?page=1&size=50 at CONNECTIONS concurrent clients
 *   (autocannon, p50/p99): every call aggregates and ranks the whole round (snapshot of the
 *   round, every submitted sheet, trimmed mean, z-scores, the tie-break chain) before paging;
 * - one full export GET /api/admin/review/prelim/scores/export (sheets 汇总 and 专家评分): time,
 *   first byte, bytes, rows, and the RSS of this process (the app runs in it) sampled every 50 ms.
 *
 *   node --import tsx bench/review.bench.ts
 *   PROJECTS=2000 DURATION=5 node --import tsx bench/review.bench.ts
 *
 * DURATION (s, default 10), CONNECTIONS (default 4: each call is heavy, more clients only queue).
 * The figures are those of one machine at one moment: the load average is printed with them.
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client.js';
import { seedAtStartup } from '../apps/server/src/startup.js';
import { startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { count, hashed } from './support/db.js';
import { call } from './support/http.js';
import { measure } from './support/measure.js';
import { load, markdown } from './support/report.js';
import { benchAdmin, seedParticipants } from './support/seed.js';
import { downloadXlsx } from './support/xlsx.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const PROJECTS = Number(process.env.PROJECTS ?? 10_000);
const EXPERTS = 300;
const GROUPS = 43;

// ---- Seeding: one INSERT ... SELECT per table, no row crosses the wire ------------------------

async function seedRound(db: Db): Promise<void> {
  const t = Date.now();
  const tracks = sql.raw(`array['SMART_SUPERVISION','PAYMENT_REFORM','PUBLIC_SERVICE','DATA_GOVERNANCE','PRICING_PROCUREMENT','OTHER_INNOVATION']::text[]`);
  await seedParticipants(db, { count: PROJECTS, prefix: 'rb', namePrefix: '参赛者', passwordHash: 'x', createdAt: sql`now() - interval '90 days'` });
  await db.execute(sql`
    insert into teams (owner_id, status, org_name, track, team_name, submitted_at, audited_at)
    select id, 'APPROVED', '第' || n || '人民医院医保信息中心', (${tracks})[1 + ${hashed('n', 1, 6)}], '智慧医保创新团队' || n, now() - interval '60 days', now() - interval '50 days'
    from (select id, row_number() over (order by username)::bigint as n from accounts where username like 'rb%') a`);
  await db.execute(sql`
    insert into prelim_docs (team_id, owner_id, status, project_name, track, summary, keywords, submitted_at, audited_at)
    select id, owner_id, 'APPROVED', '基于人工智能的医保基金智能监管项目' || substr(team_name, 9), track, '项目简介', '["医保","监管"]'::jsonb,
           now() - interval '40 days', now() - interval '30 days'
    from teams`);
  // Experts E0001..E0300 in 43 groups by number (group k holds experts k, k+43, ...: 7 each, the last 6).
  await db.execute(sql`
    insert into accounts (realm, username, code, name, phone, role_code, password_hash, enabled, agreed_at, created_at, updated_at)
    select 'EXPERT', 'rbe' || g, 'E' || lpad(g::text, 4, '0'), '专家' || g, '136' || lpad(g::text, 8, '0'), 'EXPERT', 'x', true, now(), now(), now()
    from generate_series(1, ${EXPERTS}) g`);
  await db.execute(sql`
    insert into expert_profiles (account_id, organization, title, tracks)
    select id, '医学院第' || substr(code, 2) || '研究所', '教授', '["SMART_SUPERVISION","PAYMENT_REFORM","PUBLIC_SERVICE"]'::jsonb from accounts where realm = 'EXPERT' and username like 'rbe%'`);
  await db.execute(sql`insert into expert_conflicts (account_id, declared_orgs) select id, '[]'::jsonb from accounts where realm = 'EXPERT' and username like 'rbe%'`);
  await db.execute(sql`
    insert into review_groups (round, name, sort) select 'PRELIMINARY', '第' || g || '组', g from generate_series(1, ${GROUPS}) g`);
  await db.execute(sql`
    insert into review_group_experts (group_id, round, expert_id)
    select g.id, 'PRELIMINARY', e.id
    from (select id, substr(code, 2)::int as n from accounts where realm = 'EXPERT' and username like 'rbe%') e
    join review_groups g on g.round = 'PRELIMINARY' and g.sort = 1 + (e.n - 1) % ${GROUPS}`);
  await db.execute(sql`
    insert into review_assignments (round, prelim_id, group_id, source, reason)
    select 'PRELIMINARY', d.id, g.id, 'AUTO', '按方向均衡分配'
    from (select id, row_number() over (order by id)::bigint as n from prelim_docs) d
    join review_groups g on g.round = 'PRELIMINARY' and g.sort = 1 + d.n % ${GROUPS}`);
  // Each expert of the group scores the project: criteria in 0.5 steps, total = their sum.
  await db.execute(sql`
    insert into score_sheets (round, prelim_id, expert_id, status, scores, total_half_points, comment, submitted_at, created_at, updated_at)
    select 'PRELIMINARY', prelim_id, expert_id, 'SUBMITTED',
           jsonb_build_object('innovation', i / 2.0, 'feasibility', f / 2.0, 'value', v / 2.0, 'completeness', c / 2.0),
           i + f + v + c,
           '项目思路清晰，数据来源可靠，建议进一步完善实施计划与推广方案。评分' || (i + f + v + c),
           now() - (h % 1000) * interval '1 minute', now() - interval '10 days', now() - (h % 1000) * interval '1 minute'
    from (
      select a.prelim_id, ge.expert_id, abs(hashtext(a.prelim_id::text || ge.expert_id::text)::bigint) as h,
             20 + ${hashed('abs(hashtext(a.prelim_id::text || ge.expert_id::text)::bigint)', 1, 31)} as i,
             20 + ${hashed('abs(hashtext(a.prelim_id::text || ge.expert_id::text)::bigint)', 2, 31)} as f,
             24 + ${hashed('abs(hashtext(a.prelim_id::text || ge.expert_id::text)::bigint)', 3, 37)} as v,
             16 + ${hashed('abs(hashtext(a.prelim_id::text || ge.expert_id::text)::bigint)', 4, 25)} as c
      from review_assignments a join review_group_experts ge on ge.group_id = a.group_id
      where a.round = 'PRELIMINARY'
    ) s`);
  await db.execute(sql`analyze`);
  const sheets = await count(db, sql`select count(*) as n from score_sheets`);
  console.log(`seeded ${PROJECTS} projects, ${EXPERTS} experts in ${GROUPS} groups, ${sheets} submitted sheets in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

async function main(): Promise<void> {
  const bench = await startBenchApp({ database: 'embedded', dirPrefix: 'contest-bench-review-', env: { REDIS_URL: '' } });
  try {
    await seedAtStartup(bench.app, false);
    const db = bench.db;
    await seedRound(db);
    const { token } = await benchAdmin(db);
    const base = `${await bench.listen()}/api/admin`;
    const url = `${base}/review/prelim/scores?page=1&size=50`;
    const headers = { authorization: `Bearer ${token}` };

    // One call alone first: it must answer a full page, and its time is the floor of the load figures.
    const singles: number[] = [];
    let first: { total: number; list: Array<{ rank: number | null }> } | undefined;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      first = await call<{ total: number; list: Array<{ rank: number | null }> }>(url, { token });
      singles.push(performance.now() - t0);
    }
    console.log(`scores page 1: total ${first!.total}, ${first!.list.length} rows, ranks ${first!.list[0]?.rank}..${first!.list.at(-1)?.rank}; single calls ${singles.map((s) => s.toFixed(0)).join(' / ')} ms`);

    const loadBefore = load();
    const r = await measure('GET /review/prelim/scores?page=1&size=50', { url, headers, connections: CONNECTIONS, duration: DURATION });
    const loadAfterList = load();
    const exp = await downloadXlsx(`${base}/review/prelim/scores/export`, token, join(bench.dataDir, 'scores.xlsx'));
    const [summaryRows = 0, sheetRows = 0] = exp.sheetRows;
    const loadAfterExport = load();
    const sheets = await count(db, sql`select count(*) as n from score_sheets where status = 'SUBMITTED'`);

    console.log(`\n## Review bench: ${bench.kind}, ${PROJECTS} projects, ${sheets} submitted sheets, ${EXPERTS} experts / ${GROUPS} groups\n`);
    console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up. Load average (1/5/15 min) before ${loadBefore}, after the list ${loadAfterList}, after the export ${loadAfterExport}.\n`);
    console.log(
      markdown(
        ['call', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'single call ms', 'errors', 'non-2xx'],
        [[r.name, r.rps.toFixed(2), r.p50, r.p99, r.max, singles.map((s) => s.toFixed(0)).join(' / '), r.errors, r.non2xx]],
      ),
    );
    console.log('');
    console.log(
      markdown(
        ['export', 'status', 'time s', 'first byte ms', 'bytes', 'rows (汇总 / 专家评分)', 'RSS before MB', 'RSS peak MB', 'RSS growth MB', 'RSS after MB'],
        [
          [
            'whole round',
            exp.status,
            exp.seconds.toFixed(2),
            exp.firstByteMs.toFixed(0),
            exp.bytes,
            `${summaryRows} / ${sheetRows}${summaryRows === PROJECTS && sheetRows === sheets ? '' : ` (expected ${PROJECTS} / ${sheets})`}`,
            exp.baseRssMb.toFixed(0),
            exp.peakRssMb.toFixed(0),
            (exp.peakRssMb - exp.baseRssMb).toFixed(0),
            exp.endRssMb.toFixed(0),
          ],
        ],
      ),
    );
    if (r.errors || r.non2xx || exp.status !== 200) console.log('WARNING: errors or non-2xx answers: the figures above are not clean');
  } finally {
    await bench.close(1000);
  }
}

runMain(main);
