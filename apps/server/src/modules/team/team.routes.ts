import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTEST_MSG as M, auditSchema, idParamsSchema, teamDraftSchema, teamSubmitSchema, type TeamForm } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { TeamService } from './team.service.js';

interface Options {
  service: TeamService;
  participant: (request: FastifyRequest) => Promise<void>;
  guards: AdminGuards;
}

/** /team/my* for the signed-in participant (no ids: one's own team only) and the admin audit. */
export async function teamRoutes(base: FastifyInstance, { service, participant, guards }: Options): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/team/my-brief', { onRequest: participant }, async (request) => ok(await service.brief(authOf(request).accountId)));
  app.get('/team/my', { onRequest: participant }, async (request) => ok(await service.mine(authOf(request).accountId)));
  app.put('/team/my', { onRequest: participant, schema: { body: teamDraftSchema } }, async (request) =>
    ok(await service.saveDraft(authOf(request), request.body as TeamForm), M.draftSaved),
  );
  app.post('/team/my/submit', { onRequest: participant, schema: { body: teamSubmitSchema } }, async (request) =>
    ok(await service.submit(authOf(request), request.body as TeamForm), M.submitted),
  );

  app.post('/admin/team/:id/audit', { onRequest: guards.button('qualification:audit'), schema: { params: idParamsSchema, body: auditSchema } }, async (request) =>
    ok(await service.audit(actorOf(request), request.params.id, request.body), M.audited),
  );
}
