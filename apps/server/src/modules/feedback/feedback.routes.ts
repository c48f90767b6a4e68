import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { CONTENT_MSG, FEEDBACK_MSG, adminFeedbackQuerySchema, feedbackCreateSchema, feedbackMyQuerySchema, feedbackReplySchema, idParamsSchema } from '@contest/shared';
import type { Pii } from '../../lib/pii.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { FeedbackService } from './feedback.service.js';

export interface FeedbackRoutesOptions {
  service: FeedbackService;
  participant: preHandlerAsyncHookHandler;
  /** Admin holding the UserFeedback menu (reading), or the `feedback:reply` button (replying, closing). */
  canRead: (request: FastifyRequest) => Promise<void>;
  canReply: (request: FastifyRequest) => Promise<void>;
  /** How personal information may be searched by the caller (AdminGuards.pii). */
  pii: (request: FastifyRequest) => Promise<Pii>;
}

export async function feedbackRoutes(base: FastifyInstance, { service, participant, canRead, canReply, pii }: FeedbackRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post('/feedback', { onRequest: participant, schema: { body: feedbackCreateSchema } }, async (request) =>
    ok(await service.create(authOf(request).accountId, request.body), CONTENT_MSG.feedbackSent),
  );
  app.get('/feedback/my', { onRequest: participant, schema: { querystring: feedbackMyQuerySchema } }, async (request) =>
    ok(await service.mine(authOf(request).accountId, request.query)),
  );
  app.get('/feedback/:id', { onRequest: participant, schema: { params: z.object({ id: z.string().max(64) }) } }, async (request) =>
    ok(await service.own(authOf(request).accountId, request.params.id)),
  );

  app.get('/admin/feedback', { onRequest: canRead, schema: { querystring: adminFeedbackQuerySchema } }, async (request) =>
    ok(await service.adminList(request.query, await pii(request))),
  );
  app.get('/admin/feedback/:id', { onRequest: canRead, schema: { params: idParamsSchema } }, async (request) => ok(await service.adminDetail(request.params.id)));
  app.post('/admin/feedback/:id/reply', { config: { audit: 'feedback:reply' }, onRequest: canReply, schema: { params: idParamsSchema, body: feedbackReplySchema } }, async (request) =>
    ok(await service.reply(actorOf(request), request.params.id, request.body), CONTENT_MSG.replied),
  );
  app.post('/admin/feedback/:id/close', { config: { audit: 'feedback:close' }, onRequest: canReply, schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.close(actorOf(request), request.params.id), FEEDBACK_MSG.feedbackClosedOk),
  );
}
