import { describe, expect, it } from 'vitest';
import { VALIDATION_MSG as V, isUserMessage } from '../messages.js';
import { auditSchema } from './audit.js';
import { creditCodeCheckChar, creditCodeValid } from './credit-code.js';
import { CONTEST_MSG as M } from './messages.js';
import { countCharacters, countPages, isPageNumberLine, pageText } from './pdf-count.js';
import { describeContest, normalisePhases, phaseState } from './phases.js';
import { prelimDraftSchema, prelimSubmitSchema } from './prelim.js';
import { prelimDocStatusOf, prelimEditable, teamEditable } from './status.js';
import { teamDraftSchema, teamSubmitSchema } from './team.js';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : result.error!.issues[0]!.message;

const FILE = 'AbCdEfGhIjKlMnOpQrStUv';
const member = { name: '李华', organization: '示例医院', title: 'INTERMEDIATE', phone: '13800000002', email: 'li@example.com', role: 'DEVELOPER' };
const team = {
  orgName: '示例科技有限公司',
  orgType: 'ENTERPRISE',
  creditCode: '91350100M000100Y43',
  region: 'P01',
  city: '北京',
  track: 'SMART_SUPERVISION',
  teamName: '智审先锋队',
  leader: { name: '张明', phone: '13800000001', email: 'zhang@example.com', title: 'SENIOR' },
  members: [member],
  advisor: null,
  certificate: FILE,
  commitment: FILE,
  recommendation: null,
};

describe('credit code (GB 32100-2015)', () => {
  it.each(['91350100M000100Y43', '91110000600037341L', '91310000717866186P', '9144030071526726XG'])('%s is valid', (code) => {
    expect(creditCodeValid(code)).toBe(true);
  });
  it.each([
    ['91350100M000100Y44', 'wrong check character'],
    ['91350100M000100Y4', '17 characters'],
    ['91350100M000100Y433', '19 characters'],
    ['91350100M000I00Y43', 'I is not in the alphabet'],
    ['91350100m000100y43', 'lower case'],
    ['', 'empty'],
  ])('%s is invalid (%s)', (code) => {
    expect(creditCodeValid(code)).toBe(false);
  });
  it('computes the check character, 0 when the remainder is 0', () => {
    expect(creditCodeCheckChar('91350100M000100Y4')).toBe('3');
    expect(creditCodeCheckChar('0000000000000000')).toBeNull();
    expect(creditCodeCheckChar('00000000000000000')).toBe('0');
  });
});

