import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { REALMS, directSignSchema, directStartSchema, directUploadIdSchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { authOf, requireRealm } from '../auth/auth.guard.js';
import type { SessionService } from '../auth/session.service.js';
import type { DirectUploads } from './direct-upload.service.js';
import type { Uploader } from './files.service.js';

export interface DirectUploadRoutesOptions {
  direct: DirectUploads;
  sessions: SessionService;
}

const uploaderOf = (request: FastifyRequest): Uploader => ({
  auth: authOf(request),
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * Direct upload to the object store (docs/files.md, "Direct upload"): JSON calls only, the file's
 * bytes go from the browser to the store. Who may upload which origin is checked as for pieces;
 * an upload is its owner's alone (anyone else: 404).
 */
export const directUploadRoutes: FastifyPluginAsync<DirectUploadRoutesOptions> = async (parent, { direct, sessions }) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireRealm(sessions, ...REALMS);

  // Whether direct upload is offered (S3 store), asked once per page before a file is hashed for it.
  app.get('/attachment/direct', { preHandler: signedIn }, async () => ok({ offered: direct.offered() }));

  app.post('/attachment/direct/start', { preHandler: signedIn, schema: { body: directStartSchema } }, async (request) =>
    ok(await direct.start(uploaderOf(request), request.body)),
  );

  app.post('/attachment/direct/:id/parts', { preHandler: signedIn, schema: { params: directUploadIdSchema, body: directSignSchema } }, async (request) =>
    ok(await direct.sign(authOf(request), request.params.id, request.body)),
  );

  app.get('/attachment/direct/:id', { preHandler: signedIn, schema: { params: directUploadIdSchema } }, async (request) =>
    ok(await direct.status(authOf(request), request.params.id)),
  );

  app.post('/attachment/direct/:id/complete', { preHandler: signedIn, schema: { params: directUploadIdSchema } }, async (request) =>
    ok(await direct.complete(uploaderOf(request), request.params.id)),
  );
};
