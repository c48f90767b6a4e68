import { describe, expect, it } from 'vitest';
import { assignProjects, type AssignExpert, type AssignGroup, type AssignInput, type AssignProject, type AssignResult } from './assign.js';
import { conflictBetween, type OrgRef } from './organisation.js';

const expert = (id: string, tracks: string[], own: OrgRef = { name: `单位${id}` }, declared: OrgRef[] = []): AssignExpert => ({
  id,
  name: `专家${id}`,
  tracks,
  orgs: { own, declared },
});
const group = (id: string, experts: AssignExpert[], load = 0): AssignGroup => ({ id, name: `第${id}组`, experts, load });
const project = (id: string, track: string | null, org: OrgRef = { name: `团队单位${id}` }): AssignProject => ({ id, name: `项目${id}`, track, org });
const panel = (prefix: string, n: number, tracks: string[]) => Array.from({ length: n }, (_, i) => expert(`${prefix}${i + 1}`, tracks));

describe('assignProjects', () => {
  it('spreads the projects of a track evenly over the groups covering it, ties by group order', () => {
    const groups = [group('g1', panel('a', 3, ['AUDIT'])), group('g2', panel('b', 3, ['AUDIT'])), group('g3', panel('c', 3, ['FRAUD']))];
    const projects = ['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => project(id, 'AUDIT'));
    const r = assignProjects({ groups, projects, minExperts: 3, trackNames: { AUDIT: '智能审核' } });
    expect(r.problems).toEqual([]);
    expect(r.placements.map((p) => [p.projectId, p.groupId])).toEqual([
      ['p1', 'g1'],
      ['p2', 'g2'],
      ['p3', 'g1'],
      ['p4', 'g2'],
      ['p5', 'g1'],
    ]);
    expect(r.placements[1]).toEqual({ projectId: 'p2', groupId: 'g2', expected: 3, conflicts: [], reason: '方向「智能审核」由本组 3 名专家覆盖；本组当前负载最低（0 个项目）' });
    expect(r.loads).toEqual([
      { groupId: 'g1', before: 0, after: 3 },
      { groupId: 'g2', before: 0, after: 2 },
      { groupId: 'g3', before: 0, after: 0 },
    ]);
  });

  it('counts existing loads in the balance', () => {
    const groups = [group('g1', panel('a', 2, ['T']), 4), group('g2', panel('b', 2, ['T']), 1)];
    const r = assignProjects({ groups, projects: ['p1', 'p2', 'p3', 'p4'].map((id) => project(id, 'T')), minExperts: 1 });
    expect(r.loads).toEqual([
      { groupId: 'g1', before: 4, after: 5 },
      { groupId: 'g2', before: 1, after: 4 },
    ]);
  });

  it('lets any group take a project whose track no group covers, and says so', () => {
    const groups = [group('g1', panel('a', 2, ['AUDIT'])), group('g2', panel('b', 2, []))];
    const r = assignProjects({ groups, projects: [project('p1', 'DRUG'), project('p2', null)], minExperts: 2, trackNames: { DRUG: '药品监管' } });
    expect(r.placements.map((p) => p.groupId)).toEqual(['g1', 'g2']);
    expect(r.placements[0]!.reason).toBe('没有评审组覆盖方向「药品监管」，可分入任一评审组；本组当前负载最低（0 个项目）');
    expect(r.placements[1]!.reason).toBe('项目未填写方向，可分入任一评审组；本组当前负载最低（0 个项目）');
  });

  it('falls back to the track code when no name is given', () => {
    const r = assignProjects({ groups: [group('g1', panel('a', 1, ['AUDIT']))], projects: [project('p1', 'AUDIT')], minExperts: 1 });
    expect(r.placements[0]!.reason).toBe('方向「AUDIT」由本组 1 名专家覆盖');
  });

  it('leaves conflicted experts out of the expected count and lists them with the cause', () => {
    const org = { name: '某某医疗科技有限公司', creditCode: '91110000100000000A' };
    const g1 = group('g1', [expert('a1', ['T'], org), expert('a2', ['T']), expert('a3', ['T'], { name: '甲' }, [{ name: '某某医疗科技' }])]);
    const g2 = group('g2', panel('b', 2, ['T']));
    const r = assignProjects({ groups: [g1, g2], projects: [project('p1', 'T', { name: '某某医疗科技（有限公司）', creditCode: '91110000100000000A' })], minExperts: 1 });
    // g1 and g2 both have 1 or more left; g1 wins on group order at equal loads.
    const p = r.placements[0]!;
    expect(p.groupId).toBe('g1');
    expect(p.expected).toBe(1);
    expect(p.conflicts.map((c) => [c.expertId, c.expertName, c.cause.kind, c.cause.via])).toEqual([
      ['a1', '专家a1', 'CREDIT_CODE', 'OWN'],
      ['a3', '专家a3', 'NAME', 'DECLARED'],
    ]);
    expect(p.reason).toBe('方向「T」由本组 3 名专家覆盖；本组当前负载最低（0 个项目）；回避 2 名专家，预计 1 份评分');
  });

  it('skips a group that would fall below the minimum and says why', () => {
    const org = { name: '某某公司' };
    const g1 = group('g1', [expert('a1', ['T'], org), expert('a2', ['T']), expert('a3', ['T'])]);
    const g2 = group('g2', panel('b', 3, ['T']), 5);
    const r = assignProjects({ groups: [g1, g2], projects: [project('p1', 'T', { name: '某某' })], minExperts: 3 });
    expect(r.placements[0]!.groupId).toBe('g2');
    expect(r.placements[0]!.reason).toBe('方向「T」由本组 3 名专家覆盖；其他可选评审组回避后专家少于 3 名');
  });

  it('reports a project no group can take with enough experts, naming the best group', () => {
    const conflicted = { name: '某某公司' };
    const g1 = group('g1', [expert('a1', ['T'], conflicted), expert('a2', ['T']), expert('a3', ['T'])]);
    const g2 = group('g2', [expert('b1', ['T'], conflicted), expert('b2', ['T'], conflicted), expert('b3', ['T'])]);
    const g3 = group('g3', panel('c', 9, ['OTHER']));
    const r = assignProjects({ groups: [g1, g2, g3], projects: [project('p1', 'T', { name: '某某' })], minExperts: 5, trackNames: { T: '智能审核' } });
    // g3 has 9 experts but does not cover the track: the project is reported, not sent there.
    expect(r.placements).toEqual([]);
    expect(r.problems).toEqual([{ projectId: 'p1', code: 'TOO_FEW_EXPERTS', reason: '覆盖方向「智能审核」的评审组回避后最多只有 2 名专家（第g1组），少于最低 5 名' }]);
    const uncovered = assignProjects({ groups: [g1, g2], projects: [project('p2', null)], minExperts: 5 });
    expect(uncovered.problems[0]!.reason).toBe('各评审组回避后最多只有 3 名专家（第g1组），少于最低 5 名');
  });

  it('reports every project when the round has no groups', () => {
    const r = assignProjects({ groups: [], projects: [project('p2', 'T'), project('p1', null)], minExperts: 1 });
    expect(r.problems).toEqual([
      { projectId: 'p1', code: 'NO_GROUPS', reason: '本轮还没有评审组，无法分配' },
      { projectId: 'p2', code: 'NO_GROUPS', reason: '本轮还没有评审组，无法分配' },
    ]);
    expect(r.loads).toEqual([]);
  });

  it('places the projects with the least choice first', () => {
    // pb can only go to g1 (conflict in g2); taken by id alone, pa would take g1 first and the
    // balancing pass would have to move it (and say so).
    const g1 = group('g1', [expert('a1', ['T'])]);
    const g2 = group('g2', [expert('b1', ['T'], { name: '乙' })]);
    const r = assignProjects({ groups: [g1, g2], projects: [project('pa', 'T'), project('pb', 'T', { name: '乙' })], minExperts: 1 });
    expect(r.placements.map((p) => [p.projectId, p.groupId, p.reason])).toEqual([
      ['pa', 'g2', '方向「T」由本组 1 名专家覆盖；本组当前负载最低（0 个项目）'],
      ['pb', 'g1', '方向「T」由本组 1 名专家覆盖；其他可选评审组回避后专家少于 1 名'],
    ]);
  });

  it('evens out loads that placing one project at a time leaves uneven', () => {
    // Group g covers tracks T(g mod 4) and T(g+1 mod 4): T2 and T3 have 2 groups each, T0 and
    // T1 have 3. Their projects go first (least choice) and fill g1..g3; g2 takes no T0/T1
    // project afterwards, so one at a time ends 17,17,13,17,16. Chains of moves even that out.
    const groups = Array.from({ length: 5 }, (_, g) => group(`g${g}`, [expert(`e${g}`, [`T${g % 4}`, `T${(g + 1) % 4}`])]));
    const projects = Array.from({ length: 80 }, (_, i) => project(`p${String(i).padStart(2, '0')}`, `T${i % 4}`));
    const r = assignProjects({ groups, projects, minExperts: 1 });
    expect(r.loads.map((l) => l.after)).toEqual([16, 16, 16, 16, 16]);
    const moved = r.placements.filter((p) => p.reason.includes('为均衡负载由'));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved[0]!.reason).toMatch(/^方向「T\d」由本组 1 名专家覆盖；为均衡负载由「第g\d组」调入本组$/);
    // Every move kept the project in a group covering its track.
    for (const p of r.placements) {
      const track = projects.find((x) => x.id === p.projectId)!.track!;
      expect(groups.find((g) => g.id === p.groupId)!.experts[0]!.tracks).toContain(track);
    }
  });

  it('never moves projects placed before the run', () => {
    const groups = [group('g1', panel('a', 1, ['T']), 10), group('g2', panel('b', 1, ['T']), 0)];
    const r = assignProjects({ groups, projects: [project('p1', 'T'), project('p2', 'T')], minExperts: 1 });
    expect(r.placements.map((p) => p.groupId)).toEqual(['g2', 'g2']);
    expect(r.loads.map((l) => l.after)).toEqual([10, 2]);
  });

  it('places a project given twice once', () => {
    const r = assignProjects({ groups: [group('g1', panel('a', 1, ['T']))], projects: [project('p1', 'T'), project('p1', 'T')], minExperts: 1 });
    expect(r.placements).toHaveLength(1);
    expect(r.loads[0]!.after).toBe(1);
  });
});

