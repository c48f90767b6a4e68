import { describe, expect, it } from 'vitest';
import { RESULTS_MSG as M, awardRuleSchema, isUserMessage, type ResultEntryView } from '@contest/shared';
import { assignAwards, compareEntries, movementOf, normaliseAwards, selectPromoted, sortEntries } from './results-rules.js';

const entry = (id: string, o: Partial<ResultEntryView> = {}): ResultEntryView => ({
  projectId: id,
  teamId: `t${id}`,
  projectName: `项目${id}`,
  teamName: `团队${id}`,
  orgName: `单位${id}`,
  track: 'T',
  rank: null,
  trackRank: null,
  score: null,
  outcome: 'NOT_PROMOTED',
  awardCode: null,
  awardName: null,
  ...o,
});

describe('award rules (validation)', () => {
  const parse = (v: unknown) => awardRuleSchema.safeParse(v);
  const messageOf = (v: unknown) => {
    const r = parse(v);
    return r.success ? null : r.error.issues[0]!.message;
  };

  it('accepts rank counts with an open last level, and score bands from high to low', () => {
    expect(parse({ mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 3 }, { name: '二等奖', count: 5 }, { name: '优秀奖' }] }).success).toBe(true);
    expect(parse({ mode: 'SCORE_BANDS', levels: [{ name: '一等奖', minScore: 90 }, { name: '二等奖', minScore: 85.5 }] }).success).toBe(true);
  });

  it('refuses each bad rule with its text', () => {
    expect(messageOf(undefined)).toBe(M.awardsRequired);
    expect(messageOf({ mode: 'X', levels: [{ name: 'a', count: 1 }] })).toBe(M.awardsModeInvalid);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [] })).toBe(M.awardLevelsRequired);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: Array.from({ length: 11 }, (_, i) => ({ name: `${i}`, count: 1 })) })).toBe(M.awardLevelsTooMany);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: ' ', count: 1 }] })).toBe(M.awardNameRequired);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: '一二三四五六七八九十一二三四五六七八九十一', count: 1 }] })).toBe(M.awardNameTooLong);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: 'a', count: 1 }, { name: 'a', count: 2 }] })).toBe(M.awardNameDuplicate);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: 'a', count: 0 }] })).toBe(M.awardCountInvalid);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: 'a', count: 1.5 }] })).toBe(M.awardCountInvalid);
    expect(messageOf({ mode: 'RANK_COUNTS', levels: [{ name: 'a' }, { name: 'b', count: 2 }] })).toBe(M.awardCountMissing);
    expect(messageOf({ mode: 'SCORE_BANDS', levels: [{ name: 'a' }] })).toBe(M.awardMinScoreInvalid);
    expect(messageOf({ mode: 'SCORE_BANDS', levels: [{ name: 'a', minScore: 101 }] })).toBe(M.awardMinScoreInvalid);
    expect(messageOf({ mode: 'SCORE_BANDS', levels: [{ name: 'a', minScore: 80.123 }] })).toBe(M.awardMinScoreInvalid);
    expect(messageOf({ mode: 'SCORE_BANDS', levels: [{ name: 'a', minScore: 80 }, { name: 'b', minScore: 80 }] })).toBe(M.awardMinScoreOrder);
    for (const text of Object.values(M)) expect(isUserMessage(text), text).toBe(true);
  });
});

describe('assignAwards', () => {
  it('rank counts: running totals, ties at a cut share the better level, the open level takes the rest', () => {
    const rule = normaliseAwards({ mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 2 }, { name: '二等奖', count: 2 }, { name: '优秀奖' }] });
    expect(rule.levels.map((l) => [l.code, l.count, l.minScore])).toEqual([
      ['L1', 2, null],
      ['L2', 2, null],
      ['L3', null, null],
    ]);
    // ranks 1, 2, 2 (tie at the first cut), 4, 5, unranked
    const rows = [
      { id: 'a', rank: 1, score: 95 },
      { id: 'b', rank: 2, score: 90 },
      { id: 'c', rank: 2, score: 90 },
      { id: 'd', rank: 4, score: 80 },
      { id: 'e', rank: 5, score: 70 },
      { id: 'f', rank: null, score: null },
    ];
    const got = assignAwards(rule, rows);
    expect(rows.map((r) => got.get(r.id)?.name ?? null)).toEqual(['一等奖', '一等奖', '一等奖', '二等奖', '优秀奖', null]);
  });

  it('rank counts without an open level leave the rest without an award', () => {
    const rule = normaliseAwards({ mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }, { name: '二等奖', count: 1 }] });
    const got = assignAwards(rule, [
      { id: 'a', rank: 1, score: 9 },
      { id: 'b', rank: 2, score: 8 },
      { id: 'c', rank: 3, score: 7 },
    ]);
    expect([...got.values()].map((l) => l?.code ?? null)).toEqual(['L1', 'L2', null]);
  });

  it('score bands compare the score at two decimals', () => {
    const rule = normaliseAwards({ mode: 'SCORE_BANDS', levels: [{ name: '一等奖', minScore: 90 }, { name: '二等奖', minScore: 80 }] });
    expect(rule.levels.map((l) => [l.count, l.minScore])).toEqual([
      [null, 90],
      [null, 80],
    ]);
    const got = assignAwards(rule, [
      { id: 'a', rank: 1, score: 89.996 },
      { id: 'b', rank: 2, score: 89.994 },
      { id: 'c', rank: 3, score: 79.99 },
      { id: 'd', rank: null, score: null },
    ]);
    expect([...got.values()].map((l) => l?.name ?? null)).toEqual(['一等奖', '二等奖', null, null]);
  });
});

