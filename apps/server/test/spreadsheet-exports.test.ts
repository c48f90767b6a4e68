import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { accounts, dictItems, scoreSheets, teams } from '../src/db/schema.js';
import { appendScoreLog } from '../src/modules/score-log/score-log.js';
import { seedDictionary, withContest } from './contest-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { seedExperts, seedGroup, seedProjects } from './review-helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * docs/security.md: spreadsheet exports never hold a cell a spreadsheet program would run as a
 * formula (docs/security.md, "Spreadsheet exports"). Every .xlsx the server hands out is found
 * in the route table, fetched with data whose text starts with =, +, -, @, tab or CR, and read
 * back with ExcelJS: no formula cell, no text cell starting with such a character unquoted.
 */
let t: TestApp;
let admin: SignedIn;

const DANGEROUS = ['=HYPERLINK("http://example.com","x")', '+SUM(1,2)', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', '＝1+1'];
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/** Every GET that answers a spreadsheet; a new one joins this test by being listed here. */
const EXPORTS = [
  '/api/admin/user/export',
  '/api/admin/team/export',
  '/api/admin/prelim-doc/export',
  '/api/admin/final/export',
  '/api/admin/expert/export',
  '/api/admin/expert/import-template',
  '/api/admin/review/prelim/scores/export',
  '/api/admin/review/final/scores/export',
  '/api/admin/review/prelim/calibration/export',
  '/api/admin/review/final/calibration/export',
  '/api/admin/score-log/export',
];

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  const db = t.database.db;
  const [a, b, c, d, e, f, g] = DANGEROUS as [string, string, string, string, string, string, string];
  const projects = await seedProjects(t, [
    { projectName: a, orgName: b, final: true },
    { projectName: c, orgName: d, final: true },
    { projectName: e, orgName: f, final: true },
    { projectName: g, orgName: a },
  ]);
  // Team names and the owners' accounts (the user export) carry such text too.
  const owned = await db.select({ id: teams.id, ownerId: teams.ownerId }).from(teams).where(inArray(teams.orgName, [b, d, f, a]));
  for (const [i, row] of owned.entries()) {
    await db.update(teams).set({ teamName: DANGEROUS[i % DANGEROUS.length]! }).where(eq(teams.id, row.id));
    await db.update(accounts).set({ username: `${DANGEROUS[(i + 2) % DANGEROUS.length]!}${i}`, name: DANGEROUS[(i + 3) % DANGEROUS.length]! }).where(eq(accounts.id, row.ownerId));
  }
  const experts = await seedExperts(t, [{ name: a, organization: c }, { name: d, organization: e }]);
  await seedGroup(t, 'PRELIMINARY', experts.map((x) => x.accountId), projects);
  await seedGroup(t, 'FINAL', experts.map((x) => x.accountId), projects.slice(0, 3));
  // Submitted scores in both rounds: 评审质量's calibration export lists the experts who scored.
  for (const [round, list] of [['PRELIMINARY', projects], ['FINAL', projects.slice(0, 3)]] as const) {
    for (const [i, expert] of experts.entries()) {
      await db.insert(scoreSheets).values(
        list.map((prelimId, j) => ({ round, prelimId, expertId: expert.accountId, status: 'SUBMITTED' as const, scores: { innovation: 20, feasibility: 20, value: 20, completeness: 10 }, total: 140 + 2 * i * j, comment: '好', submittedAt: new Date() })),
      );
    }
  }
  // The expert template lists the tracks (dictionary names an admin may write).
  await db.update(dictItems).set({ name: b }).where(and(eq(dictItems.typeCode, 'TRACK'), eq(dictItems.code, 'SMART_SUPERVISION')));
  await db.transaction((tx) =>
    appendScoreLog(tx, { kind: 'SCORE_SUBMITTED', round: 'PRELIMINARY', subjectType: 'score_sheet', subjectId: projects[0]!, actor: { id: experts[0]!.accountId, name: a }, payload: { note: c } }),
  );
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
});
afterAll(async () => t?.close());

describe('spreadsheet exports', () => {
  it('lists every route that answers a spreadsheet', () => {
    const gets = t.app.routeTable.filter((r) => r.method === 'GET' || (Array.isArray(r.method) && r.method.includes('GET'))).map((r) => r.url);
    const looksLikeExport = gets.filter((url) => /\/(export|import-template)$/.test(url));
    expect(new Set(looksLikeExport)).toEqual(new Set(EXPORTS));
  });

  it.each(EXPORTS)('%s holds no formula and quotes text that would start one', async (url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    let quoted = 0;
    const problems: string[] = [];
    workbook.eachSheet((sheet) =>
      sheet.eachRow((row) =>
        row.eachCell((cell) => {
          if (cell.type === ExcelJS.ValueType.Formula || cell.formula) problems.push(`${sheet.name}!${cell.address} is a formula`);
          if (typeof cell.value === 'string') {
            if (FORMULA_START.test(cell.value)) problems.push(`${sheet.name}!${cell.address} starts a formula: ${JSON.stringify(cell.value)}`);
            if (cell.value.startsWith("'") && FORMULA_START.test(cell.value.slice(1))) quoted++;
          }
        }),
      ),
    );
    expect(problems).toEqual([]);
    // The seeded text did reach this export (quoted), so the check above saw it.
    expect(quoted).toBeGreaterThan(0);
  });
});
