/**
 * The judging-quality calls (docs/api-review.md, "Judging quality"; docs/rules/judging-quality.md):
 * calibration of the round's experts, the normalisation effect on the promotion cut, and the
 * bootstrap confidence on the cut. `:r` is a round slug (prelim | final).
 */
import { z } from 'zod';
import { optionalQuery, uuidSchema, type IsoDateTime } from '../admin/common.js';
import type { ReviewRound, ScoringRule } from '../admin/settings.js';
import type { ExpertCalibration, RuleRanks } from './calibration.js';
import { BOOTSTRAP_ROUNDS, type ProjectCutConfidence } from './cut-confidence.js';
import { REVIEW_MSG as M } from './messages.js';

/** Bounds of the bootstrap's number of draws: under 100 the shares are too coarse, above 10,000 nothing changes but the wait. */
export const BOOTSTRAP_ROUNDS_MIN = 100;
export const BOOTSTRAP_ROUNDS_MAX = 10_000;
/** The cut's N, as the promotion's (promoteNInvalid). */
export const CUT_TOP_N_MAX = 1000;
export const CALIBRATION_NOTE_MAX = 500;

const topN = (schema: z.ZodNumber) => schema.int(M.promoteNInvalid).min(1, M.promoteNInvalid).max(CUT_TOP_N_MAX, M.promoteNInvalid);

// ------------------------------------------------------------------ calibration
// GET /admin/review/:r/calibration (scores menu); GET /admin/review/:r/calibration/export (score
// export button); POST /admin/review/:r/calibration/note (remind button): an in-site note to one expert

/**
 * One expert's figures (calibration.ts, `abstained` counting the projects they abstained from in
 * the round, docs/rules/review.md, "Abstaining") with who they are.
 */
export interface CalibrationRow extends ExpertCalibration {
  code: string;
  name: string;
  organization: string;
}

export interface CalibrationView {
  round: ReviewRound;
  rule: ScoringRule;
  /** Flagged LENIENT/HARSH beyond this many panel sds. */
  leniencyFactor: number;
  panel: { leniencyMean: number | null; leniencySd: number | null; experts: number };
  /** In expert code order. */
  experts: CalibrationRow[];
}

export const calibrationNoteSchema = z.object({
  expertId: uuidSchema,
  text: z.string({ error: M.calibrationNoteRequired }).trim().min(1, M.calibrationNoteRequired).max(CALIBRATION_NOTE_MAX, M.calibrationNoteTooLong),
});
export type CalibrationNoteBody = z.infer<typeof calibrationNoteSchema>;

// ------------------------------------------------------------------ normalisation effect
// GET /admin/review/:r/normalisation?topN=&perTrack= (scores menu)

export const normalisationQuerySchema = z.object({
  topN: topN(z.coerce.number({ error: M.promoteNInvalid })),
  perTrack: optionalQuery(z.enum(['true', 'false'], { error: M.perTrackInvalid }).transform((v) => v === 'true')).transform((v) => v ?? false),
});
export type NormalisationQuery = z.infer<typeof normalisationQuerySchema>;

export interface NormalisationMove {
  projectId: string;
  projectCode: string;
  projectName: string;
  track: string | null;
  /** The declared rule first, then each alternative. */
  under: RuleRanks[];
}

export interface NormalisationView {
  round: ReviewRound;
  declared: ScoringRule['aggregate'];
  alternatives: ScoringRule['aggregate'][];
  topN: number;
  perTrack: boolean;
  moves: NormalisationMove[];
}

// ------------------------------------------------------------------ confidence on the cut
// POST /admin/review/:r/cut-confidence (scores menu): starts the bootstrap off the request path
// GET /admin/review/:r/cut-confidence (scores menu): the latest run, `stale` when the inputs changed

export const cutConfidenceSchema = z.object({
  topN: topN(z.number({ error: M.promoteNInvalid })),
  perTrack: z.boolean({ error: M.perTrackInvalid }).default(false),
  seed: z.number({ error: M.seedInvalid }).int(M.seedInvalid).min(0, M.seedInvalid).max(0xffff_ffff, M.seedInvalid).optional(),
  rounds: z
    .number({ error: M.bootstrapRoundsInvalid })
    .int(M.bootstrapRoundsInvalid)
    .min(BOOTSTRAP_ROUNDS_MIN, M.bootstrapRoundsInvalid)
    .max(BOOTSTRAP_ROUNDS_MAX, M.bootstrapRoundsInvalid)
    .default(BOOTSTRAP_ROUNDS),
});
export type CutConfidenceBody = z.infer<typeof cutConfidenceSchema>;

export const CUT_CONFIDENCE_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
export type CutConfidenceStatus = (typeof CUT_CONFIDENCE_STATUSES)[number];

/**
 * One project's confidence (cut-confidence.ts) with its code and name; `projectId` is the
 * prelim_docs id, what POST /admin/review/:r/projects/:id/rereview takes.
 */
export interface CutConfidenceProjectView extends ProjectCutConfidence {
  projectCode: string;
  projectName: string;
}

export interface CutConfidenceRunView {
  id: string;
  round: ReviewRound;
  status: CutConfidenceStatus;
  topN: number;
  perTrack: boolean;
  seed: number;
  rounds: number;
  aggregate: ScoringRule['aggregate'];
  /** The inputs changed since the run started (a submit, a return, a group or rule change...). */
  stale: boolean;
  startedAt: IsoDateTime;
  finishedAt: IsoDateTime | null;
  startedBy: string;
  error: string | null;
  /** In the declared ranking's order; empty until DONE. */
  projects: CutConfidenceProjectView[];
}
