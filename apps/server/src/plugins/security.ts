import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
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

export async function registerSecurity(app: FastifyInstance, opts: { https: boolean }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: opts.https
        ? { ...CONTENT_SECURITY_POLICY, upgradeInsecureRequests: [] }
        : CONTENT_SECURITY_POLICY,
    },
    // HSTS only makes sense when the portal is really served over HTTPS.
    strictTransportSecurity: opts.https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
}
