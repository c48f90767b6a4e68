import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SMS_KEYS, phoneSchema, type SmsKey } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { SendOptions, SmsService } from './sms.service.js';

export const sendSmsBodySchema = z.object({
  phone: phoneSchema,
  smsKey: z.enum(SMS_KEYS),
});

export interface SendSmsInput {
  phone: string;
  smsKey: SmsKey;
  ip: string;
}

export interface SmsRoutesOptions {
  sms: SmsService;
  /**
   * Runs after validation and before anything is sent or counted; throw an AppError to
   * refuse (e.g. registering a phone that already has an account), or answer
   * `{ deliver: false }` to answer as if sent without sending (a login code for a phone with no
   * account: the answer must not tell which phones are registered).
   */
  beforeSend?: (input: SendSmsInput) => Promise<void | SendOptions>;
}

export async function smsRoutes(app: FastifyInstance, options: SmsRoutesOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/login/send/sms',
    {
      schema: { body: sendSmsBodySchema },
      // Tighter than the global ceiling: each call may cost money and reach a stranger's phone.
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
    },
    async (request) => {
      const input: SendSmsInput = { phone: request.body.phone, smsKey: request.body.smsKey, ip: request.ip };
      const sendOptions = (await options.beforeSend?.(input)) ?? {};
      const result = await options.sms.send(input, sendOptions);
      return ok(result, '验证码已发送');
    },
  );
}
