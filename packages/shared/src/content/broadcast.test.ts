import { describe, expect, it } from 'vitest';
import {
  BROADCAST_MSG as M,
  broadcastDraftSchema,
  describeSegment,
  renderBroadcast,
  segmentSchema,
  smsSegments,
  unknownVariables,
  usedVariables,
} from './broadcast.js';
import { isUserMessage } from '../messages.js';
import { maskEmail, maskPhone } from '../pii.js';

const issue = (input: unknown) => {
  const r = segmentSchema.safeParse(input);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('segmentSchema', () => {
  it('normalises: no values for ALL, values sorted and unique, ids in lower case', () => {
    expect(segmentSchema.parse({ kind: 'ALL', values: ['x'] })).toEqual({ kind: 'ALL', values: [] });
    expect(segmentSchema.parse({ kind: 'TEAM_STATUS', values: ['REVISING', 'APPROVED', 'REVISING'] })).toEqual({ kind: 'TEAM_STATUS', values: ['APPROVED', 'REVISING'] });
    const id = 'AAAAAAAA-0000-4000-8000-000000000000';
    expect(segmentSchema.parse({ kind: 'ACCOUNTS', values: [id, id.toLowerCase()] })).toEqual({ kind: 'ACCOUNTS', values: [id.toLowerCase()] });
    expect(segmentSchema.parse({ kind: 'PRELIM_STATUS', values: ['NOT_FILLED'] })).toEqual({ kind: 'PRELIM_STATUS', values: ['NOT_FILLED'] });
    expect(segmentSchema.parse({ kind: 'FINALIST', values: ['x'] })).toEqual({ kind: 'FINALIST', values: [] });
    expect(segmentSchema.parse({ kind: 'RESULT', values: ['FINAL:AWARDED', 'PRELIMINARY:PROMOTED'] })).toEqual({ kind: 'RESULT', values: ['FINAL:AWARDED', 'PRELIMINARY:PROMOTED'] });
  });

  it('refuses with the texts of BROADCAST_MSG', () => {
    expect(issue(undefined)).toBe(M.segmentRequired);
    expect(issue({ kind: 'NOPE' })).toBe(M.segmentKindInvalid);
    expect(issue({ kind: 'TRACK' })).toBe(M.segmentValuesRequired);
    expect(issue({ kind: 'TEAM_STATUS', values: ['NOT_FILLED'] })).toBe(M.segmentStatusInvalid);
    expect(issue({ kind: 'ACCOUNTS', values: ['x'] })).toBe(M.segmentAccountInvalid);
    expect(issue({ kind: 'ACCOUNTS', values: Array.from({ length: 1001 }, () => 'x') })).toBe(M.segmentAccountsTooMany);
    expect(issue({ kind: 'TRACK', values: ['   '] })).toBe(M.segmentTrackInvalid);
    expect(issue({ kind: 'RESULT' })).toBe(M.segmentValuesRequired);
    expect(issue({ kind: 'RESULT', values: ['FINAL:PROMOTED'] })).toBe(M.segmentResultInvalid);
  });

  it('every text is a user message (shown as written)', () => {
    for (const text of Object.values(M)) expect(isUserMessage(text)).toBe(true);
  });
});

describe('texts', () => {
  it('describes segments in words', () => {
    expect(describeSegment({ kind: 'ALL', values: [] })).toBe('全部参赛用户');
    expect(describeSegment({ kind: 'TEAM_STATUS', values: ['REVISING', 'APPROVED'] })).toBe('报名状态：退回修改、审核通过');
    expect(describeSegment({ kind: 'PRELIM_STATUS', values: ['NOT_FILLED'] })).toBe('初赛材料状态：未填写');
    expect(describeSegment({ kind: 'TRACK', values: ['A', 'B'] }, { A: '支付方式改革' })).toBe('参赛方向：支付方式改革、B');
    expect(describeSegment({ kind: 'ACCOUNTS', values: ['1', '2'] })).toBe('指定用户（2 人）');
    expect(describeSegment({ kind: 'FINALIST', values: [] })).toBe('入围决赛的参赛用户');
    expect(describeSegment({ kind: 'RESULT', values: ['FINAL:AWARDED', 'PRELIMINARY:PROMOTED'] })).toBe('评审结果：决赛获奖、初赛晋级');
  });

  it('renders the offered variables and names the others', () => {
    const text = '{name}您好，{teamName}（{orgName}）{projectName}{reason}{注意}';
    expect(renderBroadcast(text, { name: '张三', teamName: '甲队', orgName: '某院' })).toBe('张三您好，甲队（某院）{reason}{注意}');
    expect(unknownVariables(text)).toEqual(['reason']);
    expect(usedVariables('{teamName}{name}{teamName}')).toEqual(['teamName', 'name']);
  });

  it('bills SMS by 70 characters, then by 67', () => {
    expect(smsSegments('')).toBe(0);
    expect(smsSegments('字'.repeat(70))).toBe(1);
    expect(smsSegments('字'.repeat(71))).toBe(2);
    expect(smsSegments('字'.repeat(134))).toBe(2);
    expect(smsSegments('字'.repeat(135))).toBe(3);
    expect(smsSegments('😀'.repeat(70))).toBe(1);
  });

  it('masks phones and addresses', () => {
    expect(maskPhone('13912345678')).toBe('139****5678');
    expect(maskPhone(null)).toBeNull();
    expect(maskEmail('zhang@example.com')).toBe('z***@example.com');
  });

  it('drafts: blank texts become empty, a blank template id none', () => {
    expect(broadcastDraftSchema.parse({ segment: { kind: 'ALL' }, title: '  标题 ', templateId: '' })).toEqual({
      segment: { kind: 'ALL', values: [] },
      title: '标题',
      body: '',
      smsText: '',
      templateId: null,
    });
  });
});
