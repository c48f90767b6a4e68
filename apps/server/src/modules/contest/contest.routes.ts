import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope.js';
import type { ContestService } from './contest.service.js';

/** GET /contest/public: name and phase windows for the home page schedule; no login. */
export async function contestRoutes(app: FastifyInstance, { service }: { service: ContestService }): Promise<void> {
  app.get('/contest/public', async () => ok(await service.publicInfo()));
}
