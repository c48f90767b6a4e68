import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  LIVE_MSG as M,
  idParamsSchema,
  liveActionBodySchema,
  liveDisplayBodySchema,
  liveImportBodySchema,
  liveProjectsBodySchema,
  liveScoreBodySchema,
  liveSessionBodySchema,
  liveSessionListQuerySchema,
  liveTokenParamsSchema,
  uuidSchema,
  type LiveGoneEvent,
} from '@contest/shared';
import { AppError } from '../../lib/errors.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { authOf } from '../auth/auth.guard.js';
import type { ExpertGuards } from '../review/expert.guard.js';
import { openStream, type LiveHub } from './live-final.hub.js';
import type { LiveFinalService } from './live-final.service.js';

export interface LiveFinalRouteDeps {
  service: LiveFinalService;
  hub: LiveHub;
  guards: AdminGuards;
  expert: ExpertGuards;
}

const sessionUpdateSchema = liveSessionBodySchema.extend({ version: z.number().int().optional() });
const linkParamsSchema = z.object({ id: uuidSchema, linkId: uuidSchema });
const projectParamsSchema = z.object({ id: uuidSchema, projectId: uuidSchema });

/** Why a stream ends: the caller may no longer see it. Null: an unexpected failure (logged). */
function goneOf(err: unknown, notFound: LiveGoneEvent['reason']): LiveGoneEvent | null {
  if (!(err instanceof AppError)) return null;
  if (err.code === 'NOT_FOUND') return { reason: notFound, message: err.message };
  if (err.code === 'UNAUTHORIZED' || err.code === 'SESSION_REPLACED' || err.code === 'FORBIDDEN') return { reason: 'SIGNED_OUT', message: err.message };
  return null;
}

/**
 * The live final's calls (docs/live-final.md, "Calls"): planning and display links under
 * /admin/live (menu liveFinal; live:plan, live:display), the chair (live:chair), the judges
 * under /expert/live (agreement required), and the big screen under /live/display/:token (no
 * login). Each stream re-checks its caller before every snapshot.
 */
