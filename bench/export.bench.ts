/**
 * Export benchmark: ROWS (default 20 000) rows of 20 columns streamed through the .xlsx helper
 * (apps/server/src/lib/xlsx-stream.ts), read in batches of 1 000 as from a database, to a null
 * sink, to a file, and to a slow client (SLOW_MBPS, default 0.5 MB/s: slower than the writer,
 * so the client sets the pace). Each scenario runs in processes of its own so its memory is
 * measured alone, after a warm-up export of WARM_UP_ROWS (5 000), as in a running server:
 * - peak RSS growth: RSS sampled every 50 ms, the garbage collector left alone (so it includes
 *   garbage not yet collected);
 * - peak retained: live heap + buffers after a forced full GC every 250 ms (a second run), what
 *   the export actually holds.
 * Printed with the time and the file size. Target: RSS flat, growth well under 100 MB.
 *
 *   node --import tsx bench/export.bench.ts
 *   ROWS=100000 SLOW_MBPS=1 node --import tsx bench/export.bench.ts
 *
 * Besides the helper, two reference runs: `naive` writes like the first users export did
 * (every row added at once, backpressure ignored) to the same slow client, which is what the
 * helper's waiting saves; `db` is the registered-users export path (PGlite in memory, ROWS
 * users, keyset batches of the users repository, its 10 columns) to the null sink.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { USER_EXPORT_COLUMNS } from '@contest/shared';
import { openDatabase } from '../apps/server/src/db/client.js';
import { runMigrations } from '../apps/server/src/db/migrate.js';
import { createUserRepository, type UserListRow } from '../apps/server/src/modules/admin/users/users.repository.js';
import { batches, beijingTime, rowsOf, writeXlsx, type XlsxColumn, type XlsxSheet } from '../apps/server/src/lib/xlsx-stream.js';
import { runMain } from './support/run.js';
import { MB, sampleMemory } from './support/memory.js';
import { seedParticipants } from './support/seed.js';

const ROWS = Number(process.env.ROWS ?? 20_000);
const BATCH = 1000;
const WARM_UP_ROWS = Number(process.env.WARM_UP_ROWS ?? 5000);
const SLOW_MBPS = Number(process.env.SLOW_MBPS ?? 0.5);
const TARGET_GROWTH_MB = 100;

const SCENARIOS = ['null', 'file', 'slow', 'naive', 'db'] as const;
type Scenario = (typeof SCENARIOS)[number];

// ---- The rows: 20 columns, as wide as a team sign-up export ----------------------------------

const COLUMNS: XlsxColumn[] = [
  'teamName', 'orgName', 'orgType', 'creditCode', 'region', 'city', 'track', 'leaderName', 'leaderTitle', 'leaderPhone',
  'leaderEmail', 'memberCount', 'advisor', 'status', 'auditReason', 'submittedAt', 'auditedAt', 'username', 'createdAt', 'updatedAt',
].map((key) => ({ header: key, key, width: 20 }));

const REGIONS = ['北京市', '上海市', '广东省', '湖北省', '四川省', '浙江省'];
const STATUSES = ['草稿', '已提交', '审核通过', '退回修改', '审核不通过'];

function makeRow(i: number): Record<string, unknown> {
  const t = new Date(Date.UTC(2025, 4, 1) + i * 61_000);
  return {
    teamName: `智慧医保创新团队${i}`,
    orgName: `${REGIONS[i % 6]}第${(i % 97) + 1}人民医院医保信息中心`,
    orgType: ['医院', '医保局', '高校', '企业'][i % 4],
    creditCode: `91110000${String(100000000 + i * 7919).slice(-9)}X`,
    region: REGIONS[i % 6],
    city: `城市${i % 300}`,
    track: ['智能监管', '支付方式改革', '公共服务', '数据治理'][i % 4],
    leaderName: `负责人${i}`,
    leaderTitle: ['主任医师', '副教授', '高级工程师'][i % 3],
    leaderPhone: `139${String(i).padStart(8, '0')}`,
    leaderEmail: `leader${i}@example-hospital.cn`,
    memberCount: 3 + (i % 8),
    advisor: i % 3 ? `导师${i} / 某某大学 / 教授 / 1380000${String(i % 10000).padStart(4, '0')}` : '',
    status: STATUSES[i % 5],
    auditReason: i % 5 === 3 ? `材料不完整：请补充第 ${i % 7} 项证明文件` : '',
    submittedAt: beijingTime(t),
    auditedAt: i % 2 ? beijingTime(new Date(t.getTime() + 86_400_000)) : '',
    username: `user${i}`,
    createdAt: beijingTime(new Date(t.getTime() - 3_600_000)),
    updatedAt: beijingTime(t),
  };
}

/** Batches of 1 000 with a turn of the event loop each, as a database read gives. */
function sourceRows(): AsyncIterable<Record<string, unknown>> {
  const fetch = async (offset: number, limit: number) => {
    await new Promise((resolve) => setImmediate(resolve));
    return Array.from({ length: limit }, (_, k) => makeRow(offset + k));
  };
  return rowsOf(batches(fetch, ROWS, BATCH), (r) => r);
}

