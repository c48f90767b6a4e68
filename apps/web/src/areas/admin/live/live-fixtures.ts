/** Answers of the live-final calls for the console pages' tests (packages/shared/src/live-final/api.ts). */
import type { LiveCandidates, LiveChairProject, LiveChairState, LivePlannedProject, LiveSessionDetail, LiveSessionRow } from '@contest/shared';
import { ID } from '../review/review-fixtures';

export const SESSION_ID = ID(900);

export const sessionRow = (over: Partial<LiveSessionRow> = {}): LiveSessionRow => ({
  id: SESSION_ID,
  name: '决赛第一场',
  venue: '报告厅A',
  date: '2026-12-05',
  startTime: '09:00',
  presentationMinutes: 8,
  qaMinutes: 5,
  status: 'PLANNED',
  judges: 2,
  projects: 3,
  done: 0,
  version: 4,
  createdAt: '2026-11-20T01:00:00.000Z',
  updatedAt: '2026-11-21T02:30:00.000Z',
  ...over,
});

export const plannedProject = (n: number, over: Partial<LivePlannedProject> = {}): LivePlannedProject => ({
  projectId: ID(n),
  order: n,
  projectName: `医保项目${n}号`,
  teamName: `团队${n}`,
  orgName: `第${n}医院`,
  track: null,
  groupName: '决赛第1组',
  state: 'WAITING',
  expectedJudgeIds: [ID(101), ID(102)],
  excluded: [],
  ...over,
});

export const sessionDetail = (over: Partial<LiveSessionDetail> = {}): LiveSessionDetail => ({
  ...sessionRow(),
  judgeList: [
    { expertId: ID(101), code: 'E0101', name: '王评委', organization: '甲大学', enabled: true },
    { expertId: ID(102), code: 'E0102', name: '李评委', organization: '乙医院', enabled: true },
  ],
  projectList: [
    plannedProject(1),
    plannedProject(2, {
      expectedJudgeIds: [ID(101)],
      excluded: [
        {
          expertId: ID(102),
          code: 'E0102',
          name: '李评委',
          why: 'CONFLICT',
          cause: { kind: 'NAME', via: 'OWN', expertOrg: '乙医院', teamOrg: '乙医院', text: '单位名称相同' },
        },
      ],
    }),
    plannedProject(3),
  ],
  warnings: [],
  ...over,
});

export const candidates = (): LiveCandidates => ({
  judges: [
    { expertId: ID(101), code: 'E0101', name: '王评委', organization: '甲大学', enabled: true, groupId: ID(201), groupName: '决赛第1组' },
    { expertId: ID(102), code: 'E0102', name: '李评委', organization: '乙医院', enabled: true, groupId: ID(201), groupName: '决赛第1组' },
  ],
  projects: [],
  groups: [{ id: ID(201), name: '决赛第1组', experts: 2, projects: 3 }],
});

export const chairProject = (n: number, over: Partial<LiveChairProject> = {}): LiveChairProject => ({
  projectId: ID(n),
  order: n,
  projectName: `医保项目${n}号`,
  teamName: `团队${n}`,
  orgName: `第${n}医院`,
  track: null,
  state: 'WAITING',
  timer: null,
  submitted: 0,
  expected: 2,
  result: null,
  judges: [
    { expertId: ID(101), code: 'E0101', name: '王评委', status: 'PENDING', total: null },
    { expertId: ID(102), code: 'E0102', name: '李评委', status: 'PENDING', total: null },
  ],
  excluded: [],
  closeReason: null,
  actions: [],
  ...over,
});

/** A live session whose first project is presenting (1 of 2 judges in). */
export const chairState = (over: Partial<LiveChairState> = {}): LiveChairState => {
  const current = chairProject(1, {
    state: 'PRESENTING',
    timer: { phase: 'PRESENTATION', limitSeconds: 480, elapsedMs: 60_000, running: true, at: '2026-12-05T01:01:00.000Z' },
    submitted: 1,
    judges: [
      { expertId: ID(101), code: 'E0101', name: '王评委', status: 'SUBMITTED', total: null },
      { expertId: ID(102), code: 'E0102', name: '李评委', status: 'PENDING', total: null },
    ],
    actions: ['QA', 'SCORE', 'PAUSE', 'CLOSE', 'RETURN_SCORE'],
  });
  return {
    session: { id: SESSION_ID, name: '决赛第一场', venue: '报告厅A', date: '2026-12-05', status: 'LIVE', presentationMinutes: 8, qaMinutes: 5, version: 7 },
    current,
    next: { projectId: ID(2), projectName: '医保项目2号', teamName: '团队2' },
    ranking: [],
    rule: 'TRIMMED_MEAN',
    serverTime: '2026-12-05T01:01:00.000Z',
    projects: [current, chairProject(2, { actions: ['ABSENT', 'SKIP'] })],
    actions: [],
    displays: 1,
    ...over,
  };
};