// ---- properties over random rounds --------------------------------------------------------

/** mulberry32: a small seeded generator, so every run checks the same rounds. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!;
  return { next, int, pick };
}

const TRACKS = ['T1', 'T2', 'T3', 'T4'];
/** Few organisations written several ways, with and without codes, so conflicts are common. */
const ORGS: OrgRef[] = [
  { name: '甲科技有限公司', creditCode: 'CODE-A' },
  { name: '甲科技', creditCode: null },
  { name: '甲科技（有限公司）', creditCode: 'CODE-A2' },
  { name: '乙医院', creditCode: 'CODE-B' },
  { name: '乙 医院' },
  { name: '丙集团股份有限公司' },
  { name: '丙', creditCode: 'CODE-C' },
  { name: 'ＤＥＦ Co., Ltd.' },
  { name: 'def' },
  { name: '丁大学', creditCode: 'CODE-D' },
  { name: '戊研究院' },
  { name: '己公司', creditCode: 'CODE-A' },
];

function randomRound(seed: number): AssignInput {
  const r = rng(seed);
  const equalLoads = r.next() < 0.5;
  const groups: AssignGroup[] = Array.from({ length: r.int(0, 6) }, (_, g) => ({
    id: `g${g}`,
    name: `第${g}组`,
    load: equalLoads ? 0 : r.int(0, 4),
    experts: Array.from({ length: r.int(0, 6) }, (_, e) => ({
      id: `g${g}e${e}`,
      name: `专家${g}-${e}`,
      tracks: Array.from({ length: r.int(0, 2) }, () => r.pick(TRACKS)),
      orgs: { own: r.pick(ORGS), declared: Array.from({ length: r.int(0, 1) }, () => r.pick(ORGS)) },
    })),
  }));
  const projects: AssignProject[] = Array.from({ length: r.int(0, 60) }, (_, i) => ({
    id: `p${String(r.int(0, 99999)).padStart(5, '0')}-${i}`,
    name: `项目${i}`,
    track: r.next() < 0.1 ? null : r.pick([...TRACKS, 'T5']),
    org: r.pick(ORGS),
  }));
  return { groups, projects, minExperts: r.int(0, 4) };
}