// ---- Sinks ----------------------------------------------------------------------------------

const nullSink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

/** A client reading `mbps` MB/s: each chunk is acknowledged after the time it takes to arrive. */
const slowSink = (mbps: number) =>
  new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _enc, done) {
      setTimeout(done, (chunk.length / (mbps * MB)) * 1000);
    },
  });

/** The first users export's way: every row added as it comes, backpressure ignored. */
function naiveXlsx(sheets: XlsxSheet[]): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  void (async () => {
    try {
      for (const s of sheets) {
        const sheet = workbook.addWorksheet(s.name);
        sheet.columns = s.columns.map((c) => ({ ...c }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        for await (const row of s.rows) sheet.addRow(row).commit();
        sheet.commit();
      }
      await workbook.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

// ---- The registered-users path, for the database reads ------------------------------------

async function usersExport(): Promise<{ stream: Readable; close(): Promise<void> }> {
  const database = await openDatabase({ databaseUrl: 'memory://', dataDir: tmpdir() });
  await runMigrations(database);
  const db = database.db;
  await seedParticipants(db, {
    count: ROWS,
    prefix: 'bu',
    namePrefix: '用户',
    phonePrefix: '13',
    passwordHash: 'x',
    enabled: sql`g % 50 <> 0`,
    createdAt: sql`now() - (g * interval '10 minutes') - (g % 7) * interval '1 microsecond'`,
  });
  await db.execute(sql`
    insert into teams (owner_id, status, org_name, track, team_name)
    select id, 'SUBMITTED', '协和医院' || (n % 400), 'PAYMENT_REFORM', '团队' || n
    from (select id, row_number() over (order by created_at) as n from accounts where realm = 'USER') s
    where n % 5 <> 0`);
  await db.execute(sql`analyze`);
  const repo = createUserRepository(db);
  const total = await repo.count({}, true);
  const read = batches((offset, limit, last: UserListRow | undefined) => repo.batch({}, true, offset, limit, last), total, BATCH);
  const stream = writeXlsx([
    {
      name: '注册用户',
      columns: USER_EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 20 })),
      rows: rowsOf(read, (r) => ({
        username: r.username,
        name: r.name ?? '',
        phone: r.phone ?? '',
        email: r.email ?? '',
        orgName: r.orgName ?? '',
        teamName: r.teamName ?? '',
        teamStatus: r.teamStatus ?? '未报名',
        enabled: r.enabled ? '正常' : '已禁用',
        createdAt: beijingTime(r.createdAt),
        lastLoginAt: beijingTime(r.lastLoginAt),
      })),
    },
  ]);
  return { stream, close: () => database.close() };
}

// ---- One scenario, in its own process ----------------------------------------------------

interface Figures {
  scenario: Scenario;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  fileMB: number;
  baseRssMB: number;
  peakGrowthMB: number;
  /** Peak growth of live heap + buffers (after a GC), from the run with EXPORT_BENCH_MEASURE=retained. */
  peakRetainedMB: number;
}

async function runScenario(scenario: Scenario): Promise<Figures> {
  // Warm-up outside the measure, as in a server that has been running: modules, JIT, and V8's
  // young generation grown to its working size (by itself some 30-40 MB of RSS that any
  // allocation-heavy request causes once, not memory the export holds).
  await pipeline(writeXlsx([{ name: 'w', columns: COLUMNS, rows: Array.from({ length: WARM_UP_ROWS }, (_, i) => makeRow(i)) }]), nullSink());
  let db: Awaited<ReturnType<typeof usersExport>> | undefined;
  if (scenario === 'db') db = await usersExport(); // seeding is not measured; the stream has not started reading
  global.gc?.();
  // Retained: heap and buffers still referenced, after a full GC every 250 ms (own run, as the
  // collections change what RSS shows); RSS: every 50 ms, the collector left alone.
  const retained = process.env.EXPORT_BENCH_MEASURE === 'retained';
  const live = () => {
    global.gc!();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  // Retained is sampled during the export only, as the scenario's own objects are still in scope at its end.
  const sampler = retained ? sampleMemory(250, live, { endInPeak: false }) : sampleMemory(50);
  const dir = mkdtempSync(join(tmpdir(), 'export-bench-'));
  const file = join(dir, 'export.xlsx');
  let bytes = 0;
  const counting = (sink: Writable) =>
    new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, enc, done) {
        bytes += chunk.length;
        if (sink.write(chunk, enc)) done();
        else sink.once('drain', done);
      },
      final(done) {
        sink.end(done);
      },
    });
  const start = performance.now();
  let memory;
  try {
    const sheets = () => [{ name: '报名信息', columns: COLUMNS, rows: sourceRows() }];
    if (scenario === 'null') await pipeline(writeXlsx(sheets()), counting(nullSink()));
    if (scenario === 'file') await pipeline(writeXlsx(sheets()), counting(createWriteStream(file)));
    if (scenario === 'slow') await pipeline(writeXlsx(sheets()), counting(slowSink(SLOW_MBPS)));
    if (scenario === 'naive') await pipeline(naiveXlsx(sheets()), counting(slowSink(SLOW_MBPS)));
    if (scenario === 'db') await pipeline(db!.stream, counting(nullSink()));
  } finally {
    memory = sampler.stop();
    await db?.close();
  }
  const seconds = (performance.now() - start) / 1000;
  if (scenario === 'file' && statSync(file).size !== bytes) throw new Error('file size differs from the bytes streamed');
  rmSync(dir, { recursive: true, force: true });
  return {
    scenario,
    rows: ROWS,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(ROWS / seconds),
    fileMB: Number((bytes / MB).toFixed(2)),
    baseRssMB: retained ? 0 : Math.round(memory.base / MB),
    peakGrowthMB: retained ? 0 : Number(((memory.peak - memory.base) / MB).toFixed(1)),
    peakRetainedMB: retained ? Number(((memory.peak - memory.base) / MB).toFixed(1)) : 0,
  };
}

