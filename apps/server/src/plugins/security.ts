import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import compress from '@fastify/compress';

/**
 * Strict CSP: only our own origin. Styles allow 'unsafe-inline' because Ant Design injects
 * its CSS-in-JS <style> elements at run time; scripts never run inline. blob:/data: cover
 * previews of uploaded images and the bundled PDF viewer's worker. The PDF viewer page
 * (/pdf/web/viewer.html) is framed by our own pages only (frame-src/frame-ancestors 'self') and
 * fetches the blob: link its parent made of the file (connect-src blob:; 'self' does not match it).
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  workerSrc: ["'self'", 'blob:'],
  frameSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
};

/**
 * Where presigned store links point (S3 only): video and audio previews play from
 * `…?redirect=1`, which answers 302 to the store, and media-src is checked against the address
 * the player is redirected to; the web uploader PUTs parts straight to the store (docs/files.md,
 * "Direct upload"), which connect-src must allow. Path-style stores serve every bucket from the
 * endpoint's origin; virtual-hosted ones from `<bucket>.<host>`.
 */
export function storeOrigins(storage: { driver: 'disk' } | { driver: 's3'; endpoint: string; publicEndpoint?: string; bucket: string; forcePathStyle: boolean }): string[] {
  if (storage.driver !== 's3') return [];
  const url = new URL(storage.publicEndpoint || storage.endpoint);
  return [storage.forcePathStyle ? url.origin : `${url.protocol}//${storage.bucket}.${url.host}`];
}

export async function registerSecurity(app: FastifyInstance, opts: { https: boolean; storeOrigins?: string[] }): Promise<void> {
  const store = opts.storeOrigins ?? [];
  const policy = {
    ...CONTENT_SECURITY_POLICY,
    mediaSrc: [...CONTENT_SECURITY_POLICY.mediaSrc, ...store],
    connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, ...store],
  };
  const headers = staticHeaders(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: opts.https ? { ...policy, upgradeInsecureRequests: [] } : policy,
      },
      // HSTS only makes sense when the portal is really served over HTTPS.
      strictTransportSecurity: opts.https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
  // On the raw response, as helmet does, so they hold whatever later writes the answer.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
}

/**
 * The headers helmet's middleware sets, computed once: with this configuration (no nonces) they
 * are the same on every answer, and running the middleware per request (the Fastify wrapper even
 * rebuilt it, parsing the CSP again, on every request) cost more than the rest of the hooks.
 */
function staticHeaders(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let ran = false;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {
    ran = true;
  });
  if (!ran) throw new Error('helmet did not set its headers synchronously');
  return [...headers];
}
