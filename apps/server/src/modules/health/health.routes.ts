import type { FastifyInstance } from 'fastify';
import { ok, failure } from '../../plugins/envelope.js';
import { checkHealth } from './health.service.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', { config: { rateLimit: false } }, async (_request, reply) => {
    const report = await checkHealth(app.deps);
    if (report.ok) return ok(report);
    return reply.status(503).send(failure(503, 'SERVICE_UNAVAILABLE', '服务暂不可用', report));
  });
}
