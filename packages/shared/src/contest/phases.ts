import type { IsoDateTime } from '../admin/common.js';

/**
 * Contest phases (docs/rules/admin.md, "Phases"). Their windows live in the settings table under
 * `contest.phases` as `{signUp: {start, end}, prelimSubmission: ..., prelimReview: ..., finalReview: ...}`
 * with ISO 8601 times (with offset). A missing or null start/end leaves that side open; a phase
 * that is missing or null is not scheduled (closed).
 */
export const PHASE_KEYS = ['signUp', 'prelimSubmission', 'prelimReview', 'finalReview'] as const;
export type PhaseKey = (typeof PHASE_KEYS)[number];

export const PHASE_NAMES: Record<PhaseKey, string> = {
  signUp: '报名',
  prelimSubmission: '初赛材料提交',
  prelimReview: '初赛评审',
  finalReview: '决赛评审',
};

/** Settings keys the contest module reads. */
export const CONTEST_SETTING_KEYS = {
  name: 'contest.name',
  /** The name on English pages (docs/decisions.md, "English"); absent or blank = CONTEST_NAME_EN_DEFAULT. */
  nameEn: 'contest.nameEn',
  phases: 'contest.phases',
  /** Most counted characters of the application PDF (a positive integer); absent or null = no cap. */
  maxApplicationChars: 'prelim.maxApplicationChars',
  /** Per-kind size ceilings of preliminary attachments in bytes (partial objects allowed); absent = PRELIM_FILE_MAX_BYTES. */
  prelimFileMaxBytes: 'prelim.fileMaxBytes',
} as const;

export interface PhaseWindow {
  start: IsoDateTime | null;
  end: IsoDateTime | null;
}

export type PhaseState = 'UNSCHEDULED' | 'NOT_STARTED' | 'OPEN' | 'ENDED';

export interface ContestPhase {
  key: PhaseKey;
  name: string;
  /** null = not scheduled. Inside, a null side is open-ended. */
  window: PhaseWindow | null;
  state: PhaseState;
}

/** GET /contest/public: what the home page schedule shows. */
export interface ContestPublic {
  name: string;
  /** The name on English pages (always sent; optional for answers of servers before it existed). */
  nameEn?: string;
  phases: ContestPhase[];
  /** The latest phase (in contest order) that is open now, null when none is. */
  currentPhase: PhaseKey | null;
  /** The server's clock, so pages can tell "not started" and "ended" without trusting the device's. */
  now: IsoDateTime;
}

/**
 * Used when the settings hold no `contest.phases` at all: sign-up and preliminary submission
 * always open, reviews unscheduled, so a fresh install can be tried end to end.
 */
export const PHASES_WHEN_UNSET: Record<PhaseKey, PhaseWindow | null> = {
  signUp: { start: null, end: null },
  prelimSubmission: { start: null, end: null },
  prelimReview: null,
  finalReview: null,
};

const parseTime = (value: unknown): number | null | undefined => {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The windows of a stored `contest.phases` value, normalised to ISO strings. Anything malformed
 * (not an object, an unparsable time, start after end) leaves that phase unscheduled: a typo
 * closes a phase rather than opening it.
 */
export function normalisePhases(stored: unknown): Record<PhaseKey, PhaseWindow | null> {
  if (stored === undefined) return { ...PHASES_WHEN_UNSET };
  const out = {} as Record<PhaseKey, PhaseWindow | null>;
  const source = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  for (const key of PHASE_KEYS) {
    const raw = source[key];
    if (!raw || typeof raw !== 'object') {
      out[key] = null;
      continue;
    }
    const start = parseTime((raw as Record<string, unknown>).start);
    const end = parseTime((raw as Record<string, unknown>).end);
    if (start === undefined || end === undefined || (start !== null && end !== null && start > end)) {
      out[key] = null;
      continue;
    }
    out[key] = { start: start === null ? null : new Date(start).toISOString(), end: end === null ? null : new Date(end).toISOString() };
  }
  return out;
}

/** Where `now` stands in a window; both ends are inclusive. */
export function phaseState(window: PhaseWindow | null, now: Date): PhaseState {
  if (!window) return 'UNSCHEDULED';
  const t = now.getTime();
  if (window.start !== null && t < Date.parse(window.start)) return 'NOT_STARTED';
  if (window.end !== null && t > Date.parse(window.end)) return 'ENDED';
  return 'OPEN';
}

export function describeContest(name: string, windows: Record<PhaseKey, PhaseWindow | null>, now: Date, nameEn: string = name): ContestPublic {
  const phases = PHASE_KEYS.map((key) => ({ key, name: PHASE_NAMES[key], window: windows[key], state: phaseState(windows[key], now) }));
  const open = phases.filter((p) => p.state === 'OPEN');
  return { name, nameEn, phases, currentPhase: open.length ? open[open.length - 1]!.key : null, now: now.toISOString() };
}