async function main(): Promise<void> {
  const only = process.env.EXPORT_BENCH_SCENARIO as Scenario | undefined;
  if (only) {
    process.stdout.write(`${JSON.stringify(await runScenario(only))}\n`);
    return;
  }
  const self = fileURLToPath(import.meta.url);
  const run = (scenario: Scenario, measure: 'rss' | 'retained'): Figures => {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self], {
      env: { ...process.env, EXPORT_BENCH_SCENARIO: scenario, EXPORT_BENCH_MEASURE: measure },
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    });
    if (child.status !== 0) throw new Error(`${scenario} failed:\n${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Figures;
  };
  const figures: Figures[] = [];
  for (const scenario of SCENARIOS) {
    figures.push({ ...run(scenario, 'rss'), peakRetainedMB: run(scenario, 'retained').peakRetainedMB });
  }
  console.log(`\n.xlsx export: ${ROWS} rows (20 columns; db: the users export's 10), batches of ${BATCH}; slow client ${SLOW_MBPS} MB/s; node ${process.version}\n`);
  console.table(
    figures.map((f) => ({
      scenario: f.scenario,
      'time (s)': f.seconds,
      'rows/s': f.rowsPerSecond,
      'file (MB)': f.fileMB,
      'base RSS (MB)': f.baseRssMB,
      'peak RSS growth (MB)': f.peakGrowthMB,
      'peak retained (MB)': f.peakRetainedMB,
      [`growth < ${TARGET_GROWTH_MB} MB`]: f.scenario === 'naive' ? '(reference)' : f.peakGrowthMB < TARGET_GROWTH_MB ? 'yes' : 'NO',
    })),
  );
}

runMain(main);
