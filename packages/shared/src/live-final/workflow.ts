import { defineWorkflow } from '../workflow/workflow.js';
import { LIVE_MSG as M } from './messages.js';

/**
 * The live final's two status machines (docs/live-final.md, "State machine"), applied by the
 * workflow core like every other: the session (场次) and each project of it (上场项目).
 */
export const LIVE_SESSION_STATUSES = ['PLANNED', 'LIVE', 'ENDED'] as const;
export type LiveSessionStatus = (typeof LIVE_SESSION_STATUSES)[number];

export const LIVE_PROJECT_STATES = ['WAITING', 'PRESENTING', 'QA', 'SCORING', 'CLOSED', 'REVEALED', 'ABSENT', 'SKIPPED'] as const;
export type LiveProjectState = (typeof LIVE_PROJECT_STATES)[number];

/** States in which the project holds the stage: only one per session at a time. */
export const LIVE_ACTIVE_STATES = ['PRESENTING', 'QA', 'SCORING', 'CLOSED'] as const satisfies readonly LiveProjectState[];
/** States in which judges may submit (scoring opens when the presentation starts). */
export const LIVE_SCORING_STATES = ['PRESENTING', 'QA', 'SCORING'] as const satisfies readonly LiveProjectState[];
/** States in which no single score is sealed any more (docs/live-final.md, "Sealing"). */
export const LIVE_UNSEALED_STATES = ['CLOSED', 'REVEALED'] as const satisfies readonly LiveProjectState[];
/** Timer phases: which limit runs. */
export const LIVE_TIMER_PHASES = ['PRESENTATION', 'QA'] as const;
export type LiveTimerPhase = (typeof LIVE_TIMER_PHASES)[number];

export const isLiveSealed = (state: LiveProjectState): boolean => !(LIVE_UNSEALED_STATES as readonly string[]).includes(state);

/** Chair's actions on a project (body `action` of POST /admin/live/sessions/:id/actions). */
export const LIVE_PROJECT_ACTIONS = ['START', 'QA', 'SCORE', 'PAUSE', 'RESUME', 'CLOSE', 'RETURN_SCORE', 'REVEAL', 'ABSENT', 'SKIP', 'REQUEUE'] as const;
export type LiveProjectAction = (typeof LIVE_PROJECT_ACTIONS)[number] | 'COMPLETE';
/** Chair's actions on the session. */
export const LIVE_SESSION_ACTIONS = ['OPEN', 'NEXT', 'END', 'REOPEN'] as const;
export type LiveSessionAction = (typeof LIVE_SESSION_ACTIONS)[number];
export const LIVE_CHAIR_ACTIONS = [...LIVE_SESSION_ACTIONS, ...LIVE_PROJECT_ACTIONS] as const;
export type LiveChairAction = (typeof LIVE_CHAIR_ACTIONS)[number];

export const LIVE_SESSION_WORKFLOW = defineWorkflow({
  subject: 'LIVE_SESSION',
  states: LIVE_SESSION_STATUSES,
  transitions: [
    /** 开始答辩: the first waiting project goes on stage. */
    { action: 'OPEN', from: ['PLANNED'], to: 'LIVE', by: ['ADMIN'] },
    /** 下一个: the next waiting project (in order) goes on stage. */
    { action: 'NEXT', from: ['LIVE'], to: 'SAME', by: ['ADMIN'] },
    { action: 'END', from: ['LIVE'], to: 'ENDED', by: ['ADMIN'] },
    { action: 'REOPEN', from: ['ENDED'], to: 'LIVE', by: ['ADMIN'], reasonRequired: true },
  ],
  refusals: { NEXT: M.sessionNotLive, END: M.sessionNotLive },
  refused: M.actionInvalid,
});

export const LIVE_PROJECT_WORKFLOW = defineWorkflow({
  subject: 'LIVE_PROJECT',
  states: LIVE_PROJECT_STATES,
  transitions: [
    /** 开始陈述: the presentation timer starts and scoring opens. */
    { action: 'START', from: ['WAITING'], to: 'PRESENTING', by: ['ADMIN'] },
    /** 进入提问: the question timer starts. */
    { action: 'QA', from: ['PRESENTING'], to: 'QA', by: ['ADMIN'] },
    /** 结束答辩: the timer stops, the judges finish scoring. */
    { action: 'SCORE', from: ['PRESENTING', 'QA'], to: 'SCORING', by: ['ADMIN'] },
    { action: 'PAUSE', from: ['PRESENTING', 'QA'], to: 'SAME', by: ['ADMIN'] },
    { action: 'RESUME', from: ['PRESENTING', 'QA'], to: 'SAME', by: ['ADMIN'] },
    /** Every expected judge has submitted (the last submit, or SCORE when all are in). */
    { action: 'COMPLETE', from: ['SCORING'], to: 'CLOSED', by: ['EXPERT', 'ADMIN'] },
    /** 关闭评分: the reason is required when a judge is missing (the service checks: closeReasonRequired). */
    { action: 'CLOSE', from: ['PRESENTING', 'QA', 'SCORING'], to: 'CLOSED', by: ['ADMIN'] },
    /** 退回评分: one judge's submitted sheet goes back to them (SHEET RETURN). */
    { action: 'RETURN_SCORE', from: ['PRESENTING', 'QA', 'SCORING'], to: 'SAME', by: ['ADMIN'], reasonRequired: true },
    { action: 'RETURN_SCORE', from: ['CLOSED'], to: 'SCORING', by: ['ADMIN'], reasonRequired: true },
    /** 公布成绩 on the big screen. */
    { action: 'REVEAL', from: ['CLOSED'], to: 'REVEALED', by: ['ADMIN'] },
    { action: 'ABSENT', from: ['WAITING'], to: 'ABSENT', by: ['ADMIN'] },
    { action: 'SKIP', from: ['WAITING'], to: 'SKIPPED', by: ['ADMIN'] },
    /** Back in the queue (a late team, a skipped one called again). */
    { action: 'REQUEUE', from: ['ABSENT', 'SKIPPED'], to: 'WAITING', by: ['ADMIN'] },
  ],
  refusals: {},
  refused: M.actionInvalid,
});

/** What the chair's buttons and the operation records call each action. */
export const LIVE_ACTION_NAMES: Record<LiveChairAction | 'COMPLETE', string> = {
  OPEN: '开始答辩',
  NEXT: '下一个',
  END: '结束场次',
  REOPEN: '重新开放场次',
  START: '开始陈述',
  QA: '进入提问',
  SCORE: '结束答辩',
  PAUSE: '暂停计时',
  RESUME: '继续计时',
  CLOSE: '关闭评分',
  RETURN_SCORE: '退回评分',
  REVEAL: '公布成绩',
  ABSENT: '标记缺席',
  SKIP: '跳过',
  REQUEUE: '重新排队',
  COMPLETE: '评分完成',
};

/** What each project state is called on the screens. */
export const LIVE_PROJECT_STATE_NAMES: Record<LiveProjectState, string> = {
  WAITING: '待答辩',
  PRESENTING: '陈述中',
  QA: '提问中',
  SCORING: '评分中',
  CLOSED: '评分结束',
  REVEALED: '已公布',
  ABSENT: '缺席',
  SKIPPED: '已跳过',
};

export const LIVE_SESSION_STATUS_NAMES: Record<LiveSessionStatus, string> = { PLANNED: '未开始', LIVE: '进行中', ENDED: '已结束' };