describe('selectPromoted (later preliminary versions)', () => {
  const next = [
    { id: 'a', rank: 1, trackRank: 1 },
    { id: 'b', rank: 2, trackRank: 1 },
    { id: 'c', rank: 3, trackRank: 2 },
    { id: 'd', rank: 3, trackRank: 2 },
    { id: 'e', rank: 5, trackRank: 3 },
    { id: 'x', rank: null, trackRank: null },
  ];
  const previous = [
    { id: 'a', rank: 1, trackRank: 1, promoted: true },
    { id: 'e', rank: 2, trackRank: 1, promoted: true },
    // picked by hand, outside the cut of 2
    { id: 'x', rank: 9, trackRank: 5, promoted: true },
    { id: 'b', rank: 3, trackRank: 2, promoted: false },
  ];

  it('re-applies the rank cut (ties included) and keeps the hand picks', () => {
    expect([...selectPromoted('TOP_OVERALL', 3, next, previous, { mode: 'TOP_OVERALL', n: 2 })].sort()).toEqual(['a', 'b', 'c', 'd', 'x']);
    expect([...selectPromoted('TOP_PER_TRACK', 1, next, previous, { mode: 'TOP_OVERALL', n: 2 })].sort()).toEqual(['a', 'b', 'x']);
  });

  it('KEEP, or no cut at all (a PICKED promotion): the previous set', () => {
    expect([...selectPromoted('KEEP', null, next, previous, null)].sort()).toEqual(['a', 'e', 'x']);
    expect([...selectPromoted('TOP_OVERALL', 1, next, previous, null)].sort()).toEqual(['a', 'e', 'x']);
  });
});

describe('movement and comparison', () => {
  it('names every kind of move', () => {
    expect(movementOf(undefined, entry('1'))).toBe('ADDED');
    expect(movementOf(entry('1'), undefined)).toBe('REMOVED');
    expect(movementOf(entry('1', { outcome: 'NOT_PROMOTED', rank: 3 }), entry('1', { outcome: 'PROMOTED', rank: 2 }))).toBe('IN');
    expect(movementOf(entry('1', { outcome: 'AWARDED', awardCode: 'L3', rank: 9 }), entry('1', { outcome: 'NONE', rank: 12 }))).toBe('OUT');
    expect(movementOf(entry('1', { outcome: 'AWARDED', awardCode: 'L2', rank: 4 }), entry('1', { outcome: 'AWARDED', awardCode: 'L1', rank: 4 }))).toBe('UP');
    expect(movementOf(entry('1', { outcome: 'AWARDED', awardCode: 'L1', rank: 2 }), entry('1', { outcome: 'AWARDED', awardCode: 'L2', rank: 1 }))).toBe('DOWN');
    expect(movementOf(entry('1', { rank: 5 }), entry('1', { rank: 4 }))).toBe('UP');
    expect(movementOf(entry('1', { rank: 4 }), entry('1', { rank: null }))).toBe('DOWN');
    expect(movementOf(entry('1', { rank: 4, score: 80 }), entry('1', { rank: 4, score: 81 }))).toBe('SAME');
  });

  it('lists b in rank order, then what only a had; flags changes; counts the moves', () => {
    const a = [entry('1', { rank: 1, score: 90, outcome: 'PROMOTED' }), entry('2', { rank: 2, score: 85, outcome: 'PROMOTED' }), entry('3', { rank: 3, score: 80 }), entry('9', { rank: 4 })];
    const b = [entry('1', { rank: 1, score: 90, outcome: 'PROMOTED' }), entry('3', { rank: 2, score: 88, outcome: 'PROMOTED' }), entry('2', { rank: 3, score: 85 }), entry('7')];
    const { rows, summary } = compareEntries(a, b, (id) => (id === '3' ? [{ id: 'ap', status: 'RESOLVED', version: 1, reason: 'r', reply: 'ok', resolvedVersion: 2, createdAt: 'x' }] : []));
    expect(rows.map((r) => [r.projectId, r.movement, r.changed])).toEqual([
      ['1', 'SAME', false],
      ['3', 'IN', true],
      ['2', 'OUT', true],
      ['7', 'ADDED', true],
      ['9', 'REMOVED', true],
    ]);
    expect(rows[1]).toMatchObject({ rankA: 3, rankB: 2, scoreA: 80, scoreB: 88, outcomeA: 'NOT_PROMOTED', outcomeB: 'PROMOTED' });
    expect(rows[1]!.appeals.map((x) => x.id)).toEqual(['ap']);
    expect(summary).toEqual({ IN: 1, OUT: 1, UP: 0, DOWN: 0, SAME: 1, ADDED: 1, REMOVED: 1 });
  });

  it('sorts unranked last, then by name', () => {
    const sorted = sortEntries([entry('b', { projectName: '乙' }), entry('c', { rank: 2 }), entry('a', { projectName: '甲' }), entry('d', { rank: 1 })]);
    expect(sorted.map((e) => e.projectId)).toEqual(['d', 'c', 'a', 'b']);
  });
});
