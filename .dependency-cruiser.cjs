/**
 * The layering rules (docs/architecture.md), checked on every `npm test` (npm run lint:deps).
 * routes -> service -> repository -> db; services know no Fastify; web areas never import each
 * other; shared imports nothing of the apps; the apps never import each other; on the server,
 * nothing at the bottom (lib, db, config) imports from above and no module imports app.ts; every table
 * has one owning module, and the others read it through the owner's read model.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-no-app',
      comment: 'packages/shared is imported by both apps, so it may import neither of them.',
      severity: 'error',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      comment: 'The server and the web app meet only in packages/shared.',
      severity: 'error',
      from: { path: '^apps/(server|web)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'web-areas-are-independent',
      comment: 'What two areas need lives in components/ or lib/ (each area is a lazily loaded chunk).',
      severity: 'error',
      from: { path: '^apps/web/src/areas/([^/]+)/' },
      to: { path: '^apps/web/src/areas/', pathNot: '^apps/web/src/areas/$1/' },
    },
    {
      name: 'components-and-lib-know-no-area',
      comment: 'Shared web code may not reach into an area (it would pull the area into every chunk).',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib|api|i18n)/' },
      to: { path: '^apps/web/src/areas/' },
    },
    {
      name: 'services-know-no-fastify',
      comment: 'Services are plain functions over the database; HTTP stays in routes.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/.+\\.service\\.ts$' },
      to: { path: '(^|/)node_modules/(fastify|@fastify/)' },
    },
    {
      name: 'services-import-no-routes',
      severity: 'error',
      from: { path: '^apps/server/src/modules/.+\\.service\\.ts$' },
      to: { path: '\\.(routes|http)\\.ts$' },
    },
    {
      name: 'repositories-import-no-services-or-routes',
      comment: 'A repository is the bottom layer above db: it calls nothing above it.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/.+\\.repository\\.ts$' },
      to: { path: '\\.(service|routes|http|module)\\.ts$' },
    },
    {
      name: 'routes-reach-data-through-services',
      comment: 'Routes call services; only services call repositories and the database.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/.+\\.routes\\.ts$' },
      // The Db type may be named for wiring; the tables and the repositories may not be reached.
      to: { path: '(\\.repository\\.ts$|^apps/server/src/db/(client|schema)\\.ts$)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-bottom-imports-nothing-above',
      comment:
        'lib/, db/ and config/ are the bottom of the server (docs/architecture.md, "Direction of dependencies"): ' +
        'they import no module, plugin, seed, command or top-level file (app.ts, app-deps.ts), not even a ' +
        'type. Tests may: they build the whole app.',
      severity: 'error',
      from: { path: '^apps/server/src/(lib|db|config)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/server/src/((modules|plugins|seed|cli)/|[^/]+\\.ts$)' },
    },
    {
      name: 'modules-import-no-app',
      comment:
        'app.ts builds the app from the modules, so a module takes what it needs from app-deps.ts, never from ' +
        'app.ts or the other top-level files, seed/ or cli/ (a type import would close a circle too). Tests may.',
      severity: 'error',
      from: { path: '^apps/server/src/(modules|plugins)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/server/src/((seed|cli)/|[^/]+\\.ts$)', pathNot: '^apps/server/src/app-deps\\.ts$' },
    },
    {
      name: 'modules-own-their-tables',
      comment:
        'Every table has one owning module (docs/architecture.md, "Database"): a module imports only its own ' +
        'schema file, db/schema/<module>.ts (never the db/schema.ts barrel); it reads other tables through their ' +
        "owner's read model (<owner>.read-model.ts) and changes them through their owner's calls. Tests, their " +
        'fixtures and child processes may seed any table.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: '\\.(test|fixtures|child)\\.ts$' },
      to: { path: '^apps/server/src/db/schema(\\.ts$|/)', pathNot: '^apps/server/src/db/schema/$1\\.ts$' },
    },
    {
      name: 'lib-owns-only-its-tables',
      comment: 'lib/ owns the jobs and key-value tables (db/schema/lib.ts) and reads no module\'s table.',
      severity: 'error',
      from: { path: '^apps/server/src/lib/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/server/src/db/schema(\\.ts$|/)', pathNot: '^apps/server/src/db/schema/lib\\.ts$' },
    },
    {
      name: 'only-config-reads-env',
      comment: 'Checked by ESLint (no-restricted-properties on process.env); listed here for the record.',
      severity: 'ignore',
      from: {},
      to: { path: '^$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(apps|packages)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'no-circular-through-the-app',
      comment:
        'no-circular lets type-only circles pass (a type names its owner freely inside a module); one through a ' +
        'top-level file of the server (app.ts, app-deps.ts) is caught here, type-only or not.',
      severity: 'error',
      from: { path: '^apps/server/src/' },
      to: { circular: true, via: { path: '^apps/server/src/[^/]+\\.ts$' }, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    combinedDependencies: true,
  },
};
