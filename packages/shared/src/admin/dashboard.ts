import type { PrelimDocStatus, TeamStatus } from '../enums.js';

/** Days of registrations the console home charts (Beijing days, today included). */
export const DASHBOARD_DAYS = 30;

export interface DashboardCount<K extends string = string> {
  key: K;
  count: number;
}

/** GET /admin/dashboard: the console home's figures, each from one aggregate query. */
export interface AdminDashboard {
  totals: {
    /** Participant (USER realm) accounts. */
    users: number;
    /** Participants registered today (Beijing day). */
    usersToday: number;
    teams: number;
    /** Teams past the draft: submitted, approved, returned or rejected. */
    teamsSubmitted: number;
    /** Preliminary materials handed in (SUBMITTED, APPROVED, REVISING, REJECTED). */
    prelimSubmitted: number;
  };
  /** One entry per Beijing day, oldest first, DASHBOARD_DAYS long, zero days included. */
  registrationsPerDay: Array<{ date: string; count: number }>;
  /** Every team status, zero included, in TEAM_STATUSES order. */
  teamsByStatus: Array<DashboardCount<TeamStatus>>;
  /**
   * Tracks that have teams, largest first; `name` and `nameEn` (English pages; null when the item
   * has none) from the TRACK dictionary (null: not chosen yet).
   */
  teamsByTrack: Array<{ key: string | null; name: string | null; nameEn: string | null; count: number }>;
  /** Preliminary materials by status; NOT_FILLED counts approved teams with nothing saved. */
  prelimByStatus: Array<DashboardCount<PrelimDocStatus>>;
}
