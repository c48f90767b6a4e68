import { feedback } from '../../db/schema/feedback.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/feedback lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const feedbackView = readModel(feedback, 'feedback_view');
export type FeedbackRow = typeof feedback.$inferSelect;
