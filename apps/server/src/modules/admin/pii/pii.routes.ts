import type { FastifyInstance } from 'fastify';
import { PII_VIEW_BUTTON, piiRevealParamsSchema, type MenuCode, type PiiKind } from '@contest/shared';
import { forbidden } from '../../../lib/errors.js';
import { ok } from '../../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../../plugins/zod.js';
import { actorOf } from '../../audit/operation-log.js';
import type { AdminGuards } from '../admin.guard.js';
import type { PiiService } from './pii.service.js';

/**
 * The pages that show each kind's records (masked): pii:view reveals only what the operator may
 * already read, so it opens no page of its own (registered users: user:view lives on userTeam).
 */
export const PII_MENUS: Record<PiiKind, MenuCode[]> = {
  user: ['userTeam'],
  team: ['qualification', 'qualificationDraft'],
  prelim: ['preliminarySearch', 'preliminaryBox', 'preliminaryAdminSearch'],
  expert: ['databaseExpert', 'reviewGroup', 'reviewAdminGroup', 'gradeManageGrade', 'gradeManageAdminGrade', 'scoringMonitoringExpert', 'scoringMonitoringAdminExpert'],
  feedback: ['UserFeedback'],
  account: ['systemManage'],
};

/** GET /admin/pii/:kind/:id: one record's personal information in full, recorded (pii:view). */
export async function piiRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: PiiService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/admin/pii/:kind/:id',
    // A read, but one the operation records must show: declared like a write's.
    { config: { audit: 'pii:view' }, onRequest: guards.button(PII_VIEW_BUTTON), schema: { params: piiRevealParamsSchema } },
    async (request) => {
      const { kind, id } = request.params;
      if (!(await guards.menus.holdsAny(request.auth!, PII_MENUS[kind]))) throw forbidden();
      return ok(await service.reveal(actorOf(request), kind, id));
    },
  );
}
