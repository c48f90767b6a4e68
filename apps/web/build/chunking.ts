/**
 * How the production build cuts the portal into chunks (Rolldown options, wired in vite.config.ts).
 * The aim is the home page's first load (build/initial-js-report.ts): small, and made of chunks
 * that stay the same from one release to the next.
 */

const APP = /[\\/]apps[\\/]web[\\/]src[\\/]/;
/** The PDF viewer page (a second entry) and what it shares with the portal stay out of the shell. */
const VIEWER = /[\\/]apps[\\/]web[\\/]src[\\/](pdf-viewer[\\/]|components[\\/]preview[\\/]|lib[\\/]preferences\.ts$|i18n[\\/]locales[\\/][^\\/]+[\\/]files\.json$)/;

/** Modules of @contest/shared that the route tables read at load (see the shell group). */
const SHELL_SHARED = /[\\/]packages[\\/]shared[\\/]src[\\/]admin-menu-paths\.ts$/;

/**
 * Groups for `output.codeSplitting`. Everything else (antd's components above all) is left to
 * Rolldown's automatic splitting, which keeps each component with the pages that use it.
 */
export const codeSplitting = {
  groups: [
    // React and i18next: every page of both entries needs them.
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|use-sync-external-store)[\\/]/, priority: 30 },
    // The portal's plumbing: router and queries. axios is not here: the HTTP client fetches it
    // after the page has painted (src/api/http-client.ts), in a chunk of its own.
    { name: 'framework', test: /node_modules[\\/](react-router|@tanstack[\\/][^\\/]+)[\\/]/, priority: 25 },
    // antd's core that the entry needs (ConfigProvider, theme, CSS-in-JS), apart from the
    // components: left to automatic splitting, ConfigProvider landed in one chunk with the
    // message and modal code, which then came with every first load.
    {
      name: 'antd-core',
      tags: ['$initial' as const],
      test: /node_modules[\\/](antd|@ant-design|@rc-component|stylis|@emotion|clsx)[\\/]/,
      priority: 20,
      includeDependenciesRecursively: false,
    },
    // The portal's own modules that the entry imports statically (router, providers, session,
    // route tables, ...): one chunk instead of a dozen tiny ones, each with its own gzip overhead.
    // Only these modules, not what they import ('$initial' already means "needed at start").
    // The admin menu paths of @contest/shared go with them: the route tables read them while the
    // shell loads, and left to automatic splitting they landed in a chunk evaluated after it.
    {
      name: 'shell',
      tags: ['$initial' as const],
      test: (id: string) => (APP.test(id) && !VIEWER.test(id)) || SHELL_SHARED.test(id),
      priority: 15,
      includeDependenciesRecursively: false,
    },
  ],
};

/**
 * Tree-shaking (`treeshake`): the @rc-component/* packages declare no `sideEffects`, so every
 * module they import stayed in, used or not; their modules only define things. Marked side-effect
 * free they leave what nothing uses behind (3.8 KB gzip on the home page).
 */
export const treeshake = {
  moduleSideEffects: [{ test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false }],
};