describe('team schemas', () => {
  it('accepts a complete sign-up and normalises case and blanks', () => {
    const parsed = teamSubmitSchema.parse({ ...team, creditCode: ' 91350100m000100y43 ', advisor: { name: '', phone: '' } });
    expect(parsed.creditCode).toBe('91350100M000100Y43');
    expect(parsed.advisor).toBeNull();
    expect(parsed.recommendation).toBeNull();
  });

  it.each([
    [{ orgName: '  ' }, M.orgNameRequired],
    [{ orgType: '' }, M.orgTypeRequired],
    [{ orgType: 'bad code!' }, M.orgTypeInvalid],
    [{ creditCode: '' }, M.creditCodeRequired],
    [{ creditCode: '91350100M000100Y4' }, M.creditCodeLength],
    [{ creditCode: '91350100M000100Y44' }, M.creditCodeInvalid],
    [{ region: null }, M.regionRequired],
    [{ city: '' }, M.cityRequired],
    [{ track: undefined }, M.trackRequired],
    [{ teamName: 'x'.repeat(51) }, M.teamNameTooLong],
    [{ leader: null }, M.leaderRequired],
    [{ leader: { ...team.leader, name: '' } }, M.leaderNameRequired],
    [{ leader: { ...team.leader, phone: '' } }, V.phoneRequired],
    [{ leader: { ...team.leader, phone: '1380000000' } }, V.phoneLength],
    [{ leader: { ...team.leader, phone: '12800000000' } }, V.phoneFormat],
    [{ leader: { ...team.leader, email: 'a@b' } }, V.emailFormat],
    [{ leader: { ...team.leader, title: '' } }, M.leaderTitleRequired],
    [{ members: [] }, M.membersRequired],
    [{ members: null }, M.membersRequired],
    [{ members: Array(10).fill(member) }, M.membersTooMany],
    [{ members: [{ ...member, phone: '123' }] }, V.phoneLength],
    [{ members: [{ ...member, phone: '12800000000' }] }, V.phoneFormat],
    [{ members: [{ ...member, email: 'nope' }] }, V.emailFormat],
    [{ members: [{ ...member, role: '' }] }, M.memberRoleRequired],
    [{ members: [{ ...member, organization: '' }] }, M.memberOrganizationRequired],
    [{ advisor: { name: '', phone: '13800000003' } }, M.advisorNameRequired],
    [{ certificate: null }, M.certificateRequired],
    [{ commitment: '' }, M.commitmentRequired],
    [{ commitment: 'not-a-unique-no' }, M.attachmentInvalid],
  ])('refuses %j with its message', (change, message) => {
    expect(firstMessage(teamSubmitSchema.safeParse({ ...team, ...change }))).toBe(message);
  });

  it('needs no credit code for other organisation types, but checks one that is given', () => {
    expect(teamSubmitSchema.safeParse({ ...team, orgType: 'UNIVERSITY', creditCode: '' }).success).toBe(true);
    expect(firstMessage(teamSubmitSchema.safeParse({ ...team, orgType: 'UNIVERSITY', creditCode: '91350100M000100Y44' }))).toBe(M.creditCodeInvalid);
  });

  it('takes 1 and 9 members', () => {
    expect(teamSubmitSchema.safeParse({ ...team, members: [member] }).success).toBe(true);
    expect(teamSubmitSchema.safeParse({ ...team, members: Array(9).fill(member) }).success).toBe(true);
  });

  it('drafts accept an empty form but still bound lengths and member count', () => {
    const empty = teamDraftSchema.parse({});
    expect(empty).toMatchObject({ orgName: '', members: [], advisor: null, certificate: null, leader: { name: '' } });
    expect(firstMessage(teamDraftSchema.safeParse({ orgName: 'x'.repeat(101) }))).toBe(M.orgNameTooLong);
    expect(firstMessage(teamDraftSchema.safeParse({ members: Array(10).fill(member) }))).toBe(M.membersTooMany);
    expect(teamDraftSchema.safeParse({ leader: { phone: '123' } }).success).toBe(true);
  });
});

describe('preliminary schemas', () => {
  const prelim = { projectName: '智能审核', track: 'SMART_SUPERVISION', summary: '简介', keywords: ['医保', 'AI'], application: FILE, presentation: FILE, video: null, others: [] };
  it.each([
    [{ projectName: '' }, M.projectNameRequired],
    [{ summary: '' }, M.summaryRequired],
    [{ summary: '字'.repeat(501) }, M.summaryTooLong],
    [{ keywords: [] }, M.keywordsRequired],
    [{ keywords: ['', ' '] }, M.keywordsRequired],
    [{ keywords: ['a', 'b', 'c', 'd', 'e', 'f'] }, M.keywordsTooMany],
    [{ keywords: ['x'.repeat(21)] }, M.keywordInvalid],
    [{ application: null }, M.applicationRequired],
    [{ presentation: '' }, M.presentationRequired],
    [{ others: Array(6).fill(FILE) }, M.othersTooMany],
  ])('refuses %j with its message', (change, message) => {
    expect(firstMessage(prelimSubmitSchema.safeParse({ ...prelim, ...change }))).toBe(message);
  });
  it('counts the summary in characters: 500 emoji pass', () => {
    expect(prelimSubmitSchema.safeParse({ ...prelim, summary: '😀'.repeat(500) }).success).toBe(true);
  });
  it('drafts accept an empty form', () => {
    expect(prelimDraftSchema.parse({})).toMatchObject({ projectName: '', keywords: [], application: null, others: [] });
  });
});

describe('audit schema', () => {
  it('needs a reason unless approving', () => {
    expect(auditSchema.safeParse({ outcome: 'APPROVED' }).success).toBe(true);
    expect(firstMessage(auditSchema.safeParse({ outcome: 'REVISING', reason: ' ' }))).toBe(M.reasonRequired);
    expect(firstMessage(auditSchema.safeParse({ outcome: 'REJECTED' }))).toBe(M.reasonRequired);
    expect(firstMessage(auditSchema.safeParse({ outcome: 'SUBMITTED', reason: 'x' }))).toBe(M.outcomeInvalid);
    expect(firstMessage(auditSchema.safeParse({ outcome: 'REVISING', reason: 'x'.repeat(501) }))).toBe(M.reasonTooLong);
  });
});