/** The rules restated naively, with conflictBetween on every pair: the oracle. */
function reference(input: AssignInput, p: AssignProject) {
  const perGroup = input.groups.map((g) => {
    const conflicted = g.experts.filter((e) => conflictBetween(e.orgs, p.org) !== null).map((e) => e.id);
    const covers = p.track !== null && g.experts.some((e) => e.tracks.includes(p.track!));
    return { covers, conflicted, expected: g.experts.length - conflicted.length };
  });
  const anyCovers = perGroup.some((g) => g.covers);
  const feasible = perGroup.map((g) => (anyCovers ? g.covers : true) && g.expected >= input.minExperts);
  return { perGroup, anyCovers, feasible };
}

function checkProperties(input: AssignInput, result: AssignResult) {
  const ids = input.projects.map((p) => p.id).sort();
  const out = [...result.placements.map((p) => p.projectId), ...result.problems.map((p) => p.projectId)].sort();
  expect(out).toEqual(ids);

  const byId = new Map(input.projects.map((p) => [p.id, p]));
  const groupIndex = new Map(input.groups.map((g, i) => [g.id, i]));
  const feasibility = new Map<string, boolean[]>();
  for (const p of input.projects) {
    const ref = reference(input, p);
    feasibility.set(p.id, ref.feasible);
    const placed = result.placements.find((x) => x.projectId === p.id);
    if (!placed) {
      // Reported only when no allowed group keeps enough experts.
      expect(ref.feasible.some(Boolean)).toBe(false);
      expect(result.problems.find((x) => x.projectId === p.id)!.code).toBe(input.groups.length === 0 ? 'NO_GROUPS' : 'TOO_FEW_EXPERTS');
      continue;
    }
    const gi = groupIndex.get(placed.groupId)!;
    const g = ref.perGroup[gi]!;
    expect(placed.expected).toBe(g.expected);
    expect(placed.expected).toBeGreaterThanOrEqual(input.minExperts);
    if (ref.anyCovers) expect(g.covers).toBe(true);
    expect(placed.conflicts.map((c) => c.expertId).sort()).toEqual([...g.conflicted].sort());
    for (const c of placed.conflicts) {
      const e = input.groups[gi]!.experts.find((x) => x.id === c.expertId)!;
      expect(c.cause).toEqual(conflictBetween(e.orgs, byId.get(p.id)!.org));
    }
  }

  // Loads add up, and groups every project sees alike end within one of each other (or no
  // further apart than they started).
  input.groups.forEach((g, i) => {
    const load = result.loads[i]!;
    expect(load).toEqual({ groupId: g.id, before: g.load, after: g.load + result.placements.filter((p) => p.groupId === g.id).length });
  });
  for (let a = 0; a < input.groups.length; a++) {
    for (let b = a + 1; b < input.groups.length; b++) {
      const alike = input.projects.every((p) => feasibility.get(p.id)![a] === feasibility.get(p.id)![b]);
      if (!alike) continue;
      const before = Math.abs(input.groups[a]!.load - input.groups[b]!.load);
      const after = Math.abs(result.loads[a]!.after - result.loads[b]!.after);
      expect(after).toBeLessThanOrEqual(Math.max(1, before));
    }
  }
  // Stronger: no project of this run could move to a group 2 or more below its own.
  for (const placed of result.placements) {
    const from = groupIndex.get(placed.groupId)!;
    feasibility.get(placed.projectId)!.forEach((ok, to) => {
      if (ok) expect(result.loads[to]!.after).toBeGreaterThanOrEqual(result.loads[from]!.after - 1);
    });
  }
}

