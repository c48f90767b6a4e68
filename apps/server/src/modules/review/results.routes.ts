import type { FastifyInstance } from 'fastify';
import type { ReviewDeps } from './review.module.js';

/** PLACEHOLDER: filled by the results helper (issue 11). */
export async function resultsRoutes(app: FastifyInstance, deps: ReviewDeps): Promise<void> {
  void app;
  void deps;
}
