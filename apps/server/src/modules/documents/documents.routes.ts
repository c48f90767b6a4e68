import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { documentListQuerySchema, idParamsSchema, templateQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { localeOf } from '../dictionary/request-locale.js';
import { contentDisposition, presignedRedirectHeaders } from '../files/files.http.js';
import type { DocumentDownload, DocumentsService } from './documents.service.js';

/** preview=1 opens images and PDFs inline; redirect=1 accepts a 302 to a presigned store link (S3), else the file streams. */
const fileQuery = z.object({ preview: z.string().optional(), redirect: z.string().optional() });

export interface DocumentsRoutesOptions {
  service: DocumentsService;
  /** The signed-in participant, or null for anyone else (no token, a staff token, a bad one). */
  participantOf(request: FastifyRequest): Promise<string | null>;
}

/**
 * Sends a stored file with the same headers as /attachment/stream (whole file, no ranges), or
 * the 302 to a presigned store link the caller asked for (?redirect=1, S3 only).
 */
function sendFile(reply: FastifyReply, { file, disposition, body, location }: DocumentDownload) {
  if (location !== undefined) return reply.code(302).headers(presignedRedirectHeaders(location)).send();
  return reply
    .headers({
      etag: `"${file.sha256}"`,
      'cache-control': 'private, no-cache',
      'x-content-type-options': 'nosniff',
      'content-type': file.mimeType,
      'content-disposition': contentDisposition(disposition, file.originalName),
      'content-length': String(file.size),
    })
    .send(body);
}

/** Templates (/template/public) and documents by audience (/documents, the /module page). */
export async function documentsRoutes(base: FastifyInstance, { service, participantOf }: DocumentsRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/template/public', { compress: false, schema: { querystring: templateQuerySchema } }, async (request, reply) =>
    sendFile(reply, await service.template(request.query.code)),
  );
  // The titles follow the language, which may come from Accept-Language: caches must key on it.
  app.get('/documents', { schema: { querystring: documentListQuerySchema } }, async (request, reply) => {
    reply.header('Vary', 'Accept-Language');
    return ok(await service.list(await participantOf(request), request.query, localeOf(request, request.query.lang)));
  });
  app.get(
    '/documents/:id/file',
    { compress: false, schema: { params: idParamsSchema, querystring: fileQuery } },
    async (request, reply) => {
      const mode = { preview: request.query.preview === '1', redirect: request.query.redirect === '1' };
      return sendFile(reply, await service.download(await participantOf(request), request.params.id, mode));
    },
  );
}