describe('assignProjects properties', () => {
  it('holds the rules on 400 random rounds', () => {
    let placed = 0;
    let reported = 0;
    let conflicts = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const input = randomRound(seed);
      const result = assignProjects(input);
      checkProperties(input, result);
      placed += result.placements.length;
      reported += result.problems.length;
      conflicts += result.placements.reduce((n, p) => n + p.conflicts.length, 0);
    }
    // The generator must exercise every branch, or the properties prove little.
    expect(placed).toBeGreaterThan(1000);
    expect(reported).toBeGreaterThan(100);
    expect(conflicts).toBeGreaterThan(100);
  }, 30_000);

  it('gives the same answer whatever the order of the projects', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const input = randomRound(seed);
      const r = rng(seed * 7919);
      const shuffled = [...input.projects].sort(() => r.next() - 0.5);
      expect(assignProjects({ ...input, projects: shuffled })).toEqual(assignProjects(input));
    }
  }, 30_000);

  it('keeps groups covering the same track within one project of each other', () => {
    const groups = Array.from({ length: 7 }, (_, g) => group(`g${g}`, panel(`g${g}e`, 5, g < 4 ? ['A'] : ['B'])));
    const projects = Array.from({ length: 103 }, (_, i) => project(`p${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'B' : 'A'));
    const r = assignProjects({ groups, projects, minExperts: 5 });
    const after = r.loads.map((l) => l.after);
    const a = after.slice(0, 4);
    const b = after.slice(4);
    expect(Math.max(...a) - Math.min(...a)).toBeLessThanOrEqual(1);
    expect(Math.max(...b) - Math.min(...b)).toBeLessThanOrEqual(1);
    expect(after.reduce((s, n) => s + n, 0)).toBe(103);
  });
});

describe('assignProjects: the per-expert cap (rule 5)', () => {
  const loaded = (e: AssignExpert, load: number): AssignExpert => ({ ...e, load });

  it('without a cap (null or absent) places as before', () => {
    const groups = [group('g1', panel('a', 2, ['T'])), group('g2', panel('b', 2, ['T']))];
    const projects = ['p1', 'p2', 'p3', 'p4'].map((id) => project(id, 'T'));
    const plain = assignProjects({ groups, projects, minExperts: 1 });
    expect(assignProjects({ groups, projects, minExperts: 1, maxProjectsPerExpert: null })).toEqual(plain);
  });

  it('keeps the groups even under a cap that allows it, counting the experts\' current projects', () => {
    const groups = [group('g1', [loaded(expert('a1', ['T']), 1), expert('a2', ['T'])], 1), group('g2', panel('b', 2, ['T']))];
    const r = assignProjects({ groups, projects: ['p1', 'p2', 'p3'].map((id) => project(id, 'T')), minExperts: 1, maxProjectsPerExpert: 2 });
    expect(r.problems).toEqual([]);
    expect(r.loads).toEqual([
      { groupId: 'g1', before: 1, after: 2 },
      { groupId: 'g2', before: 0, after: 2 },
    ]);
  });

  it('reports a project the cap leaves no group for, naming a group and an expert at the cap', () => {
    const groups = [group('g1', panel('a', 2, ['T'])), group('g2', panel('b', 2, ['T']))];
    const r = assignProjects({ groups, projects: ['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => project(id, 'T')), minExperts: 1, maxProjectsPerExpert: 2 });
    expect(r.placements).toHaveLength(4);
    expect(r.problems).toEqual([{ projectId: 'p5', code: 'EXPERT_CAP', reason: '可分入的 2 个评审组中都有专家已达每人 2 个项目的上限（如第g1组的专家 专家a1）' }]);
    expect(r.loads.map((l) => l.after)).toEqual([2, 2]);
  });

  it('an expert in conflict with the project does not count against the cap for it', () => {
    const org = { name: '甲医院' };
    const g1 = group('g1', [loaded(expert('a1', ['T'], org), 1), expert('a2', ['T'])]);
    const r = assignProjects({ groups: [g1], projects: [project('p1', 'T', org)], minExperts: 1, maxProjectsPerExpert: 1 });
    expect(r.problems).toEqual([]);
    expect(r.placements[0]).toMatchObject({ projectId: 'p1', groupId: 'g1', expected: 1 });
  });

  it('never lets the balancing pass take an expert past the cap', () => {
    // p1 may go to g1 only, the others to both: the pass would move projects toward g2, whose
    // expert has room for one more only.
    const g1 = group('g1', [expert('a1', ['T', 'U'])]);
    const g2 = group('g2', [loaded(expert('b1', ['T']), 2)]);
    const projects = [project('p1', 'U'), project('p2', 'T'), project('p3', 'T'), project('p4', 'T')];
    for (const cap of [3, 10]) {
      const r = assignProjects({ groups: [g1, g2], projects, minExperts: 1, maxProjectsPerExpert: cap });
      const onB = r.placements.filter((p) => p.groupId === 'g2').length;
      expect(2 + onB).toBeLessThanOrEqual(cap);
      expect(r.placements.length + r.problems.length).toBe(4);
    }
  });
});
