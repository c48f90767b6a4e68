import { z } from 'zod';
import { isMaskedPii } from '../pii.js';
import { uuidSchema } from './common.js';
import { ADMIN_MSG as M } from './messages.js';

/**
 * GET /admin/pii/:kind/:id (docs/rules/admin.md, "Personal information"): the full personal information of one record,
 * for an operator whose role holds `pii:view`; every call is an operation record. The console's
 * lists and details always carry masked values (packages/shared/src/pii.ts).
 *
 * - user: a registered participant (accounts.id)
 * - team: a sign-up (teams.id)
 * - prelim: a project (prelim_docs.id), for its owner's phone
 * - expert: an expert account (accounts.id)
 * - feedback: a feedback item (feedback.id)
 * - account: a system (operator) account (accounts.id)
 */
export const PII_KINDS = ['user', 'team', 'prelim', 'expert', 'feedback', 'account'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export const piiRevealParamsSchema = z.object({
  kind: z.enum(PII_KINDS, { error: M.piiKindInvalid }),
  id: uuidSchema,
});
export type PiiRevealParams = z.infer<typeof piiRevealParamsSchema>;

/**
 * The record's values keyed by where they sit in the console's answer for that record, e.g.
 * `phone`, `team.creditCode`, `leader.phone`, `members.0.email`, `owner.phone`: the page swaps
 * the masked text at that path for the value. Empty values are left out.
 */
export interface PiiReveal {
  kind: PiiKind;
  id: string;
  values: Record<string, string>;
}

/**
 * A form field the console fills with a masked value (an expert's phone, an operator's e-mail):
 * the masked text passes as it is, and the server keeps the stored value when it reads exactly
 * as that value masked (or refuses it, piiMaskedValue); anything else must pass `schema`.
 */
export function orMasked<T extends z.ZodType<string, unknown>>(schema: T) {
  return z.unknown().transform((value, ctx): string => {
    if (typeof value === 'string' && isMaskedPii(value)) return value.trim();
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });
}
