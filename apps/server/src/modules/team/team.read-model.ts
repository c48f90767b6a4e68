import { teams, type TeamPerson } from '../../db/schema/team.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/team lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const teamsView = readModel(teams, 'teams_view');
export type TeamsRow = typeof teams.$inferSelect;
export type { TeamPerson };
