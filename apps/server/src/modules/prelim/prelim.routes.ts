import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTEST_MSG as M, auditSchema, idParamsSchema, prelimDraftSchema, prelimSubmitSchema, type PrelimForm } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { PrelimService } from './prelim.service.js';

interface Options {
  service: PrelimService;
  participant: (request: FastifyRequest) => Promise<void>;
  guards: AdminGuards;
}

/** /prelim-doc/my* for the signed-in participant's approved team, and the admin's formal check. */
export async function prelimRoutes(base: FastifyInstance, { service, participant, guards }: Options): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/prelim-doc/my-brief', { onRequest: participant }, async (request) => ok(await service.brief(authOf(request).accountId)));
  app.get('/prelim-doc/my', { onRequest: participant }, async (request) => ok(await service.mine(authOf(request).accountId)));
  app.put('/prelim-doc/my', { onRequest: participant, schema: { body: prelimDraftSchema } }, async (request) =>
    ok(await service.saveDraft(authOf(request), request.body as PrelimForm), M.draftSaved),
  );
  app.post('/prelim-doc/my/submit', { onRequest: participant, schema: { body: prelimSubmitSchema } }, async (request) =>
    ok(await service.submit(authOf(request), request.body as PrelimForm), M.submitted),
  );

  app.post(
    '/admin/prelim-doc/:id/audit',
    { onRequest: guards.button('preliminary:audit'), schema: { params: idParamsSchema, body: auditSchema } },
    async (request) => ok(await service.audit(actorOf(request), request.params.id, request.body), M.audited),
  );
}
