import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { MSG } from '@contest/shared';
import { failure } from './envelope.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA. Hashed files under /assets are cached for a year; everything else
 * revalidates. Any non-/api GET that matches no file gets index.html, so the SPA's router
 * decides (and shows its own 404 page); /api paths that match nothing get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string | undefined): Promise<void> {
  const indexPath = webDistDir ? join(webDistDir, 'index.html') : undefined;
  const hasWeb = indexPath !== undefined && existsSync(indexPath);
  if (!hasWeb) app.log.warn({ webDistDir }, 'web app not built: only /api is served (run npm run build)');

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDistDir!,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  // Read once: index.html changes only with a new build, which means a restart.
  const indexHtml = hasWeb ? readFileSync(indexPath!) : null;

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (isApi || !indexHtml || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(failure(404, 'NOT_FOUND', MSG.notFound));
    }
    // A missing hashed asset is a real 404, not the SPA (a stale tab asking for an old chunk).
    if (path.startsWith('/assets/')) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
