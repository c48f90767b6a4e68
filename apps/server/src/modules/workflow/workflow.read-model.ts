import { reminders, statusHistory } from '../../db/schema/workflow.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/workflow lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const remindersView = readModel(reminders, 'reminders_view');
export const statusHistoryView = readModel(statusHistory, 'status_history_view');
export type RemindersRow = typeof reminders.$inferSelect;
export type StatusHistoryRow = typeof statusHistory.$inferSelect;
