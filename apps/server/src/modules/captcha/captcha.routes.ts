import type { FastifyPluginAsync, FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { CAPTCHA_TRACK, REALMS, captchaCheckSchema, captchaTrackSchema, loginUsernameSchema, smsCodeSchema, type CaptchaTrack } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { CaptchaCodeService } from './captcha-code.service.js';
import type { CaptchaService } from './captcha.service.js';

export interface CaptchaRoutesOptions {
  captcha: CaptchaService;
  /** The one-time code alternative to the slider (docs/security.md, "Captcha code alternative"). */
  codes?: CaptchaCodeService;
}

/** Which login the code is for: the realm of the form and the name typed into it. */
const captchaCodeLogin = {
  realm: z.enum(REALMS),
  account: loginUsernameSchema,
  // Participants' SMS tab names the account by phone; absent means a login name.
  isPhoneLogin: z.boolean().optional(),
};
export const captchaCodeSendSchema = z.object(captchaCodeLogin);
export const captchaCodeCheckSchema = z.object({
  imageKey: z.string().min(1).max(128),
  ...captchaCodeLogin,
  code: smsCodeSchema,
});

export const captchaCheckQuery = z.object({
  imageKey: z.string().min(1).max(128),
  // Through a string first: z.coerce.number() alone would read a missing or empty value as 0 or NaN
  // and report it as invalid rather than missing.
  slidingDistance: z.string().trim().min(1).pipe(z.coerce.number()),
  // The spec's GET carries the track as JSON text; without one the check cannot pass.
  track: z
    .string()
    .max(CAPTCHA_TRACK.maxBodyBytes)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', message: 'track is not JSON', input: text });
        return z.NEVER;
      }
    })
    .pipe(captchaTrackSchema)
    .optional(),
});

/** Registered under /api. Issuing draws images, so it gets a tight per-IP limit of its own. */
export const captchaRoutes: FastifyPluginAsync<CaptchaRoutesOptions> = async (app, opts) => {
  const { captcha } = opts;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const check = async (log: FastifyBaseLogger, imageKey: string, slidingDistance: number, track: CaptchaTrack | undefined) => {
    const verdict = await captcha.check(imageKey, slidingDistance, track);
    // The reason stays in the log: a script told which rule it broke could tune its fake track.
    if (!verdict.pass) log.info({ captchaRefusal: verdict.reason }, 'captcha check refused');
    return ok({ pass: verdict.pass });
  };

  api.get('/captcha', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async () => ok(await captcha.issue()));

  api.get('/captcha/check', { schema: { querystring: captchaCheckQuery } }, async (request) => {
    const { imageKey, slidingDistance, track } = request.query;
    return check(request.log, imageKey, slidingDistance, track);
  });

  // What the web client uses: a track of a few hundred points belongs in a body, not a URL.
  api.post('/captcha/check', { schema: { body: captchaCheckSchema }, bodyLimit: CAPTCHA_TRACK.maxBodyBytes }, async (request) => {
    const { imageKey, slidingDistance, track } = request.body;
    return check(request.log, imageKey, slidingDistance, track);
  });

  const { codes } = opts;
  if (!codes) return;
  // As tight as /login/send/sms: each call may cost a text and reach a phone.
  api.post('/captcha/code/send', { schema: { body: captchaCodeSendSchema }, config: { rateLimit: { max: 20, timeWindow: 60_000 } } }, async (request) =>
    // The same answer whether the name has an account or not: no enumeration (docs/security.md, "Captcha code alternative").
    ok(await codes.send(request.body, request.ip), '验证码已发送'),
  );

  api.post('/captcha/code/check', { schema: { body: captchaCodeCheckSchema }, config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (request) => {
    const { imageKey, code, ...login } = request.body;
    await codes.check({ ...login, nonceStr: imageKey, code });
    return ok({ pass: true });
  });
};
