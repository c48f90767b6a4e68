import { expertConflicts, expertProfiles, type DeclaredOrg } from '../../db/schema/experts.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/experts lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const expertConflictsView = readModel(expertConflicts, 'expert_conflicts_view');
export const expertProfilesView = readModel(expertProfiles, 'expert_profiles_view');
export type ExpertConflictsRow = typeof expertConflicts.$inferSelect;
export type ExpertProfilesRow = typeof expertProfiles.$inferSelect;
export type { DeclaredOrg };
