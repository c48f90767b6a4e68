import type { FastifyInstance } from 'fastify';
import {
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  ROUND_ACCESS,
  ROUND_SLUGS,
  calibrationNoteSchema,
  cutConfidenceSchema,
  normalisationQuerySchema,
  type CalibrationNoteBody,
  type CutConfidenceBody,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import { EXPORT_LIMIT, sendXlsx } from '../team/team.routes.js';
import type { JudgingQualityService } from './judging-quality.service.js';
import type { ReviewDeps } from './review.module.js';

/**
 * Judging quality of both rounds (docs/api-review.md, "Judging quality"): calibration and its
 * export, a note to an expert, the normalisation effect, and the confidence on the cut. Reads
 * under the round's score-query menu; the export under its score-export button; the note under
 * its remind button (a notice to an expert, as 提醒专家); starting a bootstrap under its own.
 */
export function judgingQualityRoutes(base: FastifyInstance, deps: ReviewDeps, judging: JudgingQualityService): void {
  const app = base.withTypeProvider<ZodTypeProvider>();
  for (const round of REVIEW_ROUNDS) {
    const slug = ROUND_SLUGS[round];
    const access = ROUND_ACCESS[round];
    const scoresMenu = deps.guards.menu(access.scoresMenu);

    app.get(`/admin/review/${slug}/calibration`, { onRequest: scoresMenu }, async () => ok(await judging.calibration(round)));
    app.get(`/admin/review/${slug}/calibration/export`, { onRequest: deps.guards.button(access.scoreExport), config: EXPORT_LIMIT }, async (request, reply) =>
      sendXlsx(reply, await judging.calibrationExport(actorOf(request), round, access.scoreExport)),
    );
    app.post(
      `/admin/review/${slug}/calibration/note`,
      { config: { audit: access.remind }, onRequest: deps.guards.button(access.remind), schema: { body: calibrationNoteSchema } },
      async (request) => {
        await judging.note(actorOf(request), round, request.body as CalibrationNoteBody, access.remind);
        return ok(null, M.calibrationNoteSent);
      },
    );
    app.get(`/admin/review/${slug}/normalisation`, { onRequest: scoresMenu, schema: { querystring: normalisationQuerySchema } }, async (request) =>
      ok(await judging.normalisation(round, request.query)),
    );
    // Starts the bootstrap and answers at once (status RUNNING); GET reads it back.
    app.post(
      `/admin/review/${slug}/cut-confidence`,
      { config: { audit: access.cutConfidence }, onRequest: deps.guards.button(access.cutConfidence), schema: { body: cutConfidenceSchema } },
      async (request) => ok(await judging.startCutConfidence(actorOf(request), round, request.body as CutConfidenceBody, access.cutConfidence), M.cutConfidenceStarted),
    );
    app.get(`/admin/review/${slug}/cut-confidence`, { onRequest: scoresMenu }, async () => ok(await judging.latestCutConfidence(round)));
  }
}
