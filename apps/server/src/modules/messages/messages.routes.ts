import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { CONTENT_MSG, messageListQuerySchema } from '@contest/shared';
import { z } from 'zod';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { authOf } from '../auth/auth.guard.js';
import type { MessagesService } from './messages.service.js';

/** The participant inbox (/my-message) and its badge. */
export async function messagesRoutes(base: FastifyInstance, { service, participant }: { service: MessagesService; participant: preHandlerAsyncHookHandler }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const opts = { onRequest: participant };
  app.get('/messages', { ...opts, schema: { querystring: messageListQuerySchema } }, async (request) =>
    ok(await service.list(authOf(request).accountId, request.query)),
  );
  app.get('/messages/summary', opts, async (request) => ok(await service.summary(authOf(request).accountId)));
  app.put('/messages/read-all', opts, async (request) => ok(await service.readAll(authOf(request).accountId), CONTENT_MSG.allRead));
  // Any other id shape is simply not one of the caller's messages: 404 as for a foreign one.
  app.get('/messages/:id', { ...opts, schema: { params: z.object({ id: z.string().max(64) }) } }, async (request) =>
    ok(await service.open(authOf(request).accountId, request.params.id)),
  );
}
