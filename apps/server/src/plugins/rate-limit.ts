import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { MSG } from '@contest/shared';
import { tooManyRequests } from '../lib/errors.js';

/**
 * A generous global ceiling per IP (many teams share a university or hospital address);
 * sensitive routes add their own tighter limits. With Redis the counters are shared by every
 * instance behind the load balancer.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: { perMinute: number; redis: Redis | null; prefix: string },
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: opts.perMinute,
    timeWindow: 60_000,
    ...(opts.redis ? { redis: opts.redis, nameSpace: `${opts.prefix}rl:` } : {}),
    // A Redis outage must not take the portal down: fail open and log.
    skipOnError: true,
    allowList: (request) => request.url === '/api/health',
    errorResponseBuilder: () => tooManyRequests(MSG.tooManyRequests),
  });
}
