import type { FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import {
  CERTIFICATE_MSG as M,
  REVIEW_ROUNDS,
  ROUND_SLUGS,
  certificateDocumentQuerySchema,
  certificateIssueBodySchema,
  certificateJobParamsSchema,
  certificatePreviewBodySchema,
  certificatePreviewRecordQuerySchema,
  certificateSerialParamsSchema,
  certificateTemplateBodySchema,
  certificateTemplateListQuerySchema,
  certificateTemplateUpdateBodySchema,
  certificateTemplateVersionParamsSchema,
  certificateVersionPreviewQuerySchema,
  certificateZipQuerySchema,
  enabledBodySchema,
  idParamsSchema,
} from '@contest/shared';
import { contentDisposition } from '../../lib/content-disposition.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import type { ExpertGuards } from '../review/expert.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { DocumentsService, PdfDownload } from './documents.service.js';
import type { IssueService } from './issue.service.js';
import type { TemplatesService } from './templates.service.js';

export interface CertificatesRoutesOptions {
  templates: TemplatesService;
  issuing: IssueService;
  documents: DocumentsService;
  guards: AdminGuards;
  /** Participant sessions only. */
  participant: preHandlerAsyncHookHandler;
  /** Expert sessions (letters need no review agreement). */
  expert: ExpertGuards['signedIn'];
}

// A preview sets a whole page of text in the CJK font: a few a second per admin is plenty.
const PREVIEW_LIMIT = { rateLimit: { max: 30, timeWindow: 60_000 } };
// A round's zip reads every stored PDF.
const ZIP_LIMIT = { rateLimit: { max: 5, timeWindow: 60_000 } };
// Public verification: anyone can ask, so per address like the other public calls.
const VERIFY_LIMIT = { rateLimit: { max: 30, timeWindow: 60_000 } };

const sendPdf = (reply: FastifyReply, pdf: Buffer, name: string) =>
  reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition('inline', name)).send(pdf);

const sendDownload = (reply: FastifyReply, file: PdfDownload) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition('attachment', file.fileName))
    .send(file.stream);

/**
 * 证书模板 and 证书管理 (/api/admin/certificates/...), the participant's and the expert's own
 * documents, and the public verification (/api/certificates/verify/{serial}). docs/certificates.md;
 * paths and shapes in packages/shared/src/certificates/certificates.ts.
 */
