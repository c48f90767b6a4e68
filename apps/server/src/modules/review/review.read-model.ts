import { promotions, reviewExtraExperts, reviewGroupExperts, reviewGroups } from '../../db/schema/review.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/review lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const promotionsView = readModel(promotions, 'promotions_view');
export const reviewGroupExpertsView = readModel(reviewGroupExperts, 'review_group_experts_view');
export const reviewGroupsView = readModel(reviewGroups, 'review_groups_view');
/** Experts added to one project's re-review (certificates: the experts of a round, docs/certificates.md). */
export const reviewExtraExpertsView = readModel(reviewExtraExperts, 'review_extra_experts_view');
export type PromotionsRow = typeof promotions.$inferSelect;
export type ReviewGroupExpertsRow = typeof reviewGroupExperts.$inferSelect;
export type ReviewGroupsRow = typeof reviewGroups.$inferSelect;
