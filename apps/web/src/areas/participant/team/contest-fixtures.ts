/** Answers of the contest calls for the page tests (shapes of @contest/shared). */
import { vi } from 'vitest';
import { PRELIM_FILE_MAX_BYTES, type PrelimBrief, type PrelimDetail, type TeamBrief, type TeamDetail, type TeamStatus } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, participantInfo } from '../../../test/api-mocks';

export const VALID_CREDIT_CODE = '91350100M000100Y43';

const file = (uniqueNo: string, name: string, size = 2048) => ({
  uniqueNo,
  name,
  extension: name.split('.').pop()!,
  size,
  filePath: `/api/attachment/stream/${uniqueNo}`,
});

export function teamFixture(status: TeamStatus, patch: Partial<TeamDetail> = {}): TeamDetail {
  return {
    id: 'team-1',
    status,
    orgName: '福州数字医保研究院',
    orgType: 'ENTERPRISE',
    creditCode: VALID_CREDIT_CODE,
    region: 'P13',
    city: '福州',
    track: 'SMART_SUPERVISION',
    teamName: '智审先锋',
    leader: { name: '张三', phone: '13800000001', email: 'zhang@example.com', title: 'SENIOR' },
    members: [{ name: '李四', organization: '福州数字医保研究院', title: 'INTERMEDIATE', phone: '', email: '', role: 'DEVELOPER' }],
    advisor: null,
    certificate: file('cert000000000000000001', '营业执照.pdf'),
    commitment: file('comm000000000000000001', '承诺书.pdf'),
    recommendation: null,
    auditReason: null,
    submittedAt: null,
    auditedAt: null,
    createdAt: '2025-06-01T02:00:00.000Z',
    updatedAt: '2025-06-01T02:00:00.000Z',
    editable: status === 'DRAFT' || status === 'REVISING',
    history: [],
    ...patch,
  };
}

export function teamBrief(teamStatus: TeamStatus | null): TeamBrief {
  return {
    teamStatus,
    prelimDocStatus: teamStatus === 'APPROVED' ? 'NOT_FILLED' : null,
    teamId: teamStatus ? 'team-1' : null,
    teamName: null,
    orgName: null,
    track: null,
    auditReason: null,
    submittedAt: null,
    updatedAt: null,
    editable: teamStatus === null || teamStatus === 'DRAFT' || teamStatus === 'REVISING',
    signUpOpen: true,
  };
}

export function prelimFixture(status: PrelimDetail['status'], patch: Partial<PrelimDetail> = {}): PrelimDetail {
  return {
    id: status === 'NOT_FILLED' ? null : 'doc-1',
    teamId: 'team-1',
    teamName: '智审先锋',
    status,
    projectName: '医保基金智能审核',
    track: 'SMART_SUPERVISION',
    summary: '基于规则与模型的医保基金智能审核系统。',
    keywords: ['智能审核', '基金安全'],
    application: file('appl000000000000000001', '申报书.pdf'),
    applicationChars: 1234,
    maxApplicationChars: null,
    fileMaxBytes: { ...PRELIM_FILE_MAX_BYTES },
    presentation: file('pres000000000000000001', '演示.pptx'),
    video: null,
    others: [],
    auditReason: null,
    submittedAt: null,
    auditedAt: null,
    createdAt: null,
    updatedAt: null,
    editable: ['NOT_FILLED', 'DRAFT', 'REVISING'].includes(status),
    history: [],
    ...patch,
  };
}

export function prelimBrief(prelimDocStatus: PrelimBrief['prelimDocStatus'], teamStatus: TeamStatus | null = 'APPROVED'): PrelimBrief {
  return {
    teamStatus,
    prelimDocStatus,
    id: null,
    projectName: null,
    applicationChars: null,
    maxApplicationChars: null,
    auditReason: null,
    submittedAt: null,
    updatedAt: null,
    editable: true,
    submissionOpen: true,
  };
}

export const DICT = {
  ORG_TYPE: [
    { code: 'ENTERPRISE', name: '企业' },
    { code: 'UNIVERSITY', name: '高校及科研院所' },
  ],
  TRACK: [{ code: 'SMART_SUPERVISION', name: '智能监管与基金安全' }],
  REGION: [{ code: 'P13', name: '福建省' }],
  MEMBER_ROLE: [{ code: 'DEVELOPER', name: '研发' }],
  PROFESSIONAL_TITLE: [
    { code: 'SENIOR', name: '正高级' },
    { code: 'INTERMEDIATE', name: '中级' },
  ],
};

const LABELS = Object.fromEntries(Object.entries(DICT).map(([type, items]) => [type, Object.fromEntries(items.map((i) => [i.code, i.name]))]));

/** GET answers by path; `answers` overrides or adds paths. */
export function mockGets(answers: Record<string, unknown>, info = participantInfo('demo1')) {
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url in answers) {
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      return ok(answer);
    }
    if (url === '/user/account') return ok(info);
    if (url === '/dic/module') return ok(DICT);
    if (url === '/dic/label') return ok(LABELS);
    if (url === '/messages/summary') return ok({ unreadCount: 0 });
    throw new Error(`unexpected GET ${url}`);
  }) as never;
}
