/**
 * Expert review algorithms (docs/rules/review.md), pure functions of packages/shared, no database:
 * - automatic assignment: PROJECTS (default 10 000) projects to EXPERTS (300) experts in GROUPS
 *   (30) groups over 8 tracks, with organisations shared between teams and experts so a few
 *   percent of the pairs are conflicts of interest (codes, names written differently, declared);
 * - aggregation and ranking: PROJECTS projects x SHEETS (7) submitted sheets of 4 criteria,
 *   under the z-score rule (the costliest: expert statistics first) and the default rule.
 * Each case runs RUNS (default 7) times after 2 warm-up runs; min / median / max are printed,
 * with the target: median under TARGET_MS (default 1000). Exits 1 when a median misses it.
 *
 *   npm run bench:review-algorithms      (PROJECTS=20000 RUNS=11 to change the size)
 */
import {
  aggregateRound,
  assignProjects,
  seededUnitRandom,
  type AggregateInput,
  type AssignGroup,
  type AssignInput,
  type AssignProject,
  type Criterion,
  type OrgRef,
  type ProjectScores,
  type ScoringRule,
} from '@contest/shared';
import { runMain } from './support/run.js';
import { load } from './support/report.js';

const PROJECTS = Number(process.env.PROJECTS ?? 10_000);
const EXPERTS = Number(process.env.EXPERTS ?? 300);
const GROUPS = Number(process.env.GROUPS ?? 30);
const SHEETS = Number(process.env.SHEETS ?? 7);
const RUNS = Number(process.env.RUNS ?? 7);
const TARGET_MS = Number(process.env.TARGET_MS ?? 1000);
const TRACKS = ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8'];
const ORG_COUNT = 2_000;

/** mulberry32: the same data on every run. */
function rng(seed: number) {
  const next = seededUnitRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int };
}

const r = rng(2025);
const code = (i: number) => `91110000${String(i).padStart(9, '0')}X`;
/** One organisation written one of the ways teams and experts really write it. */
function orgRef(i: number): OrgRef {
  const base = `北京第${i}医疗科技`;
  switch (r.int(0, 3)) {
    case 0:
      return { name: `${base}有限公司`, creditCode: code(i) };
    case 1:
      return { name: `${base}（有限公司）` };
    case 2:
      return { name: ` ${base}有限责任公司 `, creditCode: r.next() < 0.5 ? code(i) : null };
    default:
      return { name: `${base}股份有限公司` };
  }
}

function assignInput(): AssignInput {
  const perGroup = Math.ceil(EXPERTS / GROUPS);
  const groups: AssignGroup[] = Array.from({ length: GROUPS }, (_, g) => ({
    id: `group-${String(g).padStart(3, '0')}`,
    name: `第${g + 1}组`,
    load: 0,
    // Each group covers 2 of the 8 tracks, so every track has several groups to spread over.
    experts: Array.from({ length: perGroup }, (_, e) => ({
      id: `expert-${String(g * perGroup + e).padStart(4, '0')}`,
      name: `专家${g * perGroup + e}`,
      tracks: [TRACKS[g % TRACKS.length]!, TRACKS[(g + 3) % TRACKS.length]!],
      orgs: { own: orgRef(r.int(0, ORG_COUNT - 1)), declared: r.next() < 0.3 ? [orgRef(r.int(0, ORG_COUNT - 1))] : [] },
    })),
  }));
  const projects: AssignProject[] = Array.from({ length: PROJECTS }, (_, i) => ({
    id: `project-${String(i).padStart(6, '0')}`,
    name: `项目${i}`,
    track: TRACKS[r.int(0, TRACKS.length - 1)]!,
    org: orgRef(r.int(0, ORG_COUNT - 1)),
  }));
  return { groups, projects, minExperts: 5, trackNames: Object.fromEntries(TRACKS.map((t) => [t, `方向${t}`])) };
}

const CRITERIA: Criterion[] = [
  { key: 'innovation', name: '创新性', description: '', max: 25 },
  { key: 'feasibility', name: '可行性', description: '', max: 25 },
  { key: 'value', name: '应用价值', description: '', max: 30 },
  { key: 'completeness', name: '完整性', description: '', max: 20 },
];

function aggregateInput(rule: ScoringRule): AggregateInput {
  const projects: ProjectScores[] = Array.from({ length: PROJECTS }, (_, i) => {
    const first = r.int(0, EXPERTS - 1);
    return {
      projectId: `project-${String(i).padStart(6, '0')}`,
      track: TRACKS[i % TRACKS.length]!,
      expected: SHEETS,
      // A project with no sheets yet now and then, as mid-round.
      sheets:
        i % 97 === 0
          ? []
          : Array.from({ length: SHEETS }, (_, k) => {
              const scores = Object.fromEntries(CRITERIA.map((c) => [c.key, r.int(c.max, c.max * 2) / 2]));
              return { expertId: `expert-${String((first + k * 37) % EXPERTS).padStart(4, '0')}`, total: Object.values(scores).reduce((s, v) => s + v, 0), scores };
            }),
    };
  });
  return { projects, criteria: CRITERIA, rule, divergenceThreshold: 20 };
}

interface Figures {
  case: string;
  'min ms': number;
  'median ms': number;
  'max ms': number;
  [target: string]: string | number;
}

function time(name: string, fn: () => unknown, check: () => string): Figures {
  fn();
  fn();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const median = ms[ms.length >> 1]!;
  const f = (n: number) => Math.round(n * 10) / 10;
  return { case: name, 'min ms': f(ms[0]!), 'median ms': f(median), 'max ms': f(ms[ms.length - 1]!), [`median < ${TARGET_MS} ms`]: median < TARGET_MS ? 'yes' : 'NO', result: check() };
}

function main(): void {
  console.log(`load average before: ${load()}`);
  const assign = assignInput();
  const zscore = aggregateInput({ aggregate: 'ZSCORE', minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] });
  const trimmed: AggregateInput = { ...zscore, rule: { ...zscore.rule, aggregate: 'TRIMMED_MEAN' } };

  const figures = [
    time(
      `assignProjects: ${PROJECTS} projects, ${EXPERTS} experts, ${GROUPS} groups`,
      () => assignProjects(assign),
      () => {
        const out = assignProjects(assign);
        const loads = out.loads.map((l) => l.after);
        const conflicts = out.placements.reduce((n, p) => n + p.conflicts.length, 0);
        return `${out.placements.length} placed, ${out.problems.length} reported, ${conflicts} conflicts, loads ${Math.min(...loads)}-${Math.max(...loads)}`;
      },
    ),
    time(
      `aggregateRound ZSCORE: ${PROJECTS} x ${SHEETS} sheets`,
      () => aggregateRound(zscore),
      () => {
        const out = aggregateRound(zscore);
        return `${out.projects.filter((p) => p.rank !== null).length} ranked, ${out.projects.filter((p) => p.divergent).length} divergent`;
      },
    ),
    time(
      `aggregateRound TRIMMED_MEAN: ${PROJECTS} x ${SHEETS} sheets`,
      () => aggregateRound(trimmed),
      () => `${aggregateRound(trimmed).projects.filter((p) => p.decidedBy !== null).length} ties broken or equal`,
    ),
  ];
  console.table(figures);
  console.log(`load average after: ${load()}`);
  if (figures.some((f) => f[`median < ${TARGET_MS} ms`] === 'NO')) process.exitCode = 1;
}

runMain(main);
