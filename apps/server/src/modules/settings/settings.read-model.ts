import { settings } from '../../db/schema/settings.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/settings lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const settingsView = readModel(settings, 'settings_view');
export type SettingsRow = typeof settings.$inferSelect;
