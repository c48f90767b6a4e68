/**
 * Calls of the judging-quality page (docs/api-review.md, "Judging quality"; shapes in
 * packages/shared/src/review/judging-quality-api.ts). `slug` is a round slug (prelim | final).
 */
import type { CalibrationNoteBody, CalibrationView, CutConfidenceBody, CutConfidenceRunView, NormalisationView, RoundSlug } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

const base = (slug: RoundSlug) => `/admin/review/${slug}`;

/** Under the review round's key, so what invalidates a round's review data refreshes these too. */
export const QUALITY_QUERY_KEYS = {
  calibration: (slug: RoundSlug) => ['admin', 'review', slug, 'quality', 'calibration'] as const,
  normalisation: (slug: RoundSlug, topN: number, perTrack: boolean) => ['admin', 'review', slug, 'quality', 'normalisation', topN, perTrack] as const,
  cutConfidence: (slug: RoundSlug) => ['admin', 'review', slug, 'quality', 'cut-confidence'] as const,
};

/** Writes report their refusals inside their dialog or form, not a second time in a toast. */
const SILENT = { silent: true } as const;

export const fetchCalibration = (slug: RoundSlug) => dataOf(api.get<CalibrationView>(`${base(slug)}/calibration`));
export const calibrationExportUrl = (slug: RoundSlug) => `${base(slug)}/calibration/export`;
export const sendCalibrationNote = (slug: RoundSlug, body: CalibrationNoteBody) =>
  dataOf(api.post<null>(`${base(slug)}/calibration/note`, body, SILENT));
export const fetchNormalisation = (slug: RoundSlug, topN: number, perTrack: boolean) =>
  dataOf(api.get<NormalisationView>(`${base(slug)}/normalisation`, { params: { topN, perTrack: String(perTrack) } }));
export const fetchCutConfidence = (slug: RoundSlug) => dataOf(api.get<CutConfidenceRunView | null>(`${base(slug)}/cut-confidence`));
export const startCutConfidence = (slug: RoundSlug, body: Partial<CutConfidenceBody> & { topN: number }) =>
  dataOf(api.post<CutConfidenceRunView>(`${base(slug)}/cut-confidence`, body, SILENT));
