import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { REALMS, SPEED_CONTENT_TYPE, SPEED_DEFAULT_BYTES, SPEED_MAX_BYTES, SPEED_MSG, type SpeedUploadAnswer } from '@contest/shared';
import { badRequest, payloadTooLarge } from '../../lib/errors.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { requireRealm } from '../auth/auth.guard.js';
import type { SessionService } from '../auth/session.service.js';

export interface SpeedRoutesOptions {
  sessions: SessionService;
}

const SPEED_BLOCK = Buffer.alloc(64 * 1024, 0x5a);

/**
 * Each call moves up to 20 MB: tighter than the global ceiling so a loop cannot eat the
 * bandwidth everyone's uploads need, yet room for a few runs of the page (2 calls each).
 */
export const SPEED_LIMIT = { rateLimit: { max: 20, timeWindow: 60_000 } };

/** The media type of a Content-Type header, without parameters, lower case ('' when absent). */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Reads and discards a body, counting its bytes. Past `max` it stops reading (the caller
 * answers 413 and closes the connection) rather than draining whatever a client keeps sending.
 */
function discardCounting(body: Readable | IncomingMessage, max: number): Promise<{ received: number; over: boolean }> {
  return new Promise((resolve, reject) => {
    let received = 0;
    const done = (over: boolean) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      if (over) body.pause();
      resolve({ received, over });
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > max) done(true);
    };
    const onEnd = () => done(false);
    const onError = (err: Error) => {
      body.off('data', onData);
      body.off('end', onEnd);
      reject(err);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

/**
 * The connection speed test (docs/decisions.md, "Speed-test page"): the page times a download from GET and an upload to
 * POST. Nothing is stored: the GET streams filler bytes, the POST counts and drops the body.
 * A plugin of its own so the POST can take its body raw, whatever the Content-Type says, and
 * answer a wrong type with our 400 (after the sign-in check) instead of Fastify's 415.
 */
export const speedRoutes: FastifyPluginAsync<SpeedRoutesOptions> = async (parent, { sessions }) => {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
  // Scoped to this plugin: every body reaches the handler as the untouched request stream.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const signedIn = requireRealm(sessions, ...REALMS);

  app.get(
    '/attachment/speed',
    {
      compress: false,
      preHandler: signedIn,
      config: SPEED_LIMIT,
      schema: {
        querystring: z.object({ size: z.coerce.number().int().min(1).max(SPEED_MAX_BYTES).default(SPEED_DEFAULT_BYTES) }),
      },
    },
    async (request, reply) => {
      const size = request.query.size;
      reply.headers({ 'content-type': SPEED_CONTENT_TYPE, 'content-length': String(size), 'cache-control': 'no-store' });
      return reply.send(
        Readable.from(
          (function* () {
            for (let sent = 0; sent < size; sent += SPEED_BLOCK.length) yield SPEED_BLOCK.subarray(0, Math.min(SPEED_BLOCK.length, size - sent));
          })(),
        ),
      );
    },
  );

  app.post('/attachment/speed', { preHandler: signedIn, config: SPEED_LIMIT }, async (request, reply) => {
    if (mediaTypeOf(request.headers['content-type']) !== SPEED_CONTENT_TYPE) throw badRequest(SPEED_MSG.badType, { field: 'content-type' });
    const declared = Number(request.headers['content-length']);
    // A body left unread (refused up front, or cut off below) must not be waited for.
    const refuse = () => {
      reply.header('connection', 'close');
      return payloadTooLarge(SPEED_MSG.tooLarge);
    };
    if (Number.isFinite(declared) && declared > SPEED_MAX_BYTES) throw refuse();
    const body = request.body as Readable | undefined;
    // No body at all: Fastify hands none over (nothing to read).
    if (!body || typeof body.on !== 'function') return ok<SpeedUploadAnswer>({ received: 0 });
    const { received, over } = await discardCounting(body, SPEED_MAX_BYTES);
    if (over) throw refuse();
    return ok<SpeedUploadAnswer>({ received });
  });
};
