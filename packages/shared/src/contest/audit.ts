import { z } from 'zod';
import { CONTEST_MSG as M } from './messages.js';
import { AUDIT_OUTCOMES } from './status.js';

export const AUDIT_REASON_MAX = 500;

/** POST /admin/team/{id}/audit and /admin/prelim-doc/{id}/audit: a reason unless approving. */
export const auditSchema = z
  .object({
    outcome: z.enum(AUDIT_OUTCOMES, { error: M.outcomeInvalid }),
    reason: z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string({ error: M.reasonRequired }).trim().max(AUDIT_REASON_MAX, M.reasonTooLong)),
  })
  .superRefine((v, ctx) => {
    if (v.outcome !== 'APPROVED' && v.reason === '') ctx.addIssue({ code: 'custom', message: M.reasonRequired, path: ['reason'] });
  });
export type AuditInput = z.infer<typeof auditSchema>;