describe('statuses', () => {
  it('lets null, DRAFT and REVISING sign-ups edit', () => {
    expect([null, 'DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'].map((s) => teamEditable(s as never))).toEqual([true, true, false, false, true, false]);
    expect(['NOT_FILLED', 'DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'].map((s) => prelimEditable(s as never))).toEqual([true, true, false, false, true, false]);
    expect(prelimEditable(null)).toBe(false);
  });
  it('derives prelimDocStatus from the team and the materials row', () => {
    expect(prelimDocStatusOf(null, undefined)).toBeNull();
    expect(prelimDocStatusOf('SUBMITTED', null)).toBeNull();
    expect(prelimDocStatusOf('APPROVED', null)).toBe('NOT_FILLED');
    expect(prelimDocStatusOf('APPROVED', 'REVISING')).toBe('REVISING');
  });
  it('puts every contest message in the catalogue', () => {
    expect(Object.values(M).every(isUserMessage)).toBe(true);
  });
});

describe('phases', () => {
  const now = new Date('2025-06-15T00:00:00Z');
  it('opens sign-up and submission when nothing is set', () => {
    const c = describeContest('大赛', normalisePhases(undefined), now);
    expect(c.phases.map((p) => p.state)).toEqual(['OPEN', 'OPEN', 'UNSCHEDULED', 'UNSCHEDULED']);
    expect(c.currentPhase).toBe('prelimSubmission');
  });
  it('reads stored windows, inclusive at both ends', () => {
    const w = normalisePhases({ signUp: { start: '2025-05-01T00:00:00+08:00', end: '2025-06-15T08:00:00+08:00' }, prelimReview: { start: '2025-09-01T00:00:00+08:00', end: null } });
    expect(w.signUp).toEqual({ start: '2025-04-30T16:00:00.000Z', end: '2025-06-15T00:00:00.000Z' });
    expect(phaseState(w.signUp, now)).toBe('OPEN');
    expect(phaseState(w.signUp, new Date(now.getTime() + 1))).toBe('ENDED');
    expect(phaseState(w.prelimReview, now)).toBe('NOT_STARTED');
    expect(w.prelimSubmission).toBeNull();
    expect(phaseState(w.prelimSubmission, now)).toBe('UNSCHEDULED');
  });
  it('closes malformed windows rather than opening them', () => {
    const w = normalisePhases({ signUp: { start: 'soon', end: null }, prelimSubmission: { start: '2025-09-01', end: '2025-08-01' }, prelimReview: 'x' });
    expect([w.signUp, w.prelimSubmission, w.prelimReview]).toEqual([null, null, null]);
    expect(normalisePhases('garbage').signUp).toBeNull();
  });
});

describe('PDF character count', () => {
  it('counts CJK characters and Latin letters only', () => {
    expect(countCharacters('医保 AI 2025，abc！')).toBe(7);
    expect(countCharacters('Ünïcode é')).toBe(8);
  });
  it.each(['3', ' 12 ', '3/10', 'page 3 of 10', 'Page 3', 'p. 4', '第3页', '第 3 页 共 10 页', '第三页', '共 10 页 第 3 页', '- 3 -'])('drops the page-number line %j', (line) => {
    expect(isPageNumberLine(line)).toBe(true);
    expect(countCharacters(`正文\n${line}\n`)).toBe(2);
  });
  it('keeps lines that merely contain numbers', () => {
    expect(isPageNumberLine('第3章 总结')).toBe(false);
    expect(countCharacters('Chapter 3')).toBe(7);
  });
  it('joins pdf.js items into lines and sums pages', () => {
    const page1 = [{ str: '医保', hasEOL: false }, { str: '智能', hasEOL: true }, { str: '1', hasEOL: true }, {}];
    expect(pageText(page1)).toBe('医保智能\n1\n');
    expect(countPages([page1, [{ str: 'Page 2 of 2', hasEOL: true }, { str: 'end', hasEOL: false }]])).toBe(7);
  });
});
