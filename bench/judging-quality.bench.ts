/**
 * Judging quality (docs/rules/judging-quality.md), pure functions of packages/shared, no database:
 * - confidence on the cut: PROJECTS (default 10 000) projects x SHEETS (7) submitted totals from
 *   EXPERTS (300) experts over 6 tracks, ROUNDS (2 000) bootstrap draws, top N = 10% of the
 *   projects, under each aggregate (the target: under TARGET_MS, default 10 000, each);
 * - calibration and the normalisation effect on the same round (under 1 s each).
 * One run of each after a warm-up of 50 draws; the load average is printed before and after, as
 * the figures move with it. Exits 1 when a target is missed.
 *
 *   npm run bench:judging-quality      (PROJECTS=20000 ROUNDS=5000 to change the size)
 */
import { calibrate, cutConfidence, normalisationEffect, seededUnitRandom, type ProjectScores, type ScoringRule } from '@contest/shared';
import { runMain } from './support/run.js';
import { load } from './support/report.js';

const PROJECTS = Number(process.env.PROJECTS ?? 10_000);
const EXPERTS = Number(process.env.EXPERTS ?? 300);
const SHEETS = Number(process.env.SHEETS ?? 7);
const ROUNDS = Number(process.env.ROUNDS ?? 2_000);
const TARGET_MS = Number(process.env.TARGET_MS ?? 10_000);
const TRACKS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'];

/** The same data on every run: the shared generator, as a fraction in [0, 1). */
const rng = seededUnitRandom;

/** Each project has a quality; each expert a leniency; a total is both plus noise, in 0.5 steps. */
function round(): ProjectScores[] {
  const random = rng(2025);
  const leniency = Array.from({ length: EXPERTS }, () => (random() - 0.5) * 12);
  return Array.from({ length: PROJECTS }, (_, i) => {
    const quality = 45 + random() * 45;
    const first = Math.floor(random() * EXPERTS);
    return {
      projectId: `p${i}`,
      track: TRACKS[i % TRACKS.length]!,
      expected: SHEETS,
      sheets: Array.from({ length: SHEETS }, (_, j) => {
        const e = (first + j * 37) % EXPERTS;
        const total = Math.min(100, Math.max(0, Math.round((quality + leniency[e]! + (random() - 0.5) * 16) * 2) / 2));
        return { expertId: `e${e}`, total, scores: { c: total } };
      }),
    };
  });
}

function main(): void {
  console.log(`load average before: ${load()}`);
  const projects = round();
  const topN = Math.round(PROJECTS / 10);
  const rows: Record<string, string | number>[] = [];
  let failed = false;
  for (const aggregate of ['TRIMMED_MEAN', 'MEAN', 'MEDIAN', 'ZSCORE'] as const) {
    const rule: ScoringRule = { aggregate, minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] };
    cutConfidence({ projects, rule, topN, seed: 1, rounds: 50 });
    const start = performance.now();
    const r = cutConfidence({ projects, rule, topN, seed: 20251128, rounds: ROUNDS });
    const ms = performance.now() - start;
    const onCut = r.projects.filter((p) => p.onCutOverall).length;
    failed ||= ms >= TARGET_MS;
    rows.push({ case: `cut confidence, ${aggregate}`, ms: Math.round(ms), [`< ${TARGET_MS} ms`]: ms < TARGET_MS ? 'yes' : 'NO', 'on the cut (overall)': onCut, 'heap MB': Math.round(process.memoryUsage().heapUsed / 2 ** 20) });
  }
  const rule: ScoringRule = { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] };
  for (const [name, fn] of [
    ['calibration', () => calibrate(projects).experts.filter((e) => e.flags.length > 0).length],
    ['normalisation effect', () => normalisationEffect({ projects, criteria: [{ key: 'c', name: 'c', description: '', max: 100 }], rule, divergenceThreshold: 20 }, { topN, perTrack: false }).moves.length],
  ] as const) {
    const start = performance.now();
    const result = fn();
    const ms = performance.now() - start;
    failed ||= ms >= 1000;
    rows.push({ case: name, ms: Math.round(ms), [`< ${TARGET_MS} ms`]: ms < 1000 ? 'yes (< 1000)' : 'NO (< 1000)', 'on the cut (overall)': `${result} flagged/moved`, 'heap MB': Math.round(process.memoryUsage().heapUsed / 2 ** 20) });
  }
  console.log(`${PROJECTS} projects x ${SHEETS} sheets, ${EXPERTS} experts, ${ROUNDS} draws, top ${topN}`);
  console.table(rows);
  console.log(`load average after: ${load()}`);
  if (failed) process.exitCode = 1;
}

runMain(main);
