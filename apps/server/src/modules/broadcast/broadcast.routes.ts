import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  BROADCAST_CHANNELS,
  BROADCAST_CHANNEL_PATHS,
  BROADCAST_MENU,
  BROADCAST_MSG as M,
  BROADCAST_SEND_BUTTON,
  broadcastAccountsQuerySchema,
  broadcastDraftSchema,
  broadcastListQuerySchema,
  broadcastRecordsQuerySchema,
  idParamsSchema,
  type BroadcastChannel,
} from '@contest/shared';
import { forbidden } from '../../lib/errors.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import type { BroadcastService } from './broadcast.service.js';

/**
 * Bulk sends (站内信管理, 短信管理, email). The writes carry the channel in their path, so each is
 * guarded by that channel's button (message:send, sms:send); the reads are open to either page's
 * menu and then checked against the channel's own page.
 */
export async function broadcastRoutes(base: FastifyInstance, { service, guards }: { service: BroadcastService; guards: AdminGuards }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const canRead = guards.menu('InMailManage', 'NoteManage');
  const checkChannel = async (request: FastifyRequest, channel: BroadcastChannel) => {
    if (!(await guards.menus.holdsAny(request.auth!, [BROADCAST_MENU[channel]]))) throw forbidden();
  };

  for (const channel of BROADCAST_CHANNELS) {
    const path = `/admin/broadcast/${BROADCAST_CHANNEL_PATHS[channel]}`;
    const button = BROADCAST_SEND_BUTTON[channel];
    // A preview writes nothing; it is a POST for its body and shares the send's permission.
    app.post(`${path}/preview`, { config: { audit: button }, onRequest: guards.button(button), schema: { body: broadcastDraftSchema } }, async (request) =>
      ok(await service.preview(channel, request.body)),
    );
    app.post(`${path}/send`, { config: { audit: button }, onRequest: guards.button(button), schema: { body: broadcastDraftSchema } }, async (request) =>
      ok(await service.send(actorOf(request), channel, request.body), M.sent),
    );
  }

  app.get('/admin/broadcast', { onRequest: canRead, schema: { querystring: broadcastListQuerySchema } }, async (request) => {
    await checkChannel(request, request.query.channel);
    return ok(await service.list(request.query));
  });
  // Static path before /:id: the participants an ACCOUNTS segment picks from.
  app.get('/admin/broadcast/accounts', { onRequest: canRead, schema: { querystring: broadcastAccountsQuerySchema } }, async (request) =>
    ok(await service.accounts(request.query, await guards.pii(request))),
  );
  app.get('/admin/broadcast/:id', { onRequest: canRead, schema: { params: idParamsSchema, querystring: broadcastRecordsQuerySchema } }, async (request) => {
    await checkChannel(request, await service.channelOf(request.params.id));
    return ok(await service.detail(request.params.id, request.query));
  });
  app.post(
    '/admin/broadcast/:id/recall',
    { config: { audit: 'message:send' }, onRequest: guards.button('message:send'), schema: { params: idParamsSchema } },
    async (request) => ok(await service.recall(actorOf(request), request.params.id), M.recalled),
  );
}
