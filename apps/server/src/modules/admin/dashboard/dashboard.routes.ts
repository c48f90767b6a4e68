import type { FastifyInstance } from 'fastify';
import { ok } from '../../../plugins/envelope.js';
import type { AdminGuards } from '../admin.guard.js';
import type { DashboardService } from './dashboard.service.js';

/**
 * GET /admin/dashboard: the console home (/admin/home). Any signed-in admin: every operator
 * lands on the home, and the figures are counts without personal data.
 */
export async function dashboardRoutes(app: FastifyInstance, { guards, service }: { guards: AdminGuards; service: DashboardService }): Promise<void> {
  app.get('/admin/dashboard', { onRequest: guards.button(null) }, async () => ok(await service.get()));
}