export async function liveFinalRoutes(base: FastifyInstance, deps: LiveFinalRouteDeps): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { service, hub, guards, expert } = deps;
  const menu = guards.menu('liveFinal');
  const plan = guards.button('live:plan');
  const chair = guards.button('live:chair');
  const display = guards.button('live:display');

  /**
   * One stream (docs/live-final.md, "Event stream"): `check` is this caller's, run before every
   * snapshot; `build` is the kind's, built once per change for all streams of the kind.
   */
  async function stream<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    o: { sessionId: string; kind: string; check: () => Promise<unknown>; build: () => Promise<T>; notFound: LiveGoneEvent['reason'] },
  ) {
    await hub.ready();
    reply.hijack();
    await openStream({
      hub,
      sessionId: o.sessionId,
      kind: o.kind,
      res: reply.raw,
      headers: reply.getHeaders(),
      check: o.check,
      build: o.build,
      gone: (err) => goneOf(err, o.notFound),
      log: request.log,
    });
  }

  // ---------------------------------------------------------------- planning
  app.get('/admin/live/candidates', { onRequest: menu }, async () => ok(await service.candidates()));
  app.get('/admin/live/sessions', { onRequest: menu, schema: { querystring: liveSessionListQuerySchema } }, async (request) => ok(await service.list(request.query)));
  app.post('/admin/live/sessions', { config: { audit: 'live:plan' }, onRequest: plan, schema: { body: liveSessionBodySchema } }, async (request) =>
    ok(await service.create(actorOf(request), request.body), M.sessionSaved),
  );
  app.get('/admin/live/sessions/:id', { onRequest: menu, schema: { params: idParamsSchema } }, async (request) => ok(await service.detail(request.params.id)));
  app.put('/admin/live/sessions/:id', { config: { audit: 'live:plan' }, onRequest: plan, schema: { params: idParamsSchema, body: sessionUpdateSchema } }, async (request) =>
    ok(await service.update(actorOf(request), request.params.id, request.body), M.sessionSaved),
  );
  app.delete('/admin/live/sessions/:id', { config: { audit: 'live:plan' }, onRequest: plan, schema: { params: idParamsSchema } }, async (request) => {
    await service.remove(actorOf(request), request.params.id);
    return ok(null, M.sessionDeleted);
  });
  app.put('/admin/live/sessions/:id/projects', { config: { audit: 'live:plan' }, onRequest: plan, schema: { params: idParamsSchema, body: liveProjectsBodySchema } }, async (request) =>
    ok(await service.setProjects(actorOf(request), request.params.id, request.body), M.orderSaved),
  );
  app.post('/admin/live/sessions/:id/projects/import', { config: { audit: 'live:plan' }, onRequest: plan, schema: { params: idParamsSchema, body: liveImportBodySchema } }, async (request) =>
    ok(await service.importGroup(actorOf(request), request.params.id, request.body), M.orderSaved),
  );
  app.get('/admin/live/sessions/:id/running-order', { onRequest: menu, schema: { params: idParamsSchema } }, async (request) => ok(await service.runningOrder(request.params.id)));

  // ---------------------------------------------------------------- display links
  app.get('/admin/live/sessions/:id/displays', { onRequest: menu, schema: { params: idParamsSchema } }, async (request) => ok(await service.links(request.params.id)));
  app.post('/admin/live/sessions/:id/displays', { config: { audit: 'live:display' }, onRequest: display, schema: { params: idParamsSchema, body: liveDisplayBodySchema } }, async (request) =>
    ok(await service.createLink(actorOf(request), request.params.id, request.body), M.displayCreated),
  );
  app.delete('/admin/live/sessions/:id/displays/:linkId', { config: { audit: 'live:display' }, onRequest: display, schema: { params: linkParamsSchema } }, async (request) => {
    await service.revokeLink(actorOf(request), request.params.id, request.params.linkId);
    return ok(null, M.displayRevoked);
  });

  // ---------------------------------------------------------------- the chair
  app.get('/admin/live/sessions/:id/chair', { onRequest: chair, schema: { params: idParamsSchema } }, async (request) => ok(await service.chair(request.params.id)));
  app.get('/admin/live/sessions/:id/events', { onRequest: chair, schema: { params: idParamsSchema } }, async (request, reply) => {
    const id = await service.sessionId(request.params.id);
    await stream(request, reply, { sessionId: id, kind: 'chair', check: () => chair(request), build: () => service.chair(id), notFound: 'DELETED' });
  });
  app.post('/admin/live/sessions/:id/actions', { config: { audit: 'live:chair' }, onRequest: chair, schema: { params: idParamsSchema, body: liveActionBodySchema } }, async (request) =>
    ok(await service.act(actorOf(request), request.params.id, request.body)),
  );

  // ---------------------------------------------------------------- judges
  app.get('/expert/live/sessions', { onRequest: expert.agreed }, async (request) => ok(await service.judgeSessions(authOf(request).accountId)));
  app.get('/expert/live/sessions/:id', { onRequest: expert.agreed, schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.judgeState(request.params.id, authOf(request).accountId)),
  );
  app.get('/expert/live/sessions/:id/events', { onRequest: expert.agreed, schema: { params: idParamsSchema } }, async (request, reply) => {
    const expertId = authOf(request).accountId;
    const id = await service.judgeSessionId(request.params.id, expertId);
    // Per judge: the snapshot carries this judge's own sheet.
    await stream(request, reply, {
      sessionId: id,
      kind: `judge:${expertId}`,
      check: () => expert.agreed(request),
      build: () => service.judgeState(id, expertId),
      notFound: 'NOT_JUDGE',
    });
  });
  app.post(
    '/expert/live/sessions/:id/projects/:projectId/score',
    { config: { audit: 'review:submit' }, onRequest: expert.agreed, schema: { params: projectParamsSchema, body: liveScoreBodySchema } },
    async (request) => ok(await service.submit(actorOf(request), request.params.id, request.params.projectId, request.body), M.scoreSubmitted),
  );

  // ---------------------------------------------------------------- big screen (no login: the token)
  app.get('/live/display/:token', { schema: { params: liveTokenParamsSchema } }, async (request) => ok(await service.display(request.params.token)));
  app.get('/live/display/:token/events', { schema: { params: liveTokenParamsSchema } }, async (request, reply) => {
    const { token } = request.params;
    const id = await service.displaySessionId(token);
    await stream(request, reply, { sessionId: id, kind: 'screen', check: () => service.checkDisplay(id, token), build: () => service.displayState(id), notFound: 'REVOKED' });
  });
}