export async function certificatesRoutes(base: FastifyInstance, { templates, issuing, documents, guards, participant, expert }: CertificatesRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const templateMenu = guards.menu('certificateTemplate');
  const manage = guards.button('certificate:manage');
  const manageMenu = guards.menu('certificateManage');
  const issue = guards.button('certificate:issue');
  const download = guards.button('certificate:download');

  // ---- templates
  app.get('/admin/certificates/templates', { onRequest: templateMenu, schema: { querystring: certificateTemplateListQuerySchema } }, async (request) =>
    ok(await templates.list(request.query)),
  );
  app.get('/admin/certificates/templates/:id', { onRequest: templateMenu, schema: { params: idParamsSchema } }, async (request) => ok(await templates.detail(request.params.id)));
  app.post('/admin/certificates/templates', { config: { audit: 'certificate:manage' }, onRequest: manage, schema: { body: certificateTemplateBodySchema } }, async (request) =>
    ok(await templates.create(actorOf(request), request.body), M.templateSaved),
  );
  app.put(
    '/admin/certificates/templates/:id',
    { config: { audit: 'certificate:manage' }, onRequest: manage, schema: { params: idParamsSchema, body: certificateTemplateUpdateBodySchema } },
    async (request) => ok(await templates.update(actorOf(request), request.params.id, request.body), M.templateSaved),
  );
  app.put(
    '/admin/certificates/templates/:id/enabled',
    { config: { audit: 'certificate:manage' }, onRequest: manage, schema: { params: idParamsSchema, body: enabledBodySchema } },
    async (request) => ok(await templates.setEnabled(actorOf(request), request.params.id, request.body.enabled)),
  );
  app.get('/admin/certificates/templates/:id/versions', { onRequest: templateMenu, schema: { params: idParamsSchema } }, async (request) =>
    ok(await templates.versions(request.params.id)),
  );
  app.get('/admin/certificates/templates/:id/versions/:n', { onRequest: templateMenu, schema: { params: certificateTemplateVersionParamsSchema } }, async (request) =>
    ok(await templates.version(request.params.id, request.params.n)),
  );
  app.get(
    '/admin/certificates/templates/:id/versions/:n/preview',
    { config: PREVIEW_LIMIT, onRequest: templateMenu, schema: { params: certificateTemplateVersionParamsSchema, querystring: certificateVersionPreviewQuerySchema } },
    async (request, reply) => sendPdf(reply, await templates.previewVersion(request.params.id, request.params.n, request.query), 'preview.pdf'),
  );
  // Writes nothing; a POST for its body, so it declares the button it belongs to.
  app.post(
    '/admin/certificates/templates/preview',
    { config: { audit: 'certificate:manage', ...PREVIEW_LIMIT }, onRequest: manage, schema: { body: certificatePreviewBodySchema } },
    async (request, reply) => sendPdf(reply, await templates.preview(request.body), 'preview.pdf'),
  );
  app.get('/admin/certificates/preview-records', { onRequest: templateMenu, schema: { querystring: certificatePreviewRecordQuerySchema } }, async (request) =>
    ok(await templates.previewRecords(request.query)),
  );

  // ---- issuing and documents
  app.get('/admin/certificates/overview', { onRequest: manageMenu }, async () => ok(await issuing.overview()));
  app.get('/admin/certificates/jobs/:jobId', { onRequest: manageMenu, schema: { params: certificateJobParamsSchema } }, async (request) => ok(await issuing.job(request.params.jobId)));
  app.get('/admin/certificates/documents', { onRequest: manageMenu, schema: { querystring: certificateDocumentQuerySchema } }, async (request) =>
    ok(await documents.list(request.query)),
  );
  app.get('/admin/certificates/documents/:id/pdf', { config: { audit: 'certificate:download' }, onRequest: download, schema: { params: idParamsSchema } }, async (request, reply) =>
    sendDownload(reply, await documents.adminPdf(actorOf(request), request.params.id)),
  );
  for (const round of REVIEW_ROUNDS) {
    const slug = ROUND_SLUGS[round];
    app.post(`/admin/certificates/${slug}/issue`, { config: { audit: 'certificate:issue' }, onRequest: issue, schema: { body: certificateIssueBodySchema } }, async (request) =>
      ok(await issuing.issue(actorOf(request), round, request.body), M.issueStarted),
    );
    app.get(
      `/admin/certificates/${slug}/zip`,
      { config: { audit: 'certificate:download', ...ZIP_LIMIT }, onRequest: download, schema: { querystring: certificateZipQuerySchema } },
      async (request, reply) => {
        const { stream, fileName } = await documents.zip(actorOf(request), round, request.query);
        return reply.header('content-type', 'application/zip').header('content-disposition', contentDisposition('attachment', fileName)).send(stream);
      },
    );
  }

  // ---- participants and experts: their own
  app.get('/certificates/mine', { onRequest: participant }, async (request) => ok(await documents.participantList(authOf(request).accountId)));
  app.get('/certificates/:id/pdf', { onRequest: participant, schema: { params: idParamsSchema } }, async (request, reply) =>
    sendDownload(reply, await documents.participantPdf(authOf(request).accountId, request.params.id)),
  );
  app.get('/expert/certificates/mine', { onRequest: expert }, async (request) => ok(await documents.expertList(authOf(request).accountId)));
  app.get('/expert/certificates/:id/pdf', { onRequest: expert, schema: { params: idParamsSchema } }, async (request, reply) =>
    sendDownload(reply, await documents.expertPdf(authOf(request).accountId, request.params.id)),
  );

  // ---- public
  app.get('/certificates/verify/:serial', { config: VERIFY_LIMIT, schema: { params: certificateSerialParamsSchema } }, async (request) =>
    ok(await documents.verify(request.params.serial)),
  );
}
