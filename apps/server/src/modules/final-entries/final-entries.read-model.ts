import { finalEntries } from '../../db/schema/final-entries.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/final-entries lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const finalEntriesView = readModel(finalEntries, 'final_entries_view');
export type FinalEntriesRow = typeof finalEntries.$inferSelect;
