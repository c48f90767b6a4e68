import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REVIEW_MSG as M, declaredOrgSchema, enabledBodySchema, expertBodySchema, expertListQuerySchema, idParamsSchema } from '@contest/shared';
import { badRequest } from '../../lib/errors.js';
import { XLSX_CONTENT_TYPE } from '../../lib/xlsx-stream.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { adminActorOf } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import { createSessionService } from '../auth/session.service.js';
import type { ReviewDeps } from '../review/review.module.js';
import { EXPORT_LIMIT, sendXlsx } from '../team/team.routes.js';
import { createExpertsService } from './experts.service.js';

/** An import sheet is small: 2000 rows of text fit in far less. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const IMPORT_LIMIT = { rateLimit: { max: 10, timeWindow: 60_000 } };

/** The one .xlsx file of an import (field `file`), read whole: a 413 past IMPORT_MAX_BYTES. */
async function readImportFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw badRequest(M.importFileRequired, { field: 'file' });
  const part = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  if (!part || part.fieldname !== 'file') throw badRequest(M.importFileRequired, { field: 'file' });
  if (!/\.xlsx$/i.test(part.filename ?? '')) {
    part.file.resume();
    throw badRequest(M.importFileInvalid, { field: 'file' });
  }
  // toBuffer throws Fastify's 413 when the file is cut at the limit.
  return part.toBuffer();
}

/** 专家库 (/admin/grade/database-expert): expert accounts, their import and export. */
export async function expertsRoutes(base: FastifyInstance, deps: ReviewDeps): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // Multipart bodies are accepted in this plugin's scope only (the import), as in the files module.
  await app.register(multipart, { throwFileSizeLimit: true });

  const sessions = createSessionService(deps.db, deps.now);
  const service = createExpertsService({
    db: deps.db,
    revokeAll: (accountId, reason, keep, tx) => sessions.revokeAll(accountId, reason, keep, tx),
    now: deps.now,
  });
  const canView = deps.guards.menu('databaseExpert');

  // The groups pages and 发起复评 pick experts from this list: their menus read it too.
  const canPick = deps.guards.menu('databaseExpert', 'reviewGroup', 'reviewAdminGroup', 'gradeManageGrade', 'gradeManageAdminGrade');
  app.get('/admin/expert/list', { onRequest: canPick, schema: { querystring: expertListQuerySchema } }, async (request) =>
    ok(await service.list(request.query, await deps.guards.pii(request))),
  );

  // Fixed paths before /:id (find-my-way prefers static segments anyway; kept in order for readers).
  app.get('/admin/expert/import-template', { onRequest: deps.guards.button('expert:import') }, async (_request, reply) => {
    const { content, fileName } = await service.template();
    return reply
      .header('content-type', XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="template.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .send(content);
  });
  app.post('/admin/expert/import', { config: { audit: 'expert:import', ...IMPORT_LIMIT }, onRequest: deps.guards.button('expert:import') }, async (request) => {
    await service.assertWithinReach(adminActorOf(request));
    const content = await readImportFile(request);
    return ok(await service.import(adminActorOf(request), content), M.importDone);
  });
  app.get('/admin/expert/export', { onRequest: deps.guards.button('expert:export'), schema: { querystring: expertListQuerySchema }, config: EXPORT_LIMIT }, async (request, reply) =>
    sendXlsx(reply, await service.export(actorOf(request), request.query, await deps.guards.pii(request))),
  );

  app.get('/admin/expert/:id', { onRequest: canView, schema: { params: idParamsSchema } }, async (request) => ok(await service.view(request.params.id)));
  app.post('/admin/expert', { config: { audit: 'expert:edit' }, onRequest: deps.guards.button('expert:edit'), schema: { body: expertBodySchema } }, async (request) =>
    ok(await service.create(adminActorOf(request), request.body), M.expertCreated),
  );
  app.put(
    '/admin/expert/:id',
    { config: { audit: 'expert:edit' }, onRequest: deps.guards.button('expert:edit'), schema: { params: idParamsSchema, body: expertBodySchema } },
    async (request) => ok(await service.update(adminActorOf(request), request.params.id, request.body), M.expertSaved),
  );
  app.put(
    '/admin/expert/:id/enabled',
    { config: { audit: 'expert:disable' }, onRequest: deps.guards.button('expert:disable'), schema: { params: idParamsSchema, body: enabledBodySchema } },
    async (request) => {
      const row = await service.setEnabled(adminActorOf(request), request.params.id, request.body.enabled);
      return ok(row, row.enabled ? M.expertEnabled : M.expertDisabled);
    },
  );
  // The expert's own declarations (docs/api-review.md, "Declared organisations"): agreement first, like every review call.
  app.get('/expert/organisations', { onRequest: deps.expert.agreed }, async (request) => ok(await service.ownOrganisations(authOf(request).accountId)));
  app.post('/expert/organisations', { config: { audit: 'expert:declare-org' }, onRequest: deps.expert.agreed, schema: { body: declaredOrgSchema } }, async (request) =>
    ok(await service.declareOrganisation(actorOf(request), request.body), M.expertOrgDeclared),
  );

  app.post(
    '/admin/expert/:id/reset-password',
    { config: { audit: 'expert:reset-password' }, onRequest: deps.guards.button('expert:reset-password'), schema: { params: idParamsSchema } },
    async (request) => ok(await service.resetPassword(adminActorOf(request), request.params.id), M.expertPasswordReset),
  );
}
