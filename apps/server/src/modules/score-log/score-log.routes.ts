import type { FastifyInstance } from 'fastify';
import { scoreLogExportQuerySchema, scoreLogQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import type { ScoreLogService } from './score-log.service.js';

// A verification reads the whole log, an export too: a few per minute per admin is plenty.
const HEAVY_LIMIT = { rateLimit: { max: 10, timeWindow: 60_000 } };

/** /admin/score-log: 评分存证 (menu scoreLog; the export needs score-log:export). Read-only: nothing edits the log. */
export async function scoreLogRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: ScoreLogService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/admin/score-log', { onRequest: guards.menu('scoreLog'), schema: { querystring: scoreLogQuerySchema } }, async (request) =>
    ok(await service.list(request.query)),
  );
  app.get('/admin/score-log/verify', { config: { audit: 'score-log:verify', ...HEAVY_LIMIT }, onRequest: guards.menu('scoreLog') }, async (request) =>
    ok(await service.verify(actorOf(request))),
  );
  app.get('/admin/score-log/anchors', { onRequest: guards.menu('scoreLog') }, async () => ok(await service.anchors()));
  app.get(
    '/admin/score-log/export',
    { config: { audit: 'score-log:export', ...HEAVY_LIMIT }, onRequest: guards.button('score-log:export'), schema: { querystring: scoreLogExportQuerySchema } },
    async (request, reply) => {
      const { stream, fileName, contentType } = await service.export(actorOf(request), request.query);
      const ascii = fileName.endsWith('.jsonl') ? 'score-log.jsonl' : 'score-log.xlsx';
      return reply
        .header('content-type', contentType)
        .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        .send(stream);
    },
  );
}
