import type { AppResources } from './resources';

/** A translation namespace: one JSON file per language under ./locales/<lang>/. */
export type Namespace = keyof AppResources;

/**
 * Every namespace, for useTranslation() calls that read keys of any area ('admin:titles.home').
 * Kept apart from ./resources so code on the first load can name them without bundling the texts.
 */
export const NAMESPACES: Namespace[] = ['common', 'site', 'participant', 'admin', 'expert', 'files', 'signup', 'review', 'experts', 'docsAdmin', 'newsAdmin', 'messaging', 'scoreLog', 'results', 'liveAdmin', 'live', 'certificates', 'retention'];
export const DEFAULT_NS = 'common' satisfies Namespace;

/** Bundled with the first load (the public site); the others are fetched with their area. */
export const EAGER_NAMESPACES: readonly Namespace[] = ['common', 'site'];
