import type { FastifyInstance } from 'fastify';
import type { ReviewDeps } from './review.module.js';

/** PLACEHOLDER: filled by the groups helper (issue 11). */
export async function groupsRoutes(app: FastifyInstance, deps: ReviewDeps): Promise<void> {
  void app;
  void deps;
}
