import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { CaptchaService } from './captcha.service.js';

export interface CaptchaRoutesOptions {
  captcha: CaptchaService;
}

export const captchaCheckQuery = z.object({
  imageKey: z.string().min(1).max(128),
  // Through a string first: z.coerce.number() alone would read a missing or empty value as 0 or NaN
  // and report it as invalid rather than missing.
  slidingDistance: z.string().trim().min(1).pipe(z.coerce.number()),
});

/** Registered under /api. Issuing draws images, so it gets a tight per-IP limit of its own. */
export const captchaRoutes: FastifyPluginAsync<CaptchaRoutesOptions> = async (app, opts) => {
  const { captcha } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/captcha', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async () => ok(await captcha.issue()));

  api.get('/captcha/check', { schema: { querystring: captchaCheckQuery } }, async (request) => {
    const { imageKey, slidingDistance } = request.query;
    return ok({ pass: await captcha.check(imageKey, slidingDistance) });
  });
};
