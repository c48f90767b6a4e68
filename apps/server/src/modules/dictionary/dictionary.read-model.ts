import { dictItems } from '../../db/schema/dictionary.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/dictionary lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const dictItemsView = readModel(dictItems, 'dict_items_view');
export type DictItemsRow = typeof dictItems.$inferSelect;
