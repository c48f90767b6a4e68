import { prelimDocs } from '../../db/schema/prelim.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/prelim lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const prelimDocsView = readModel(prelimDocs, 'prelim_docs_view');
export type PrelimDocsRow = typeof prelimDocs.$inferSelect;
