/**
 * What a retention run will touch (docs/retention.md, "One plan"): due kinds from the periods and
 * the contest's end, and the items of each, with a masked sample for the console. The plan is
 * stored (retention_items) and the real run executes exactly it.
 */
import { PHASE_KEYS, RETENTION_DAYS_DEFAULT, RETENTION_KINDS, maskPhone, type ContestSettings, type RetentionKind, type RetentionKindState, type RetentionSample } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { operationRecordsBefore } from '../audit/audit.retention.js';
import { filesOfOrigin, loginRecordsBefore, peopleToAnonymise, type PlannedItem } from './retention.repository.js';

const DAY_MS = 86_400_000;
/** Items one run plans per kind at most; what is left is planned by the next run (logs can be long). */
export const PLAN_MAX_PER_KIND = 100_000;
const SAMPLES_PER_KIND = 5;

export const LOG_KINDS: ReadonlySet<RetentionKind> = new Set(['LOGIN_RECORDS', 'OPERATION_RECORDS']);

/**
 * The contest's end (docs/retention.md, "When"): the latest end of its scheduled phases (决赛评审
 * normally). Null while nothing is scheduled or a scheduled phase is open-ended: the contest has
 * not ended as far as the settings say.
 */
export function contestEndOf(settings: ContestSettings): Date | null {
  let end: number | null = null;
  for (const key of PHASE_KEYS) {
    const w = settings.phases[key];
    if (!w) continue;
    if (w.end === null) return null;
    const at = Date.parse(w.end);
    if (end === null || at > end) end = at;
  }
  return end === null ? null : new Date(end);
}

/** Each kind's period, due date (contest end + days) and whether it has come. */
export function kindStates(settings: ContestSettings, now: Date): RetentionKindState[] {
  const end = contestEndOf(settings);
  const days = settings.retention?.days ?? RETENTION_DAYS_DEFAULT;
  return RETENTION_KINDS.map((kind) => {
    const d = days[kind];
    const dueAt = end ? new Date(end.getTime() + d * DAY_MS) : null;
    return { kind, days: d, dueAt: dueAt?.toISOString() ?? null, due: !!dueAt && dueAt.getTime() <= now.getTime() };
  });
}

/**
 * The cut-off of a due kind: files and people are all planned once due; records are a rolling
 * window from then on, those older than the period (a record made after the contest is kept its
 * full period too).
 */
export function cutoffOf(kind: RetentionKind, days: number, now: Date): Date {
  return LOG_KINDS.has(kind) ? new Date(now.getTime() - days * DAY_MS) : now;
}

const maskName = (name: string | null) => (name ? `${[...name][0]}${'*'.repeat(Math.max(1, [...name].length - 1))}` : '—');
const maskIdentifier = (id: string) => (/^1\d{10}$/.test(id) ? maskPhone(id) : `${[...id].slice(0, 2).join('')}***`);

export interface Plan {
  items: PlannedItem[];
  /** Items per kind (RetentionKind). */
  counts: Record<string, number>;
  samples: RetentionSample[];
}

/**
 * The items of the given kinds. `accountId` narrows the plan to one participant (an approved
 * deletion request): their person, their sign-up and materials files.
 */
export async function buildPlan(db: Db, kinds: ReadonlyMap<RetentionKind, Date>, accountId: string | null = null): Promise<Plan> {
  const plan: Plan = { items: [], counts: {}, samples: [] };
  const add = (kind: RetentionKind, rows: Array<{ targetId: string; storageKey?: string | null; label: string; at: Date | null }>) => {
    for (const r of rows) plan.items.push({ kind, targetId: r.targetId, storageKey: r.storageKey ?? null });
    plan.counts[kind] = rows.length;
    plan.samples.push(...rows.slice(0, SAMPLES_PER_KIND).map((r) => ({ kind, label: r.label, at: r.at?.toISOString() ?? null })));
  };
  for (const [kind, cutoff] of kinds) {
    switch (kind) {
      case 'MATERIAL_FILES':
      case 'SIGNUP_FILES': {
        const rows = await filesOfOrigin(db, kind === 'MATERIAL_FILES' ? 'PRELIM' : 'TEAM', accountId, PLAN_MAX_PER_KIND);
        add(kind, rows.map((f) => ({ targetId: f.id, storageKey: f.storageKey, label: f.name, at: f.createdAt })));
        break;
      }
      case 'PARTICIPANT_DATA':
      case 'EXPERT_DATA': {
        const rows = await peopleToAnonymise(db, kind === 'PARTICIPANT_DATA' ? 'USER' : 'EXPERT', accountId, PLAN_MAX_PER_KIND);
        add(kind, rows.map((p) => ({ targetId: p.id, label: `${maskName(p.name)} ${maskPhone(p.phone) ?? ''}`.trim(), at: p.createdAt })));
        break;
      }
      case 'LOGIN_RECORDS': {
        const rows = await loginRecordsBefore(db, cutoff, PLAN_MAX_PER_KIND);
        add(kind, rows.map((r) => ({ targetId: r.id, label: maskIdentifier(r.identifier), at: r.createdAt })));
        break;
      }
      case 'OPERATION_RECORDS': {
        const rows = await operationRecordsBefore(db, cutoff, PLAN_MAX_PER_KIND);
        add(kind, rows.map((r) => ({ targetId: r.id, label: r.action, at: r.createdAt })));
        break;
      }
    }
  }
  return plan;
}
