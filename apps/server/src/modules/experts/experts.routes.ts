import type { FastifyInstance } from 'fastify';
import type { ReviewDeps } from '../review/review.module.js';

/** PLACEHOLDER: filled by the experts helper (issue 11). */
export async function expertsRoutes(app: FastifyInstance, deps: ReviewDeps): Promise<void> {
  void app;
  void deps;
}
