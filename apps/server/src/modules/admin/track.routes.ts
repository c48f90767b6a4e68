import type { FastifyInstance } from 'fastify';
import { trackQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from './admin.guard.js';

// A console may report every route change; more than two a second from one address is noise.
const TRACK_LIMIT = { rateLimit: { max: 120, timeWindow: 60_000 } };

/**
 * GET /admin/track: console page views. Kept cheap on purpose: one structured log line, no
 * database write (operation records are for changes, and a row per click would drown them).
 */
export async function trackRoutes(base: FastifyInstance, { guards }: { guards: AdminGuards }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/admin/track', { onRequest: guards.button(null), schema: { querystring: trackQuerySchema }, config: TRACK_LIMIT }, async (request) => {
    request.log.info({ track: { account: request.auth!.username, path: request.query.path, event: request.query.event ?? 'view' } }, 'admin track');
    return ok(null);
  });
}
