import { appeals, resultEntries, resultVersions } from '../../db/schema/results.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/results lets the other modules read (docs/architecture.md, "Database"): the
 * published versions and their lines, read-only (bulk sends pick recipients by result).
 */
export const resultVersionsView = readModel(resultVersions, 'result_versions_view');
export const resultEntriesView = readModel(resultEntries, 'result_entries_view');
/** Appeals, read-only: retention waits while a participant's appeal is open and exports it (docs/retention.md). */
export const appealsView = readModel(appeals, 'appeals_view');
