import { DASHBOARD_DAYS, PRELIM_DOC_STATUSES, TEAM_STATUSES, type AdminDashboard } from '@contest/shared';
import { rangeStart } from '../../../lib/filter-values.js';
import type { DashboardRepository } from './dashboard.repository.js';

const DAY_MS = 86_400_000;
const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** `YYYY-MM-DD` of the Beijing day `daysAgo` days before the one holding `now`. */
const beijingDate = (now: Date, daysAgo = 0) => new Date(now.getTime() + BEIJING_OFFSET_MS - daysAgo * DAY_MS).toISOString().slice(0, 10);

export function createDashboardService(repo: DashboardRepository, clock: () => Date = () => new Date()) {
  return {
    async get(): Promise<AdminDashboard> {
      const now = clock();
      const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => beijingDate(now, DASHBOARD_DAYS - 1 - i));
      const from = rangeStart(days[0])!;
      const to = new Date(rangeStart(days[days.length - 1])!.getTime() + DAY_MS);
      // One after another: the embedded database serves one query at a time anyway.
      const perDay = await repo.registrationsPerDay(from, to);
      const users = await repo.userCount();
      const byStatus = await repo.teamsByStatus();
      const byTrack = await repo.teamsByTrack();
      const prelim = await repo.prelimByStatus();
      const notFilled = await repo.prelimNotFilled();

      const dayCounts = new Map(perDay.map((r) => [r.date, r.count]));
      const registrationsPerDay = days.map((date) => ({ date, count: dayCounts.get(date) ?? 0 }));
      const statusCounts = new Map<string, number>(byStatus.map((r) => [r.key, r.count]));
      const teamsByStatus = TEAM_STATUSES.map((key) => ({ key, count: statusCounts.get(key) ?? 0 }));
      const prelimCounts = new Map<string, number>(prelim.map((r) => [r.key, r.count]));
      prelimCounts.set('NOT_FILLED', notFilled);
      const prelimByStatus = PRELIM_DOC_STATUSES.map((key) => ({ key, count: prelimCounts.get(key) ?? 0 }));
      const sum = (list: Array<{ count: number }>) => list.reduce((n, r) => n + r.count, 0);
      return {
        totals: {
          users,
          usersToday: registrationsPerDay[registrationsPerDay.length - 1]!.count,
          teams: sum(teamsByStatus),
          teamsSubmitted: sum(teamsByStatus.filter((r) => r.key !== 'DRAFT')),
          prelimSubmitted: sum(prelimByStatus.filter((r) => r.key !== 'DRAFT' && r.key !== 'NOT_FILLED')),
        },
        registrationsPerDay,
        teamsByStatus,
        teamsByTrack: byTrack.map((r) => ({ key: r.key, name: r.name, nameEn: r.nameEn?.trim() ? r.nameEn : null, count: r.count })),
        prelimByStatus,
      };
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
